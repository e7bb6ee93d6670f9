// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { readFlameData } from '../../../shared/flameData';
import { nestedSet, SMALL } from '../../testing/frames';
import { CallGraphView } from './CallGraphView';

const data = readFlameData(nestedSet(SMALL));

/** The boxes once the graph is made and placed (in idle time and after a paint). */
async function boxes() {
  await waitFor(() => expect(screen.getByTestId('callgraph')).toHaveAttribute('data-state', 'ready'));
  return screen.getAllByTestId('callgraph-node');
}

describe('CallGraphView', () => {
  it('says it is making the graph, then draws a box per function and an arrow per call', async () => {
    render(<CallGraphView data={data} width={800} height={500} onSandwich={() => undefined} />);
    expect(screen.getByTestId('callgraph')).toHaveTextContent('Making the call graph…');
    const b = await boxes();
    expect(b.map((e) => e.getAttribute('data-name')).sort()).toEqual(
      ['crypto/sha256.hash', 'encoding/json.parse', 'main.main', 'main.work', 'runtime.gcBgMarkWorker'].sort()
    );
    const main = b.find((e) => e.getAttribute('data-name') === 'main.main')!;
    expect(main).toHaveAttribute('data-flat', '10');
    expect(main).toHaveAttribute('data-cum', '70');
    expect(screen.getAllByTestId('callgraph-edge')).toHaveLength(3);
    expect(screen.getByTestId('callgraph-legend')).toHaveTextContent(
      'Showing nodes accounting for 100 ns, 100% of 100 ns total'
    );
  });

  it('picks a function by click or Enter and opens its sandwich by its name index', async () => {
    const onSandwich = jest.fn();
    render(<CallGraphView data={data} width={800} height={500} onSandwich={onSandwich} />);
    const work = (await boxes()).find((e) => e.getAttribute('data-name') === 'main.work')!;
    fireEvent.click(work);
    expect(work).toHaveAttribute('data-picked', 'true');
    expect(screen.getByTestId('callgraph-picked')).toHaveTextContent(
      'main.work: flat 5 ns (5.00%), cum 40 ns (40.00%)'
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sandwich' }));
    expect(onSandwich).toHaveBeenCalledWith(data.names.indexOf('main.work'));
    fireEvent.keyDown(work, { key: 'Enter' });
    expect(work).not.toHaveAttribute('data-picked');
  });

  it('keeps a saved node count in range: none is 80, a huge one 300, a small one that many', async () => {
    // a chain of 400 functions, each carrying the whole profile (none under pprof's cutoffs)
    const chain = readFlameData(
      nestedSet([
        [0, 'total', 100, 0],
        ...Array.from({ length: 400 }, (_, k): [number, string, number, number] => [
          k + 1,
          `main.f${k}`,
          100,
          k === 399 ? 100 : 0,
        ]),
      ])
    );
    const view = (nodeCount: number) => (
      <CallGraphView data={chain} width={800} height={500} nodeCount={nodeCount} onSandwich={() => undefined} />
    );
    const { rerender } = render(view(2));
    expect(await boxes()).toHaveLength(2);
    expect(screen.getByTestId('callgraph-legend')).toHaveTextContent('Showing top 2 nodes out of 400');
    rerender(view(0));
    expect(await boxes()).toHaveLength(80);
    rerender(view(1e9));
    expect(await boxes()).toHaveLength(300);
  });
});
