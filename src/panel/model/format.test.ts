// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { barLabel, fitText, formatPercent, formatValue } from './format';

describe('format', () => {
  it('writes bar labels as name (share, value with unit)', () => {
    expect(barLabel('main.work', 1.2e9, 1e10, 'ns')).toBe('main.work (12.0%, 1.20 s)');
    expect(formatValue(2048, 'bytes')).toBe('2 KiB');
    expect(formatValue(1.25e9, 'ns')).toBe('1.25 s');
    expect(formatPercent(0.0042)).toBe('0.42%');
    expect(formatPercent(1)).toBe('100%');
  });

  it('truncates cleanly with an ellipsis at the end or the start', () => {
    expect(fitText('github.com/acme/api.Handle', 12)).toBe('github.com/…');
    expect(fitText('github.com/acme/api.Handle', 12, 'right')).toBe('…/api.Handle');
    expect(fitText('short', 12)).toBe('short');
    expect(fitText('abcdef', 2)).toBe('');
  });
});
