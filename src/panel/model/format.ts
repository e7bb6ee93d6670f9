// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { formattedValueToString, getValueFormat } from '@grafana/data';
import type { TextAlign } from '../types';

/** Formats a value in a Grafana unit (`ns`, `bytes`, `short`, ...): `1.20 s`, `3.4 MiB`. */
export function formatValue(value: number, unit?: string): string {
  const fmt = getValueFormat(unit || 'short');
  return formattedValueToString(fmt(value));
}

/** Formats a share (0–1) as a percentage with one decimal below 10% and none above 99.5%: `0.4%`, `12.3%`, `100%`. */
export function formatPercent(share: number): string {
  const p = share * 100;
  if (p >= 99.95) {
    return '100%';
  }
  return `${p.toFixed(p < 10 ? 2 : 1)}%`;
}

/** The text of a bar: `name (12.3%, 1.20 s)`. */
export function barLabel(name: string, value: number, rootTotal: number, unit?: string): string {
  return `${name} (${formatPercent(rootTotal > 0 ? value / rootTotal : 0)}, ${formatValue(value, unit)})`;
}

/**
 * Fits text into maxChars characters of a monospace font: the whole text when it fits,
 * otherwise the part that fits with `…` where the cut is — at the end for 'left'
 * alignment, at the start for 'right' (keeping the end of a long qualified name).
 * Returns '' when not even two characters and the ellipsis fit.
 */
export function fitText(text: string, maxChars: number, align: TextAlign = 'left'): string {
  if (text.length <= maxChars) {
    return text;
  }
  if (maxChars < 3) {
    return '';
  }
  return align === 'left' ? text.slice(0, maxChars - 1) + '…' : '…' + text.slice(text.length - maxChars + 1);
}
