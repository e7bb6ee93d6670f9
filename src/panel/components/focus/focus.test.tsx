// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { configure, fireEvent, render, screen, within } from '@testing-library/react';
import { DataFrame } from '@grafana/data';
import { readFlameData } from '../../../shared/flameData';
import { nestedSet, Row } from '../../testing/frames';
import { defaultOptions } from '../../options';
import { FlameGraphContainer } from '../FlameGraphContainer';
import { initialViewState, shownData, viewReducer } from '../state';
import { againstWhole, cutUnder, nodeAtPath, pathOf } from './callSitePath';
import { fetchedFocusOf } from './useFocusFetch';

configure({ asyncUtilTimeout: 15000 });

// a graph cut at maxNodes: main.work's callees were folded into `other`
const CUT: Row[] = [
  [0, 'total', 100, 0],
  [1, 'main.main', 100, 0],
  [2, 'main.idle', 40, 40],
  [2, 'main.work', 60, 0],
  [3, 'other', 60, 60],
];
// what the backend answers for the call site main.main › main.work
const SITE: Row[] = [
  [0, 'total', 60, 0],
  [1, 'main.main', 60, 0],
  [2, 'main.work', 60, 0],
  [3, 'crypto.hash', 45, 45],
  [3, 'json.parse', 15, 15],
];
const PATH = ['main.main', 'main.work'];

function siteFrame(selectedBy = 'server'): DataFrame {
  const f = nestedSet(SITE);
  return { ...f, meta: { custom: { callSite: { path: PATH, selectedBy, wholeTotal: 100 } } } };
}

const cut = readFlameData(nestedSet(CUT));

describe('the call path of a node', () => {
  it('is the names from the root’s first child down, and finds the node back', () => {
    expect(pathOf(cut, 3)).toEqual(PATH);
    expect(pathOf(cut, 0)).toEqual([]);
    expect(nodeAtPath(cut, PATH)).toBe(3);
    expect(nodeAtPath(cut, ['main.main', 'main.gone'])).toBe(-1);
  });

  it('lost detail to the cut when an `other` node is under it', () => {
    expect(cutUnder(cut, 3)).toBe(true);
    expect(cutUnder(cut, 2)).toBe(false);
  });

  it('is drawn against the whole graph: the root holds the whole total, the rest is the root’s self', () => {
    const site = againstWhole(readFlameData(nestedSet(SITE)), 100);
    expect(Array.from(site.value)).toEqual([100, 60, 60, 45, 15]);
    expect(Array.from(site.self)).toEqual([40, 0, 0, 45, 15]);
  });

  it('an answer that is not focused is refused with a reason', () => {
    expect(() => fetchedFocusOf(PATH, nestedSet(SITE))).toThrow(/does not select call sites/);
  });
});

describe('the view with a fetched call site', () => {
  const fetched = fetchedFocusOf(PATH, siteFrame());
  const start = initialViewState(cut, {});

  it('draws the answer at the zoomed node, and a zoom above it returns to the profile at the same path', () => {
    let s = viewReducer(start, { type: 'zoom', node: 3 });
    s = viewReducer(s, { type: 'focusFetched', fetched });
    expect(shownData(s)).toBe(fetched.data);
    expect(s.focus).toBe(nodeAtPath(fetched.data, PATH));
    s = viewReducer(s, { type: 'zoom', node: nodeAtPath(fetched.data, ['main.main']) });
    expect(shownData(s)).toBe(cut);
    expect(s.focus).toBe(1);
  });

  it('drops an answer for a call site the user has left, and reset returns to the first answer', () => {
    let s = viewReducer(start, { type: 'zoom', node: 2 });
    expect(viewReducer(s, { type: 'focusFetched', fetched })).toBe(s);
    s = viewReducer(viewReducer(start, { type: 'zoom', node: 3 }), { type: 'focusFetched', fetched });
    s = viewReducer(s, { type: 'reset' });
    expect(shownData(s)).toBe(cut);
    expect(s.focus).toBe(0);
  });
});

describe('a zoom into a cut graph', () => {
  const rows = async () =>
    (await screen.findAllByTestId('top-table-row')).map((r) => within(r).getAllByRole('cell')[0].textContent).sort();

  it('asks for the call site once, draws it with the notice, and reset returns without asking', async () => {
    const fetcher = jest.fn(async () => siteFrame());
    render(
      <FlameGraphContainer
        data={cut}
        width={1000}
        height={500}
        options={{ ...defaultOptions, collapse: false }}
        cut
        fetchCallSite={fetcher}
      />
    );
    const view = screen.getByTestId('flamegraph-view');
    const zoomToWork = () => {
      fireEvent.keyDown(view, { key: 'ArrowDown' });
      fireEvent.keyDown(view, { key: 'ArrowDown' });
      fireEvent.keyDown(view, { key: 'Enter' });
    };
    zoomToWork();
    expect(await screen.findByText(/Fetched at full resolution: the profile server selected its samples/)).toBeTruthy();
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(fetcher).toHaveBeenCalledWith(PATH);
    // the top table follows the focus: the call site's functions, the cut's `other` gone
    expect(await rows()).toEqual(['crypto.hash', 'json.parse', 'main.main', 'main.work']);

    fireEvent.click(screen.getByRole('button', { name: 'Reset zoom' }));
    expect(screen.queryByTestId('focus-notice')).toBeNull();
    expect(await rows()).toEqual(['main.idle', 'main.main', 'main.work', 'other']);

    zoomToWork();
    expect(await screen.findByTestId('focus-notice')).toHaveTextContent('Fetched at full resolution');
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it('says when the datasource, not the server, selected the samples, and why a fetch failed', async () => {
    const answers = [Promise.reject(new Error('HTTP 502')), Promise.resolve(siteFrame('datasource'))];
    answers[0].catch(() => undefined);
    const fetcher = jest.fn(() => answers.shift()!);
    render(
      <FlameGraphContainer
        data={cut}
        width={1000}
        height={500}
        options={{ ...defaultOptions, collapse: false }}
        cut
        fetchCallSite={fetcher}
      />
    );
    const view = screen.getByTestId('flamegraph-view');
    const zoomToWork = () => {
      fireEvent.keyDown(view, { key: 'ArrowDown' });
      fireEvent.keyDown(view, { key: 'ArrowDown' });
      fireEvent.keyDown(view, { key: 'Enter' });
    };
    zoomToWork();
    expect(await screen.findByText(/could not be fetched \(HTTP 502\)/)).toBeTruthy();
    fireEvent.keyDown(view, { key: 'Escape' });
    zoomToWork();
    expect(await screen.findByText(/the datasource filtered the range's profile to it/)).toBeTruthy();
    expect(fetcher).toHaveBeenCalledTimes(2);
  });
});
