// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameData } from '../../shared/flameData';
import { FlameIndex, isAncestorOrSelf } from '../model/flameIndex';
import { FetchedFocus, nodeAtPath, pathOf, sameName } from './focus/callSitePath';
import { linkFocus, linkOptions, ViewLink } from './focus/viewLink';
import type { FetchedSandwich } from './Sandwich/fetchedSandwich';
import { SortKey } from '../model/topTable';
import { ViewMode, ViewOptions } from '../types';

/**
 * What the user has done to the view, as one value: every change to it is a named action of
 * `viewReducer`, so every transition can be read in one place (and the value could be written to
 * a link). Graph nodes are kept as nodes of the uncollapsed graph, so switching collapse keeps a
 * zoom; functions are kept as name indexes.
 */
export interface ViewState {
  /** The profile this state is about: a new one starts unzoomed. */
  data: FlameData;
  /** The zoomed node (0: the root). */
  focus: number;
  /** The node the keyboard or a right-click picked (-1: none). */
  selected: number;
  hover: { node: number; x: number; y: number };
  /** The open context menu: a node of the shown graph and where it was opened. */
  menu?: { node: number; x: number; y: number };
  /** The search box's text. */
  search: string;
  /** The search the host last saved (the panel editor): a new one replaces the typed text. */
  savedSearch?: string;
  /** The function whose nodes are highlighted (-1: none). */
  highlight: number;
  /** The function whose sandwich is shown. */
  sandwich?: number;
  /** The function picked in the call graph (-1: none). */
  graphPick: number;
  /** The call tree has been shown once (its drawer is kept mounted after). */
  treeSeen: boolean;
  sort: { key: SortKey; desc: boolean };
  /** Heads of the chains the user expanded, as nodes of the uncollapsed graph. */
  expanded: Set<number>;
  /** The header's choices, kept here when the host does not save them. */
  local: Partial<ViewOptions>;
  /** The drawer's width as the user dragged it. */
  drawerWidth?: number;
  /**
   * The zoomed call site as asked of the backend at full resolution (the first answer was cut
   * there): while set, the graph drawn is its `data`, and focus and the other nodes and names
   * are of it.
   */
  fetched?: FetchedFocus;
  /** The call path being asked for. */
  fetching?: string[];
  /** Why the last call site could not be fetched. */
  focusError?: string;
  /** A link's call path the graph cut at maxNodes does not hold: reached once its call site is fetched. */
  pendingPath?: string[];
  /**
   * The open sandwich as the backend merged it from the full-resolution profile (the graph was
   * cut at maxNodes): drawn instead of the one merged from the cut graph while its name is open.
   */
  sandwichFetched?: FetchedSandwich;
  /** The function whose full-resolution sandwich is being asked for. */
  sandwichFetching?: string;
  /** Why the last full-resolution sandwich could not be fetched. */
  sandwichError?: string;
}

export type ViewAction =
  | { type: 'newProfile'; data: FlameData }
  | { type: 'savedSearch'; search?: string }
  | { type: 'zoom'; node: number }
  | { type: 'reset'; unhighlight?: boolean }
  | { type: 'select'; node: number }
  | { type: 'hover'; node: number; x: number; y: number }
  | { type: 'openMenu'; node: number; orig: number; x: number; y: number }
  | { type: 'closeMenu' }
  | { type: 'search'; text: string }
  | { type: 'clearSearch' }
  | { type: 'highlight'; name: number }
  | { type: 'toggleHighlight'; name: number }
  | { type: 'showInTable'; name: number; switchView: boolean }
  | { type: 'openSandwich'; name: number }
  | { type: 'closeSandwich' }
  | { type: 'pickInGraph'; name: number }
  | { type: 'toggleChain'; head: number; open: boolean; index: FlameIndex }
  | { type: 'setView'; view: ViewMode; showTable: boolean }
  | { type: 'setCollapse'; on: boolean }
  | { type: 'setOptions'; changed: Partial<ViewOptions> }
  | { type: 'sort'; key: SortKey }
  | { type: 'resizeDrawer'; width: number }
  | { type: 'focusFetching'; path: string[] }
  | { type: 'focusFetched'; fetched: FetchedFocus }
  | { type: 'focusFailed'; path: string[]; error: string }
  | { type: 'openLink'; link: ViewLink }
  | { type: 'sandwichFetching'; name: string }
  | { type: 'sandwichFetched'; fetched: FetchedSandwich }
  | { type: 'sandwichFailed'; name: string; error: string };

/** The graph the view draws: the fetched call site's, or the profile's. */
export const shownData = (s: Pick<ViewState, 'data' | 'fetched'>): FlameData => s.fetched?.data ?? s.data;

const NO_HOVER = { node: -1, x: 0, y: 0 };

/** No full-resolution sandwich asked for or kept: what opening, closing or leaving a sandwich sets. */
const NO_SANDWICH_FETCH = { sandwichFetched: undefined, sandwichFetching: undefined, sandwichError: undefined };

/** The name of the function whose sandwich is open, undefined when none is. */
export function openSandwichName(s: Pick<ViewState, 'data' | 'fetched' | 'sandwich'>): string | undefined {
  return s.sandwich === undefined ? undefined : shownData(s).names[s.sandwich];
}

/** The state a profile opens with: unzoomed, nothing picked, the table by self (by change for a diff). */
export function initialViewState(
  data: FlameData,
  opened: { search?: string; drawerWidth?: number; view?: ViewMode; link?: ViewLink }
): ViewState {
  const { search, drawerWidth, link } = opened;
  // a link opens the view as it was seen: its zoom (fetched when the cut left it out), search,
  // sandwich and header choices
  const at = linkFocus(data, link?.path);
  const sandwich = link?.sandwich !== undefined ? data.names.indexOf(link.sandwich) : -1;
  return {
    data,
    focus: at.focus,
    selected: at.focus > 0 ? at.focus : -1,
    hover: NO_HOVER,
    search: link?.search ?? search ?? '',
    savedSearch: search,
    highlight: -1,
    sandwich: sandwich >= 0 ? sandwich : undefined,
    graphPick: -1,
    treeSeen: opened.view === 'tree' || link?.view === 'tree',
    sort: { key: data.valueRight !== undefined ? 'diff' : 'self', desc: true },
    expanded: new Set(),
    local: link ? linkOptions(link) : {},
    drawerWidth,
    pendingPath: at.pending,
  };
}

export function viewReducer(s: ViewState, a: ViewAction): ViewState {
  switch (a.type) {
    case 'newProfile':
      // the header's choices, the search, the sort and the drawer stay; what was picked goes
      return {
        ...s,
        data: a.data,
        focus: 0,
        selected: -1,
        highlight: -1,
        sandwich: undefined,
        graphPick: -1,
        hover: NO_HOVER,
        menu: undefined,
        expanded: new Set(),
        fetched: undefined,
        fetching: undefined,
        focusError: undefined,
        pendingPath: undefined,
        ...NO_SANDWICH_FETCH,
      };
    case 'savedSearch':
      return { ...s, savedSearch: a.search, search: a.search ?? '' };
    case 'zoom':
      return zoomed(s, a.node);
    case 'reset': {
      const whole = { ...onData(s, s.data), pendingPath: undefined };
      return { ...whole, focus: 0, selected: -1, menu: undefined, highlight: a.unhighlight ? -1 : whole.highlight };
    }
    case 'select':
      return { ...s, selected: a.node };
    case 'hover':
      return s.hover.node === a.node && a.node < 0 ? s : { ...s, hover: { node: a.node, x: a.x, y: a.y } };
    case 'openMenu':
      return { ...s, selected: a.orig, menu: { node: a.node, x: a.x, y: a.y } };
    case 'closeMenu':
      return { ...s, menu: undefined };
    case 'search':
      return { ...s, search: a.text, highlight: -1 };
    case 'clearSearch':
      return { ...s, search: '', highlight: -1, local: { ...s.local, search: '' } };
    case 'highlight':
      return { ...s, highlight: a.name, menu: undefined };
    case 'toggleHighlight':
      return { ...s, highlight: s.highlight === a.name ? -1 : a.name };
    case 'showInTable':
      return {
        ...s,
        highlight: a.name,
        search: '',
        menu: undefined,
        local: a.switchView ? { ...s.local, viewMode: 'table' } : s.local,
      };
    case 'openSandwich':
      return { ...s, sandwich: a.name, menu: undefined, hover: NO_HOVER, ...NO_SANDWICH_FETCH };
    case 'closeSandwich':
      return { ...s, sandwich: undefined, ...NO_SANDWICH_FETCH };
    case 'pickInGraph':
      return s.graphPick === a.name ? s : { ...s, graphPick: a.name };
    case 'toggleChain':
      return { ...s, expanded: toggledChains(s.expanded, a.head, a.open, a.index), menu: undefined };
    case 'setView':
      return {
        ...s,
        sandwich: undefined,
        ...NO_SANDWICH_FETCH,
        treeSeen: s.treeSeen || a.view === 'tree',
        local: { ...s.local, viewMode: a.view, showTable: a.showTable },
      };
    case 'setCollapse':
      return { ...s, expanded: new Set(), local: { ...s.local, collapse: a.on } };
    case 'setOptions':
      return { ...s, local: { ...s.local, ...a.changed } };
    case 'sort':
      return { ...s, sort: { key: a.key, desc: s.sort.key === a.key ? !s.sort.desc : a.key !== 'name' } };
    case 'resizeDrawer':
      return { ...s, drawerWidth: a.width };
    case 'focusFetching':
      return { ...s, fetching: a.path, focusError: undefined };
    case 'focusFetched':
      return withFetched(s, a.fetched);
    case 'focusFailed':
      return samePath(s.fetching, a.path) ? { ...s, fetching: undefined, focusError: a.error } : s;
    case 'openLink':
      return withLink(s, a.link);
    case 'sandwichFetching':
      return { ...s, sandwichFetching: a.name, sandwichError: undefined };
    case 'sandwichFetched':
      // an answer for a sandwich since closed or changed is not the view's any more
      return openSandwichName(s) === a.fetched.name
        ? { ...s, ...NO_SANDWICH_FETCH, sandwichFetched: a.fetched }
        : { ...s, sandwichFetching: s.sandwichFetching === a.fetched.name ? undefined : s.sandwichFetching };
    case 'sandwichFailed':
      return s.sandwichFetching === a.name ? { ...s, sandwichFetching: undefined, sandwichError: a.error } : s;
  }
}

function samePath(a: string[] | undefined, b: string[]): boolean {
  return a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * s drawing data (the profile's graph, or a fetched call site's): the names picked are carried
 * over by name; the nodes picked, the expanded chains and the question out are dropped.
 */
function onData(s: ViewState, data: FlameData, fetched?: FetchedFocus): ViewState {
  const from = shownData(s);
  if (from === data) {
    return { ...s, fetched, fetching: undefined, focusError: undefined };
  }
  return {
    ...s,
    fetched,
    fetching: undefined,
    focusError: undefined,
    selected: -1,
    hover: NO_HOVER,
    menu: undefined,
    expanded: new Set(),
    highlight: sameName(s.highlight, from, data),
    sandwich: sandwichOn(s.sandwich, from, data),
    graphPick: sameName(s.graphPick, from, data),
  };
}

function sandwichOn(name: number | undefined, from: FlameData, to: FlameData): number | undefined {
  const k = name === undefined ? -1 : sameName(name, from, to);
  return k >= 0 ? k : undefined;
}

/** A zoom; above a fetched call site it returns to the profile's graph at the same call path. */
function zoomed(s: ViewState, node: number): ViewState {
  const f = s.fetched;
  if (f && node >= 0 && node < f.data.count && f.data.level[node] < f.path.length) {
    const at = Math.max(0, nodeAtPath(s.data, pathOf(f.data, node)));
    return { ...onData(s, s.data), focus: at, selected: at };
  }
  return { ...s, focus: node, selected: node, menu: undefined, focusError: undefined, pendingPath: undefined };
}

/** The answer for the call site zoomed, drawn at its path's node; an answer for a path left is dropped. */
function withFetched(s: ViewState, fetched: FetchedFocus): ViewState {
  if (!samePath(pathOf(shownData(s), s.focus), fetched.path)) {
    return samePath(s.fetching, fetched.path) ? { ...s, fetching: undefined } : s;
  }
  const at = nodeAtPath(fetched.data, fetched.path);
  if (at < 0) {
    return { ...s, fetching: undefined, focusError: 'the answer does not hold the call path asked for' };
  }
  // a link's path below the call site fetched for it
  const linked = s.pendingPath ? nodeAtPath(fetched.data, s.pendingPath) : -1;
  const focus = linked >= 0 ? linked : at;
  return { ...onData(s, fetched.data, fetched), focus, selected: focus, pendingPath: undefined };
}

/**
 * A link opened on a view already shown (the query's view changed in the editor): the picture it
 * describes on the profile's graph, as initialViewState opens one; the header choices a link
 * carries are its own (left unset: the panel's options), the others stay.
 */
function withLink(s: ViewState, link: ViewLink): ViewState {
  const whole = onData(s, s.data);
  const at = linkFocus(s.data, link.path);
  const sandwich = link.sandwich !== undefined ? s.data.names.indexOf(link.sandwich) : -1;
  const { viewMode: _v, showTable: _t, collapse: _c, colorMode: _m, ...kept } = s.local;
  return {
    ...whole,
    ...NO_SANDWICH_FETCH,
    focus: at.focus,
    selected: at.focus > 0 ? at.focus : -1,
    menu: undefined,
    search: link.search ?? '',
    highlight: -1,
    sandwich: sandwich >= 0 ? sandwich : undefined,
    treeSeen: s.treeSeen || link.view === 'tree',
    local: { ...kept, ...linkOptions(link) },
    pendingPath: at.pending,
  };
}

/**
 * The panel options an action changes, for the host to save with the dashboard (undefined: none).
 * The reducer keeps the same change in `local`, for hosts that do not save.
 */
export function savedOptions(a: ViewAction): Partial<ViewOptions> | undefined {
  switch (a.type) {
    case 'clearSearch':
      return { search: '' };
    case 'showInTable':
      return a.switchView ? { viewMode: 'table' } : undefined;
    case 'setView':
      return { viewMode: a.view, showTable: a.showTable };
    case 'setCollapse':
      return { collapse: a.on };
    case 'setOptions':
      return a.changed;
    default:
      return undefined;
  }
}

/** Opening adds a chain's head; closing at a node drops every opened chain it is in (head at or above it). */
function toggledChains(heads: Set<number>, head: number, open: boolean, index: FlameIndex): Set<number> {
  const next = new Set(heads);
  if (open) {
    next.add(head);
  } else {
    for (const x of heads) {
      if (isAncestorOrSelf(index, x, head)) {
        next.delete(x);
      }
    }
  }
  return next;
}
