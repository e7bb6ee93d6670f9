// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { readFlameData } from '../../../shared/flameData';
import { nestedSet, Row } from '../../testing/frames';
import { initialViewState, shownData, viewReducer } from '../state';
import { nodeAtPath } from './callSitePath';
import { fetchedFocusOf } from './useFocusFetch';
import { decodeLink, encodeLink, exploreUrlWithView, linkOf, queryLink, ViewLink } from './viewLink';

const CUT: Row[] = [
  [0, 'total', 100, 0],
  [1, 'main.main', 100, 0],
  [2, 'main.idle', 40, 40],
  [2, 'main.work', 60, 0],
  [3, 'other', 60, 60],
];
const SITE: Row[] = [
  [0, 'total', 60, 0],
  [1, 'main.main', 60, 0],
  [2, 'main.work', 60, 0],
  [3, 'crypto.hash', 45, 45],
  [3, 'json.parse', 15, 15],
];
const cut = readFlameData(nestedSet(CUT));
const opt = { colorMode: 'self' as const, textAlign: 'left' as const, showTable: true, minBarWidth: 1, colorBlindDiff: false };

describe('a view link', () => {
  it('is read back as written; a field of the wrong kind is left out and text that is no link opens nothing', () => {
    const l: ViewLink = { path: ['main.main'], view: 'graph', table: false, search: 'main', sandwich: 'main.work', collapse: false, color: 'package' };
    expect(decodeLink(encodeLink(l))).toEqual(l);
    expect(decodeLink('{"path":[1,2],"view":"pie","search":"x"}')).toEqual({ search: 'x' });
    expect(decodeLink('not json')).toBeUndefined();
    expect(decodeLink(null)).toBeUndefined();
  });

  it("is read from a query's view field, as Explore's address or a dashboard keeps the query", () => {
    const l: ViewLink = { path: ['main.main', 'main.idle'], view: 'tree', search: 'idle', sandwich: 'main.idle' };
    expect(queryLink({ view: l })).toEqual(l);
    expect(queryLink({ view: encodeLink(l) })).toEqual(l);
    expect(queryLink({ view: { path: 'main.main', view: 'graph' } })).toEqual({ view: 'graph' });
    expect(queryLink({})).toBeUndefined();
    expect(queryLink(undefined)).toBeUndefined();
    const s = initialViewState(cut, { link: queryLink({ view: l }) });
    expect(s.focus).toBe(2);
    expect(cut.names[s.sandwich!]).toBe('main.idle');
  });

  it('opens the view at its zoom, search, sandwich and header choices', () => {
    const s = initialViewState(cut, { link: { path: ['main.main', 'main.idle'], search: 'idle', sandwich: 'main.idle', view: 'tree', color: 'total' } });
    expect(s.focus).toBe(2);
    expect(s.search).toBe('idle');
    expect(cut.names[s.sandwich!]).toBe('main.idle');
    expect(s.local).toMatchObject({ viewMode: 'tree', colorMode: 'total' });
    expect(linkOf(s, cut, { ...opt, ...s.local })).toMatchObject({ path: ['main.main', 'main.idle'], search: 'idle', sandwich: 'main.idle', view: 'tree', color: 'total' });
  });

  it('a path the cut left out opens at its deepest node in the graph and goes on once that call site is fetched', () => {
    const path = ['main.main', 'main.work', 'crypto.hash'];
    let s = initialViewState(cut, { link: { path } });
    expect(s.focus).toBe(nodeAtPath(cut, ['main.main', 'main.work']));
    expect(s.pendingPath).toEqual(path);
    const site = nestedSet(SITE);
    const fetched = fetchedFocusOf(['main.main', 'main.work'], {
      ...site,
      meta: { custom: { callSite: { path: ['main.main', 'main.work'], selectedBy: 'server', wholeTotal: 100 } } },
    });
    s = viewReducer(s, { type: 'focusFetched', fetched });
    expect(shownData(s)).toBe(fetched.data);
    expect(s.focus).toBe(nodeAtPath(fetched.data, path));
    expect(s.pendingPath).toBeUndefined();
  });
});

describe('a view opened on a view already shown (the query’s view changed in the editor)', () => {
  it('opens its zoom, search, sandwich and view; a view with none of them returns to the panel’s options', () => {
    let s = viewReducer(initialViewState(cut, {}), { type: 'setOptions', changed: { colorMode: 'package', textAlign: 'right' } });
    s = viewReducer(s, { type: 'openLink', link: { path: ['main.main', 'main.idle'], search: 'idle', sandwich: 'main.work', view: 'tree' } });
    expect(s.focus).toBe(nodeAtPath(cut, ['main.main', 'main.idle']));
    expect(s.search).toBe('idle');
    expect(cut.names[s.sandwich!]).toBe('main.work');
    // the link's choices replace the header's; the others (text alignment) stay
    expect(s.local).toEqual({ viewMode: 'tree', textAlign: 'right' });
    s = viewReducer(s, { type: 'openLink', link: {} });
    expect([s.focus, s.search, s.sandwich, s.local]).toEqual([0, '', undefined, { textAlign: 'right' }]);
  });
});

describe('Copy link in Explore', () => {
  const link: ViewLink = { path: ['main.main', 'main.work'], view: 'tree', search: 'json' };
  const pane = {
    datasource: 'ember',
    queries: [
      { refId: 'A', datasource: { uid: 'ember' }, queryType: 'both', labelSelector: '{}' },
      { refId: 'B', datasource: { uid: 'ember' }, queryType: 'metrics' },
    ],
    range: { from: 'now-1h', to: 'now' },
  };

  it('gives Explore’s address with the view as the view of the query that made the frame', () => {
    const href = `https://grafana.example/explore?schemaVersion=1&panes=${encodeURIComponent(JSON.stringify({ x1: pane }))}&orgId=1&flame=${encodeURIComponent('{"path":["old"]}')}`;
    const url = new URL(exploreUrlWithView(href, 'A', link)!);
    const panes = JSON.parse(url.searchParams.get('panes')!);
    expect(panes.x1.queries[0]).toEqual({ ...pane.queries[0], view: link });
    expect(panes.x1.queries[1]).toEqual(pane.queries[1]);
    expect(panes.x1.range).toEqual(pane.range);
    expect(url.searchParams.get('orgId')).toBe('1');
    // the query's view opens it: the panel's own address parameter is dropped
    expect(url.searchParams.has('flame')).toBe(false);
    // and the panel reads it back from the query as Explore gives it
    expect(queryLink(panes.x1.queries[0])).toEqual(link);
  });

  it('reads the older left= address, and leaves other pages to the panel’s own parameter', () => {
    const href = `https://grafana.example/explore?left=${encodeURIComponent(JSON.stringify(pane))}`;
    const left = JSON.parse(new URL(exploreUrlWithView(href, 'A', link)!).searchParams.get('left')!);
    expect(left.queries[0].view).toEqual(link);
    expect(exploreUrlWithView('https://grafana.example/d/abc/service?viewPanel=2', 'A', link)).toBeUndefined();
    expect(exploreUrlWithView('https://grafana.example/explore?panes=not-json', 'A', link)).toBeUndefined();
  });
});
