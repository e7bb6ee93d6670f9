// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { exprOf, readUrl, restoredQuery, storedQuery, writeUrl } from './url';
import { addressText } from './views';
import type { EmberscopeQuery } from '../datasource/types';

describe('playground address', () => {
  it('round-trips query and range', () => {
    const s = {
      query: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="api"} by (route)',
      from: 1000,
      to: 5000,
    };
    expect(readUrl(writeUrl(s))).toEqual(s);
    expect(writeUrl(s)).toContain('query=process_cpu%3Acpu');
  });

  it('falls back to the last hour for a missing or inverted range', () => {
    expect(readUrl('', 10_000_000)).toEqual({ query: '', from: 10_000_000 - 3_600_000, to: 10_000_000 });
    expect(readUrl('?from=9&to=5', 10_000_000).from).toBe(5 - 3_600_000);
  });

  it('keeps other parameters', () => {
    expect(writeUrl({ query: 'q', from: 1, to: 2 }, '?theme=dark')).toBe('?theme=dark&query=q&from=1&to=2');
  });

  it('writes structured fields as query text', () => {
    expect(exprOf('memory:alloc_space:bytes:space:bytes', '', [])).toBe('memory:alloc_space:bytes:space:bytes{}');
    expect(exprOf('t', '{a="b"}', ['x', 'y'])).toBe('t{a="b"} by (x, y)');
  });

  it('carries the whole query, so a reload opens it with every editor option', () => {
    const q: EmberscopeQuery = {
      refId: 'A',
      datasource: { uid: 'emb', type: 'emberscope-datasource' },
      queryType: 'both',
      profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds',
      labelSelector: '{service_name="api"}',
      groupBy: ['route'],
      granularity: 'lines',
      maxNodes: 512,
      includeExemplars: true,
      spanSelector: ['0123456789abcdef'],
      live: true,
      liveWindow: '5m',
      expr: '',
    };
    const search = writeUrl({ query: addressText(q), from: 1000, to: 5000, full: storedQuery(q) }, '?var-x=1');
    const u = readUrl(search);
    expect(u.error).toBeUndefined();
    expect(u.full).not.toHaveProperty('refId');
    expect(u.full).not.toHaveProperty('datasource');
    expect(u.full).not.toHaveProperty('expr');
    const back = restoredQuery(u, addressText);
    const { datasource: _ds, expr: _expr, ...rest } = q;
    expect(back).toEqual(rest);
    expect(new URLSearchParams(search).get('var-x')).toBe('1');
  });

  it('takes the query text when it was edited by hand, and the text alone without json', () => {
    const full = { queryType: 'profile' as const, profileTypeId: 't', labelSelector: '{a="b"}', groupBy: [], granularity: 'files' as const };
    const edited = restoredQuery({ query: 'reverse(t{a="c"})', from: 0, to: 1, full }, addressText);
    expect(edited).toMatchObject({ granularity: 'files', queryType: 'profile', expr: 'reverse(t{a="c"})' });
    const same = restoredQuery({ query: 't{a="b"}', from: 0, to: 1, full }, addressText);
    expect(same.expr).toBeUndefined();
    expect(restoredQuery(readUrl('?query=t%7B%7D'), addressText)).toEqual({
      refId: 'A',
      queryType: 'both',
      labelSelector: '{}',
      groupBy: [],
      expr: 't{}',
    });
  });

  it('says what is wrong with a bad json parameter and keeps the text', () => {
    const bad = readUrl('?query=t%7B%7D&json=%7Bnope');
    expect(bad.full).toBeUndefined();
    expect(bad.error).toMatch(/json parameter is not JSON/);
    expect(restoredQuery(bad, addressText).expr).toBe('t{}');
    expect(readUrl('?json=%5B1%5D').error).toMatch(/not a query object but an array/);
    expect(readUrl('?json=3').error).toMatch(/not a query object but number/);
  });
});
