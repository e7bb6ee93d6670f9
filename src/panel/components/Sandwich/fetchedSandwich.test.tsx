// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { configure, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DataFrame } from '@grafana/data';
import { readFlameData } from '../../../shared/flameData';
import { nestedSet, Row } from '../../testing/frames';
import { defaultOptions } from '../../options';
import { FlameGraphContainer } from '../FlameGraphContainer';
import { SourceProvider } from '../Source/SourceContext';
import { fetchedSandwichOf } from './fetchedSandwich';

configure({ asyncUtilTimeout: 15000 });

// a graph cut at maxNodes: main.work's callees were folded into `other`, and so was its call
// from main.idle (the cut graph knows one call site of it)
const CUT: Row[] = [
  [0, 'total', 100, 0],
  [1, 'main.main', 100, 0],
  [2, 'main.idle', 40, 0],
  [3, 'other', 40, 40],
  [2, 'main.work', 60, 0],
  [3, 'other', 60, 60],
];
// what the backend merges from the full-resolution profile for main.work
const CALLERS: Row[] = [
  [0, 'main.work', 90, 0],
  [1, 'main.idle', 30, 0],
  [2, 'main.main', 30, 30],
  [1, 'main.main', 60, 60],
];
const CALLEES: Row[] = [
  [0, 'main.work', 90, 0],
  [1, 'crypto.hash', 60, 60],
  [1, 'json.parse', 30, 30],
];

function half(rows: Row[], which: 'callers' | 'callees', fn = 'main.work'): DataFrame {
  const f = nestedSet(rows);
  return { ...f, meta: { custom: { sandwich: { function: fn, half: which, self: 0, total: 90, sites: 2, cut: false } } } };
}

const cut = readFlameData(nestedSet(CUT));
const target = { datasourceUid: 'ds', profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds', from: 1, to: 2 };

function renderCut(fetcher: (name: string) => Promise<DataFrame[]>) {
  return render(
    <SourceProvider target={target}>
      <FlameGraphContainer
        data={cut}
        width={1000}
        height={500}
        options={{ ...defaultOptions, collapse: false, viewMode: 'both' }}
        cut
        fetchSandwich={fetcher}
      />
    </SourceProvider>
  );
}

/** The sandwich's callers and callees as its Source menu lists them. */
async function sandwichNames(): Promise<string[]> {
  screen.getByRole('button', { name: 'Source of main.work, its callers or callees' }).focus();
  await userEvent.keyboard('{Enter}');
  const menu = await screen.findByRole('menu');
  const names = within(menu)
    .getAllByRole('menuitem')
    .map((m) => m.textContent ?? '');
  await userEvent.keyboard('{Escape}');
  return names;
}

describe('the sandwich of a function the cut folded into other', () => {
  it('is fetched at full resolution: callers and callees the cut graph did not have, with a notice', async () => {
    const fetcher = jest.fn(async () => [half(CALLERS, 'callers'), half(CALLEES, 'callees')]);
    renderCut(fetcher);
    fireEvent.click(await screen.findByRole('button', { name: 'Sandwich view of main.work' }));
    expect(await screen.findByText(/Fetched at full resolution: merged from every sample/)).toBeTruthy();
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(fetcher).toHaveBeenCalledWith('main.work');
    // the cut graph had one call site, from main.main, and only `other` below it
    expect(screen.getByTestId('sandwich-summary')).toHaveTextContent('total 90 ns (90.0%) · 2 call sites');
    expect(await sandwichNames()).toEqual(['main.work', 'main.main', 'main.idle', 'crypto.hash', 'json.parse']);

    // Back returns to the graph asking nothing; reopening uses the answer kept
    fireEvent.click(screen.getByRole('button', { name: 'Exit sandwich view' }));
    expect(screen.queryByTestId('sandwich-view')).toBeNull();
    fireEvent.click(await screen.findByRole('button', { name: 'Sandwich view of main.work' }));
    expect(await screen.findByText(/Fetched at full resolution/)).toBeTruthy();
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it('is drawn from the cut graph while asked, and says why when the fetch fails', async () => {
    const fetcher = jest.fn(async () => {
      throw new Error('HTTP 502');
    });
    renderCut(fetcher);
    fireEvent.click(await screen.findByRole('button', { name: 'Sandwich view of main.work' }));
    expect(await screen.findByText(/could not be fetched \(HTTP 502\)/)).toBeTruthy();
    expect(screen.getByTestId('sandwich-summary')).toHaveTextContent('total 60 ns (60.0%) · 1 call site');
    expect(await sandwichNames()).toEqual(['main.work', 'main.main', 'other']);
  });

  it('refuses an answer that is no sandwich of the function', () => {
    expect(() => fetchedSandwichOf('main.work', [nestedSet(CALLEES)])).toThrow(/answered no sandwich/);
    expect(() =>
      fetchedSandwichOf('main.work', [half(CALLERS, 'callers', 'main.x'), half(CALLEES, 'callees', 'main.x')])
    ).toThrow(/sandwich of main.x, not of main.work/);
  });
});
