// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { configure, fireEvent, render, screen } from '@testing-library/react';
import { DataFrame, FieldType } from '@grafana/data';
import { readFlameData } from '../../../shared/flameData';
import { diffRowsOfStacks, nestedSet } from '../../testing/frames';
import { defaultOptions } from '../../options';
import { FlameGraphContainer } from '../FlameGraphContainer';
import { callSiteQuery } from './requestFetcher';
import { fetchedFocusOf } from './useFocusFetch';

configure({ asyncUtilTimeout: 15000 });

const PATH = ['main.main', 'main.work'];

/** A diff frame of two sets of stacks, with meta. */
function diffFrame(
  left: Array<{ value: number; stack: string[] }>,
  right: Array<{ value: number; stack: string[] }>,
  custom?: Record<string, unknown>
): DataFrame {
  const d = diffRowsOfStacks(left, right);
  const f = nestedSet(d.rows, {
    extra: [
      { name: 'valueRight', type: FieldType.number, values: d.valueRight, config: { unit: 'ns' } },
      { name: 'selfRight', type: FieldType.number, values: d.selfRight, config: { unit: 'ns' } },
    ],
  });
  return custom ? { ...f, meta: { custom } } : f;
}

// the shown diff, cut at maxNodes: main.work's callees folded into `other` on both sides
const cutDiff = diffFrame(
  [
    { value: 40, stack: ['main.main', 'main.idle'] },
    { value: 60, stack: ['main.main', 'main.work', 'other'] },
  ],
  [
    { value: 20, stack: ['main.main', 'main.idle'] },
    { value: 180, stack: ['main.main', 'main.work', 'other'] },
  ],
  { truncated: true }
);
// the backend's answer for the call site on both sides (TestDiffFocusesEachSide), whole totals 100 and 200
const siteDiff = diffFrame(
  [
    { value: 45, stack: [...PATH, 'crypto.hash'] },
    { value: 15, stack: [...PATH, 'json.parse'] },
  ],
  [
    { value: 160, stack: [...PATH, 'crypto.hash'] },
    { value: 20, stack: [...PATH, 'json.parse'] },
  ],
  {
    callSite: { path: PATH, selectedBy: 'server', wholeTotal: 100 },
    comparisonCallSite: { path: PATH, selectedBy: 'server', wholeTotal: 200 },
  }
);

describe('a zoom below the cut of a diff', () => {
  it('asks for the call site on both sides of the diff', () => {
    const target = {
      refId: 'A',
      queryType: 'diff',
      labelSelector: '{a="1"}',
      comparison: { labelSelector: '{a="2"}', from: 1, to: 2 },
    };
    expect(callSiteQuery(target, PATH)).toEqual({
      ...target,
      callSite: PATH,
      comparison: { labelSelector: '{a="2"}', from: 1, to: 2, callSite: PATH },
    });
    expect(callSiteQuery({ refId: 'A', queryType: 'both' }, PATH)).toEqual({
      refId: 'A',
      queryType: 'profile',
      callSite: PATH,
    });
  });

  it('draws each side against its own whole graph', () => {
    const f = fetchedFocusOf(PATH, siteDiff);
    // a bar holds both sides (baseline + comparison), as the diff's columns are read
    expect(Array.from(f.data.value).slice(0, 3)).toEqual([300, 240, 240]);
    expect(Array.from(f.data.valueRight!).slice(0, 3)).toEqual([200, 180, 180]);
    expect(f.data.self[0]).toBe(60);
    expect(f.data.selfRight![0]).toBe(20);
  });

  it('fetches the diff subtree and draws it in place of other', async () => {
    const fetcher = jest.fn(async () => siteDiff);
    render(
      <FlameGraphContainer
        data={readFlameData(cutDiff)}
        width={1000}
        height={500}
        options={{ ...defaultOptions, collapse: false }}
        cut
        fetchCallSite={fetcher}
      />
    );
    const view = screen.getByTestId('flamegraph-view');
    fireEvent.keyDown(view, { key: 'ArrowDown' });
    fireEvent.keyDown(view, { key: 'ArrowDown' });
    fireEvent.keyDown(view, { key: 'Enter' });
    expect(await screen.findByText(/Fetched at full resolution/)).toBeTruthy();
    expect(fetcher).toHaveBeenCalledWith(PATH);
    const names = (await screen.findAllByTestId('top-table-row')).map((r) => r.getAttribute('title')).sort();
    expect(names).toEqual(['crypto.hash', 'json.parse', 'main.main', 'main.work']);
  });
});
