// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/** The view the address holds: `/?query=<text>&from=<ms>&to=<ms>`. */
export interface UrlState {
  query: string;
  from: number;
  to: number;
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
  return { query: p.get('query') ?? '', from: Math.round(from), to: Math.round(to) };
}

/** Writes the view as a search string (`?query=...&from=...&to=...`), keeping other parameters of `keep`. */
export function writeUrl(s: UrlState, keep = ''): string {
  const p = new URLSearchParams(keep);
  if (s.query) {
    p.set('query', s.query);
  } else {
    p.delete('query');
  }
  p.set('from', String(Math.round(s.from)));
  p.set('to', String(Math.round(s.to)));
  return `?${p.toString()}`;
}

/** The text form of a structured query: `type{selector} by (a, b)`. */
export function exprOf(profileTypeId: string, selector: string, groupBy: string[]): string {
  const sel = selector.trim() || '{}';
  const by = groupBy.filter(Boolean);
  return `${profileTypeId}${sel}${by.length ? ` by (${by.join(', ')})` : ''}`;
}
