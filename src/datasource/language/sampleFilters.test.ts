// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { withSampleFilters } from './sampleFilters';

describe('the panel ignore and hide written into a query', () => {
  const q = 'process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="shop"}';

  it('wraps the query in hide, then ignore, with the regex quoted as the language reads it', () => {
    expect(withSampleFilters(q, { ignore: 'sha256', hide: '^runtime\\.' })).toBe(
      `ignore(hide(${q}, "^runtime\\\\."), "sha256")`
    );
  });

  it('adds nothing for empty regexes, nor twice for one the query applies', () => {
    expect(withSampleFilters(q, { ignore: '', hide: '' })).toBe(q);
    const once = withSampleFilters(q, { ignore: 'json' });
    expect(withSampleFilters(once, { ignore: 'json' })).toBe(once);
  });

  it('leaves an empty query empty', () => {
    expect(withSampleFilters('  ', { ignore: 'x' })).toBe('  ');
  });
});
