// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameData, percentBase } from '../../shared/flameData';
import { Chains, forEachVisibleInColumns } from '../model/chains';
import { FlameIndex } from '../model/flameIndex';
import { forEachVisible, LayoutParams, levelAt, rowY } from '../model/layout';
import { barLabel } from '../model/format';
import { nameFormsCache } from '../model/shortName';
import { DIMMED_FILL, DIMMED_FILL_DARK, NodeColors } from '../model/colors';
import { TextAlign } from '../types';

/** Everything the base layer needs to draw one frame. */
export interface DrawParams extends LayoutParams {
  index: FlameIndex;
  colors: NodeColors;
  /** CSS px height of the visible area. */
  height: number;
  scrollTop: number;
  minBarWidth: number;
  textAlign: TextAlign;
  /** 1 per node that matches the search / highlighted name; undefined when nothing is searched. */
  nodeMatch?: Uint8Array;
  darkTheme: boolean;
  font: string;
  /** Width of one character of `font` in CSS px (monospace). */
  charWidth: number;
  /** Collapsed chains: how many frames each bar holds; a bar holding more says so (`name (+2)`). */
  frames?: Int32Array;
  /**
   * Draw the whole graph (focus on the root) straight from these columns instead of from the
   * index (which is then not read): the first draw, before any index is made. With `chains`, the
   * chains are collapsed; nodes (for colors and nodeMatch) are the columns' rows.
   */
  columns?: { data: FlameData; chains?: Chains };
}

/** Horizontal padding of bar text in CSS px. */
export const TEXT_PADDING = 4;

let hatch: CanvasPattern | null | undefined;
function hatchPattern(ctx: CanvasRenderingContext2D): CanvasPattern | null {
  if (hatch === undefined) {
    const c = document.createElement('canvas');
    c.width = 8;
    c.height = 8;
    const p = c.getContext('2d');
    if (p) {
      p.strokeStyle = 'rgba(255,255,255,0.45)';
      p.lineWidth = 2;
      p.beginPath();
      p.moveTo(0, 8);
      p.lineTo(8, 0);
      p.moveTo(-2, 2);
      p.lineTo(2, -2);
      p.moveTo(6, 10);
      p.lineTo(10, 6);
      p.stroke();
    }
    hatch = ctx.createPattern(c, 'repeat');
  }
  return hatch;
}

/**
 * Draws the visible rows of the flamegraph: only levels inside [scrollTop, scrollTop+height)
 * and only the focus's subtree (plus its ancestors). Returns how many bars were drawn.
 */
export function drawFlame(ctx: CanvasRenderingContext2D, p: DrawParams): number {
  const { index, rowHeight, height, scrollTop, columns } = p;
  const data = columns ? columns.data : index.data;
  ctx.clearRect(0, 0, p.width, height);
  const a = levelAt(p, scrollTop);
  const b = levelAt(p, scrollTop + height);
  const fromLevel = Math.max(0, Math.min(a, b));
  const toLevel = Math.max(a, b);
  // percentages of the whole before ignore and hide, unless relative (percentBase)
  const rootTotal = percentBase(data);
  const dimmed = p.darkTheme ? DIMMED_FILL_DARK : DIMMED_FILL;
  const pattern = data.virtual ? hatchPattern(ctx) : null;
  const forms = nameFormsCache(data.names);
  ctx.font = p.font;
  ctx.textBaseline = 'middle';
  let drawn = 0;
  const texts: Array<[string, number, number, boolean]> = [];
  // bars are batched by fill: one path and one fill per colour (a few hundred at most), instead of
  // a fillStyle change and a fillRect per bar (thousands in a zoomed redraw)
  const byFill = new Map<string, number[]>();
  const virtualBars: number[] = [];
  const bar = (i: number, x: number, w: number, level: number, held: number) => {
    const y = rowY(p, level) - scrollTop;
    const bw = w > 2 ? w - 1 : w;
    const matched = !p.nodeMatch || p.nodeMatch[i] === 1;
    const fill = matched ? p.colors.get(i) : dimmed;
    let rects = byFill.get(fill);
    if (!rects) {
      rects = [];
      byFill.set(fill, rects);
    }
    rects.push(x, y, bw);
    if (data.virtual && data.virtual[i]) {
      virtualBars.push(x, y, bw);
    }
    drawn++;
    const mark = held > 1 ? ` (+${held - 1})` : '';
    const maxChars = Math.floor((bw - 2 * TEXT_PADDING) / p.charWidth) - mark.length;
    if (maxChars >= 3) {
      const k = data.nameIdx[i];
      const name = data.names[k];
      // the label adds at least ` (1%, 1)` to the name: format numbers only when that can fit
      const full = name.length + 8 <= maxChars ? barLabel(name, data.value[i], rootTotal, data.unit) : '';
      const fitted = full && full.length <= maxChars ? full : forms.fit(k, maxChars, p.textAlign);
      const text = fitted && mark ? fitted + mark : fitted;
      if (text) {
        const tx = p.textAlign === 'left' ? x + TEXT_PADDING : x + bw - TEXT_PADDING - text.length * p.charWidth;
        texts.push([text, Math.max(x + TEXT_PADDING, tx), y + rowHeight / 2, matched]);
      }
    }
  };
  if (columns) {
    forEachVisibleInColumns(data, columns.chains, p, fromLevel, toLevel, p.minBarWidth, bar);
  } else {
    const frames = p.frames;
    forEachVisible(index, p, fromLevel, toLevel, p.minBarWidth, (i, x, w, level) =>
      bar(i, x, w, level, frames ? frames[i] : 1)
    );
  }
  const barHeight = rowHeight - 1;
  for (const [fill, rects] of byFill) {
    ctx.fillStyle = fill;
    ctx.beginPath();
    for (let k = 0; k < rects.length; k += 3) {
      ctx.rect(rects[k], rects[k + 1], rects[k + 2], barHeight);
    }
    ctx.fill();
  }
  for (let k = 0; k < virtualBars.length; k += 3) {
    const [x, y, bw] = [virtualBars[k], virtualBars[k + 1], virtualBars[k + 2]];
    if (pattern) {
      ctx.fillStyle = pattern;
      ctx.fillRect(x, y, bw, barHeight);
    }
    ctx.strokeStyle = 'rgba(40,40,60,0.8)';
    ctx.lineWidth = 1;
    ctx.strokeRect(x + 0.5, y + 0.5, Math.max(0, bw - 1), rowHeight - 2);
  }
  for (const [text, tx, ty, matched] of texts) {
    ctx.fillStyle = matched ? '#1b1b1f' : p.darkTheme ? '#8a8a92' : '#6a6a72';
    ctx.fillText(text, tx, ty);
  }
  return drawn;
}
