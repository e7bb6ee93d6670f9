// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * Width of one character of a monospace CSS font, measured once per font on an offscreen
 * canvas (so text can be fitted by counting characters); fallback when nothing can measure.
 */
const widths = new Map<string, number>();

export function monoCharWidth(font: string, fallback = 7.2): number {
  let w = widths.get(font);
  if (w === undefined) {
    w = fallback;
    const ctx = typeof document !== 'undefined' ? document.createElement('canvas').getContext('2d') : null;
    if (ctx) {
      ctx.font = font;
      const m = ctx.measureText('MMMMMMMMMM').width / 10;
      if (m > 0) {
        w = m;
      }
    }
    widths.set(font, w);
  }
  return w;
}
