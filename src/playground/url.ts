// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import type { EmberscopeQuery } from '../datasource/types';

/**
 * The view the address holds: `/?query=<text>&from=<ms>&to=<ms>&json=<query>`: the query as
 * text (readable, and editable by hand) and the whole query as the editor holds it (JSON:
 * granularity, exemplars, span ids, live... everything but refId and datasource).
 */
export interface UrlState {
  query: string;
  from: number;
  to: number;
  /** The whole query (`json`); undefined when the address has none, or a bad one (see error). */
  full?: Partial<EmberscopeQuery>;
  /** What was wrong with the address's `json` parameter. */
  error?: string;
}

/** The query the address keeps: q without refId and datasource, and without empty fields. */
export function storedQuery(q: EmberscopeQuery): Partial<EmberscopeQuery> {
  const { refId: _refId, datasource: _ds, ...rest } = q;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) {
    if (v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0 && k !== 'groupBy')) {
      out[k] = v;
    }
  }
  return out as Partial<EmberscopeQuery>;
}

/**
 * The query to reload to: the whole stored query when the address has one, its text taken
 * from `query` when that was edited by hand (text(full) differs); otherwise the text alone.
 */
export function restoredQuery(u: UrlState, text: (q: EmberscopeQuery) => string): EmberscopeQuery {
  const base: EmberscopeQuery = { refId: 'A', queryType: 'both', labelSelector: '{}', groupBy: [] };
  if (!u.full) {
    return { ...base, expr: u.query || undefined };
  }
  const q: EmberscopeQuery = { ...base, ...u.full, refId: 'A' };
  return u.query && u.query !== text(q) ? { ...q, expr: u.query } : q;
}

function parseFull(raw: string | null): { full?: Partial<EmberscopeQuery>; error?: string } {
  if (raw === null || raw === '') {
    return {};
  }
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch (e) {
    return { error: `The address's json parameter is not JSON (${e instanceof Error ? e.message : String(e)}): the query text alone was opened` };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    return { error: `The address's json parameter is not a query object but ${Array.isArray(v) ? 'an array' : typeof v}: the query text alone was opened` };
  }
  return { full: v as Partial<EmberscopeQuery> };
}

/** Default range when the address has none: the last hour. */
export const DEFAULT_RANGE_MS = 60 * 60 * 1000;

/** Reads the view from a location search string; missing or bad values fall back to the last hour. */
export function readUrl(search: string, now = Date.now()): UrlState {
  const p = new URLSearchParams(search);
  const num = (k: string) => {
    const v = p.get(k);
    const n = v === null || v === '' ? NaN : Number(v);
    return Number.isFinite(n) ? n : undefined;
  };
  let to = num('to') ?? now;
  let from = num('from') ?? to - DEFAULT_RANGE_MS;
  if (from >= to) {
    from = to - DEFAULT_RANGE_MS;
  }
  const out: UrlState = { query: p.get('query') ?? '', from: Math.round(from), to: Math.round(to) };
  const { full, error } = parseFull(p.get('json'));
  if (full) {
    out.full = full;
  }
  if (error) {
    out.error = error;
  }
  return out;
}

/** Writes the view as a search string (`?query=...&from=...&to=...&json=...`), keeping other parameters of `keep`. */
export function writeUrl(s: UrlState, keep = ''): string {
  const p = new URLSearchParams(keep);
  if (s.query) {
    p.set('query', s.query);
  } else {
    p.delete('query');
  }
  p.set('from', String(Math.round(s.from)));
  p.set('to', String(Math.round(s.to)));
  if (s.full) {
    p.set('json', JSON.stringify(s.full));
  } else {
    p.delete('json');
  }
  return `?${p.toString()}`;
}

/** The text form of a structured query: `type{selector} by (a, b)`. */
export function exprOf(profileTypeId: string, selector: string, groupBy: string[]): string {
  const sel = selector.trim() || '{}';
  const by = groupBy.filter(Boolean);
  return `${profileTypeId}${sel}${by.length ? ` by (${by.join(', ')})` : ''}`;
}
