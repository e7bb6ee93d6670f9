// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { exprOf, readUrl, writeUrl } from './url';

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
});
