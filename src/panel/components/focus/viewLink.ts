// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameData } from '../../../shared/flameData';
import { ColorMode, ViewMode, ViewOptions } from '../../types';
import { nodeAtPath, pathOf } from './callSitePath';

/**
 * What a person sees in the flame graph, as an address can carry it: the zoomed call path, the
 * view, the search, the sandwich's function, collapse and the colour scheme. Written from the
 * view's state and read back into it; the granularity belongs to the query, which the host's
 * address carries.
 */
export interface ViewLink {
  /** The zoomed call path, names from the root's first child down. */
  path?: string[];
  view?: ViewMode;
  table?: boolean;
  search?: string;
  /** The function whose sandwich is open. */
  sandwich?: string;
  collapse?: boolean;
  color?: ColorMode;
}

/** The address parameter of a panel's view (`flame` and the panel's id when it has one). */
export const linkParam = (panelId?: number) => (panelId ? `flame${panelId}` : 'flame');

/** What the view state shows, as a link (only what differs from a fresh view is written). */
export function linkOf(
  s: { data: FlameData; focus: number; search: string; sandwich?: number },
  shown: FlameData,
  opt: ViewOptions
): ViewLink {
  const link: ViewLink = {};
  const path = pathOf(shown, s.focus);
  if (path.length > 0) {
    link.path = path;
  }
  if (opt.viewMode) {
    link.view = opt.viewMode;
  }
  if (opt.showTable !== undefined) {
    link.table = opt.showTable;
  }
  if (s.search) {
    link.search = s.search;
  }
  if (s.sandwich !== undefined && s.sandwich >= 0) {
    link.sandwich = shown.names[s.sandwich];
  }
  if (opt.collapse !== undefined) {
    link.collapse = opt.collapse;
  }
  link.color = opt.colorMode;
  return link;
}

export function encodeLink(l: ViewLink): string {
  return JSON.stringify(l);
}

const VIEWS: ViewMode[] = ['graph', 'table', 'both', 'tree', 'callgraph'];
const COLORS: ColorMode[] = ['self', 'selfNode', 'total', 'package'];

/**
 * A link read back; a field of the wrong kind is left out (the rest still opens), and text that
 * is no link at all gives undefined.
 */
export function decodeLink(text: string | undefined | null): ViewLink | undefined {
  if (!text) {
    return undefined;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null) {
    return undefined;
  }
  const r = raw as Record<string, unknown>;
  const l: ViewLink = {};
  if (Array.isArray(r.path) && r.path.every((x) => typeof x === 'string')) {
    l.path = r.path as string[];
  }
  if (VIEWS.includes(r.view as ViewMode)) {
    l.view = r.view as ViewMode;
  }
  if (typeof r.table === 'boolean') {
    l.table = r.table;
  }
  if (typeof r.search === 'string') {
    l.search = r.search;
  }
  if (typeof r.sandwich === 'string') {
    l.sandwich = r.sandwich;
  }
  if (typeof r.collapse === 'boolean') {
    l.collapse = r.collapse;
  }
  if (COLORS.includes(r.color as ColorMode)) {
    l.color = r.color as ColorMode;
  }
  return l;
}

/**
 * Where a link's path is in data: the node, or (when the cut at maxNodes left it out) the deepest
 * node of the path the graph has and the whole path, for the view to fetch and go on.
 */
export function linkFocus(data: FlameData, path: string[] | undefined): { focus: number; pending?: string[] } {
  if (!path || path.length === 0) {
    return { focus: 0 };
  }
  for (let n = path.length; n > 0; n--) {
    const at = nodeAtPath(data, path.slice(0, n));
    if (at >= 0) {
      return n === path.length ? { focus: at } : { focus: at, pending: path };
    }
  }
  return { focus: 0 };
}

/** The header's choices a link sets, kept as the view's own (local) choices. */
export function linkOptions(l: ViewLink): Partial<ViewOptions> {
  const o: Partial<ViewOptions> = {};
  if (l.view) {
    o.viewMode = l.view;
  }
  if (l.table !== undefined) {
    o.showTable = l.table;
  }
  if (l.collapse !== undefined) {
    o.collapse = l.collapse;
  }
  if (l.color) {
    o.colorMode = l.color;
  }
  return o;
}

/**
 * The view a query asks for (its `view` field: a link's JSON object or its text), so a query that
 * Grafana keeps (Explore's address, a dashboard's JSON) reopens the view it was saved with. The
 * address's own link wins over it. Undefined when the query has none or it is no link.
 */
export function queryLink(target: { view?: unknown } | undefined): ViewLink | undefined {
  const v = target?.view;
  if (typeof v === 'string') {
    return decodeLink(v);
  }
  return typeof v === 'object' && v !== null ? decodeLink(JSON.stringify(v)) : undefined;
}

/**
 * The address of an Explore page (`/explore?panes={…}` as Grafana writes it, or the older
 * `left={…}`) with the view set as the `view` field of the query that made the panel's frame (by
 * refId; every query when none is known): Explore keeps its queries in its address, so the link
 * opens the same queries and the panel the same picture. Undefined for an address that is no
 * Explore page; the panel's own `flame…` parameters are dropped (the query's view replaces them).
 */
export function exploreUrlWithView(href: string, refId: string | undefined, link: ViewLink): string | undefined {
  const url = new URL(href);
  if (!/\/explore\/?$/.test(url.pathname)) {
    return undefined;
  }
  const withView = (q: { refId?: unknown }) => (refId === undefined || q.refId === refId ? { ...q, view: link } : q);
  const panes = url.searchParams.get('panes');
  const left = url.searchParams.get('left');
  try {
    if (panes) {
      const all = JSON.parse(panes) as Record<string, { queries?: Array<{ refId?: unknown }> }>;
      for (const pane of Object.values(all)) {
        pane.queries = pane.queries?.map(withView);
      }
      url.searchParams.set('panes', JSON.stringify(all));
    } else if (left) {
      const pane = JSON.parse(left) as { queries?: Array<{ refId?: unknown }> };
      pane.queries = pane.queries?.map(withView);
      url.searchParams.set('left', JSON.stringify(pane));
    } else {
      return undefined;
    }
  } catch {
    return undefined;
  }
  for (const key of [...url.searchParams.keys()]) {
    if (/^flame\d*$/.test(key)) {
      url.searchParams.delete(key);
    }
  }
  return url.toString();
}
