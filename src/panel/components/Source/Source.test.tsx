// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { readFlameData } from '../../../shared/flameData';
import { nestedSet, SMALL } from '../../testing/frames';
import { buildIndex } from '../../model/flameIndex';
import { buildSandwich } from '../../model/sandwich';
import { defaultOptions } from '../../options';
import { CallTree } from '../CallTree/CallTree';
import { SandwichView } from '../Sandwich/SandwichView';
import { SourceProvider } from './SourceContext';
import { SourceFileView } from './SourceFileView';
import { SourceAnswer, sourceTargetOf, sourceUrl, SourceTarget } from './sourceApi';

const target: SourceTarget = {
  datasourceUid: 'ds',
  profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds',
  from: 1000,
  to: 2000,
};

/** The functions the page asked the source resource for, in order. */
let asked: string[] = [];

beforeEach(() => {
  asked = [];
  global.fetch = jest.fn(async (url: string | URL | Request) => {
    const fn = new URL(String(url), 'http://x').searchParams.get('function') ?? '';
    asked.push(fn);
    const answer: SourceAnswer = { function: fn, unit: 'nanoseconds', total: 100, files: [] };
    return { ok: true, status: 200, json: async () => answer } as Response;
  }) as typeof fetch;
});

const index = buildIndex(readFlameData(nestedSet(SMALL)));
const nodeOf = (name: string) => {
  for (let i = 0; i < index.data.count; i++) {
    if (index.data.names[index.data.nameIdx[i]] === name) {
      return i;
    }
  }
  throw new Error(name);
};

function renderTree() {
  return render(
    <SourceProvider target={target}>
      <CallTree
        index={index}
        width={600}
        height={300}
        focus={nodeOf('main.work')}
        onSelect={() => {}}
        colorBlind={false}
      />
    </SourceProvider>
  );
}

describe('the call tree opens the source view', () => {
  it("from a row's </> button, without zooming or toggling the row", async () => {
    const onSelect = jest.fn();
    render(
      <SourceProvider target={target}>
        <CallTree index={index} width={600} height={300} focus={0} onSelect={onSelect} colorBlind={false} />
      </SourceProvider>
    );
    const row = screen.getAllByTestId('call-tree-row').find((r) => r.title === 'main.main')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Source of main.main' }));
    expect(await screen.findByText('Source of main.main')).toBeInTheDocument();
    await waitFor(() => expect(asked).toEqual(['main.main']));
    expect(onSelect).not.toHaveBeenCalled();
  });

  it("with S on the keyboard cursor's row", async () => {
    renderTree();
    const tree = screen.getByRole('treegrid', { name: 'Call tree' });
    tree.focus();
    fireEvent.keyDown(tree, { key: 's' });
    expect(await screen.findByText('Source of main.work')).toBeInTheDocument();
    await waitFor(() => expect(asked).toEqual(['main.work']));
  });

  it('offers no source action where the panel has no datasource to ask', () => {
    render(
      <SourceProvider>
        <CallTree index={index} width={600} height={300} focus={0} onSelect={() => {}} colorBlind={false} />
      </SourceProvider>
    );
    expect(screen.queryAllByTestId('row-source')).toHaveLength(0);
  });
});

describe('the sandwich opens the source view', () => {
  const sandwich = buildSandwich(index, index.data.nameIdx[nodeOf('main.work')]);
  const view = (
    <SourceProvider target={target}>
      <SandwichView
        sandwich={sandwich}
        unit="ns"
        rootTotal={100}
        width={600}
        height={400}
        options={defaultOptions}
        darkTheme={false}
        onExit={() => {}}
      />
    </SourceProvider>
  );

  it('for its function, a caller or a callee, from a menu the keyboard reaches', async () => {
    render(view);
    const button = screen.getByRole('button', { name: 'Source of main.work, its callers or callees' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((m) => m.textContent)
    ).toEqual(['main.work', 'main.main', 'crypto/sha256.hash']);
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Source of crypto/sha256.hash' }));
    expect(await screen.findByText('Source of crypto/sha256.hash')).toBeInTheDocument();
    await waitFor(() => expect(asked).toEqual(['crypto/sha256.hash']));
  });
});

describe('the source view of a diff', () => {
  it('shows each side of every line and the difference, marking the largest change', () => {
    const line = (n: number, base: [number, number], comp: [number, number]) => ({
      line: n,
      text: `line ${n}`,
      self: comp[0] - base[0],
      total: comp[1] - base[1],
      baseline: { self: base[0], total: base[1] },
      comparison: { self: comp[0], total: comp[1] },
    });
    render(
      <SourceFileView
        diff
        unit="nanoseconds"
        total={1000}
        file={{
          path: 'main.go',
          lines: [line(10, [0, 300], [0, 100]), line(11, [50, 50], [90, 90]), line(12, [0, 0], [0, 0])],
        }}
      />
    );
    const rows = screen.getAllByTestId('source-line');
    const cells = (r: HTMLElement) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cells(rows[0])).toEqual(['.', '300 ns', '.', '100 ns', '.', '-200 ns', '10', 'line 10']);
    expect(cells(rows[1])).toEqual(['50 ns', '50 ns', '90 ns', '90 ns', '+40 ns', '+40 ns', '11', 'line 11']);
    expect(rows[0]).toHaveAttribute('data-hot', 'hottest');
    expect(screen.getAllByRole('columnheader').map((c) => c.textContent)).toEqual(
      expect.arrayContaining(['Baseline', 'Comparison', 'Difference'])
    );
  });

  it("asks the resource with the diff query's two sides", () => {
    const t = sourceTargetOf(
      [
        {
          datasource: { uid: 'ds' },
          queryType: 'diff',
          profileTypeId: target.profileTypeId,
          labelSelector: '{build="old"}',
          comparison: { labelSelector: '{build="new"}', from: 3000, to: 4000 },
        },
      ],
      { from: 1000, to: 2000 }
    )!;
    const q = new URL(sourceUrl(t, 'main.work'), 'http://x').searchParams;
    expect(Object.fromEntries(q.entries())).toEqual({
      function: 'main.work',
      from: '1000',
      to: '2000',
      profileTypeId: target.profileTypeId,
      labelSelector: '{build="old"}',
      'comparison.labelSelector': '{build="new"}',
      'comparison.from': '3000',
      'comparison.to': '4000',
    });
  });
});
