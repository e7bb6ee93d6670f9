// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/** The app's pages, each a route under the app's base path (`/a/emberscope-app/<page>`). */
export type PageId = 'services' | 'service' | 'labels' | 'diff' | 'spans' | 'favourites' | 'openfile' | 'rules';

export const PAGES: Array<{ id: PageId; title: string; icon: string }> = [
  { id: 'services', title: 'Services', icon: 'apps' },
  { id: 'service', title: 'Service', icon: 'fire' },
  { id: 'labels', title: 'Labels', icon: 'tag-alt' },
  { id: 'diff', title: 'Diff', icon: 'exchange-alt' },
  { id: 'spans', title: 'Spans and novelty', icon: 'gf-traces' },
  { id: 'favourites', title: 'Favourites', icon: 'favorite' },
  { id: 'openfile', title: 'Open a file', icon: 'upload' },
  { id: 'rules', title: 'Recording rules', icon: 'calculator-alt' },
];

/** The app's plugin id and the base path Grafana serves its pages under. */
export const APP_ID = 'emberscope-app';
export const APP_BASE = `/a/${APP_ID}`;

/** A label filter of the Service and Labels pages: `name="value"` (include) or `name!="value"` (exclude). */
export interface Filter {
  name: string;
  value: string;
  exclude: boolean;
}

/** A time range in epoch milliseconds. */
export interface Span {
  from: number;
  to: number;
}

/** Everything a view is: the page and its parameters, all in the address. */
export interface ViewState {
  page: PageId;
  /** Datasource uid (`ds`); empty: the first Emberscope datasource. */
  ds: string;
  /** Profile type id (`type`). */
  type: string;
  /** Grafana's raw range (`from`, `to`): epoch ms or relative (`now-1h`). */
  from: string;
  to: string;
  service: string;
  /** Label the series are grouped by (`by`). */
  by: string;
  /** Label turned into virtual frames at the base of the flame graph (`frames`). */
  frames: string;
  filters: Filter[];
  /** The services page's name filter (`q`) and page (`page`, 1-based). */
  search: string;
  pageNo: number;
  /** The diff's baseline and comparison ranges (`bFrom`,`bTo`,`cFrom`,`cTo`). */
  baseline?: Span;
  comparison?: Span;
  /** The Spans page's heatmap: of whole profiles (empty) or of single spans (`heat=span`). */
  heat?: 'span';
  /** The Spans page's picked exemplar (`pick`): `span:<span id>` or `profile:<profile id>`. */
  pick?: string;
}

export const DEFAULT_FROM = 'now-1h';
export const DEFAULT_TO = 'now';

const FILTER = /^([A-Za-z_][A-Za-z0-9_.]*)(!?=)"((?:[^"\\]|\\.)*)"$/;

/** Reads one filter parameter (`route="/api"` or `route!="/api"`); undefined when it is not one. */
export function parseFilter(text: string): Filter | undefined {
  const m = FILTER.exec(text.trim());
  if (!m) {
    return undefined;
  }
  return { name: m[1], exclude: m[2] === '!=', value: m[3].replace(/\\(.)/g, '$1') };
}

/** A filter as a Prometheus matcher. */
export function formatFilter(f: Filter): string {
  return `${f.name}${f.exclude ? '!=' : '='}"${f.value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** The selector of a service with filters: `{service_name="api", route="/x"}`. */
export function selectorOf(service: string, filters: Filter[] = []): string {
  const m = service ? [formatFilter({ name: 'service_name', value: service, exclude: false })] : [];
  return `{${[...m, ...filters.map(formatFilter)].join(', ')}}`;
}

function span(p: URLSearchParams, a: string, b: string): Span | undefined {
  const from = Number(p.get(a));
  const to = Number(p.get(b));
  return p.has(a) && p.has(b) && Number.isFinite(from) && Number.isFinite(to) && from < to ? { from, to } : undefined;
}

/** Reads the view from the path below the app's base and the search string. */
export function readView(pathname: string, search: string, base = APP_BASE): ViewState {
  const rest = pathname.startsWith(base) ? pathname.slice(base.length) : pathname;
  const seg = rest.split('/').filter(Boolean)[0] ?? 'services';
  const page = (PAGES.find((p) => p.id === seg)?.id ?? 'services') as PageId;
  const p = new URLSearchParams(search);
  const pageNo = Math.max(1, Math.floor(Number(p.get('page') ?? '1')) || 1);
  return {
    page,
    ds: p.get('ds') ?? '',
    type: p.get('type') ?? '',
    from: p.get('from') || DEFAULT_FROM,
    to: p.get('to') || DEFAULT_TO,
    service: p.get('service') ?? '',
    by: p.get('by') ?? '',
    frames: p.get('frames') ?? '',
    filters: p
      .getAll('f')
      .map(parseFilter)
      .filter((f): f is Filter => f !== undefined),
    search: p.get('q') ?? '',
    pageNo,
    baseline: span(p, 'bFrom', 'bTo'),
    comparison: span(p, 'cFrom', 'cTo'),
    heat: p.get('heat') === 'span' ? 'span' : undefined,
    pick: /^(span|profile):./.test(p.get('pick') ?? '') ? (p.get('pick') as string) : undefined,
  };
}

/** Writes the view as the app's address (path and search); empty parameters are left out. */
export function writeView(v: ViewState, base = APP_BASE): string {
  const p = new URLSearchParams();
  const set = (k: string, val: string | number | undefined) => {
    if (val !== undefined && val !== '') {
      p.set(k, String(val));
    }
  };
  set('ds', v.ds);
  set('type', v.type);
  set('from', v.from);
  set('to', v.to);
  set('service', v.service);
  set('by', v.by);
  set('frames', v.frames);
  for (const f of v.filters) {
    p.append('f', formatFilter(f));
  }
  set('q', v.search);
  if (v.pageNo > 1) {
    set('page', v.pageNo);
  }
  if (v.baseline) {
    set('bFrom', Math.round(v.baseline.from));
    set('bTo', Math.round(v.baseline.to));
  }
  if (v.comparison) {
    set('cFrom', Math.round(v.comparison.from));
    set('cTo', Math.round(v.comparison.to));
  }
  set('heat', v.heat);
  set('pick', v.pick);
  const s = p.toString();
  return `${base}/${v.page}${s ? `?${s}` : ''}`;
}
