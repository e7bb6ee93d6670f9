// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameIndex, lowerBoundRow } from './flameIndex';

/** A node's rectangle in CSS pixels, relative to the graph's top-left corner (before scrolling). */
export interface Rect {
  node: number;
  x: number;
  y: number;
  width: number;
  level: number;
}

/** Geometry of the drawing: the zoomed (focus) node fills `width`. */
export interface LayoutParams {
  focus: number;
  width: number;
  rowHeight: number;
  /** Drawn upside down (an icicle grown upward, as a sandwich's callers): this level is the top row, level 0 the bottom one. */
  flipAt?: number;
}

/** The y (CSS px, from the top of the whole graph) of the row that draws level l. */
export function rowY(p: LayoutParams, l: number): number {
  return (p.flipAt === undefined ? l : p.flipAt - l) * p.rowHeight;
}

/** The level drawn in the row at y (CSS px from the top of the whole graph). */
export function levelAt(p: LayoutParams, y: number): number {
  const r = Math.floor(y / p.rowHeight);
  return p.flipAt === undefined ? r : p.flipAt - r;
}

/** Horizontal position and width (CSS px) of node i when `focus` fills `width`; ancestors of focus span the width. */
export function nodeX(index: FlameIndex, p: LayoutParams, i: number): { x: number; width: number } {
  const { level, value } = index.data;
  const f = p.focus;
  if (level[i] < level[f]) {
    return { x: 0, width: p.width };
  }
  const scale = p.width / (value[f] || 1);
  return { x: (index.start[i] - index.start[f]) * scale, width: value[i] * scale };
}

/**
 * Calls visit for every node drawn in levels [fromLevel, toLevel] that is at least minWidth
 * wide: the focus node's ancestors (full width) above it, then its subtree. Only the focus's
 * subtree is walked, skipping the subtrees of bars too narrow to draw, so the work follows what
 * is drawn, not the number of nodes.
 */
export function forEachVisible(
  index: FlameIndex,
  p: LayoutParams,
  fromLevel: number,
  toLevel: number,
  minWidth: number,
  visit: (node: number, x: number, width: number, level: number) => void
): void {
  const { level, value } = index.data;
  const f = p.focus;
  const fl = level[f];
  const last = Math.min(toLevel, index.data.maxLevel);
  if (fromLevel < fl) {
    // ancestors of the focus, top-down
    let a = f;
    const chain: number[] = [];
    while (index.parent[a] >= 0) {
      a = index.parent[a];
      chain.push(a);
    }
    for (const anc of chain) {
      const l = level[anc];
      if (l >= fromLevel && l <= last) {
        visit(anc, 0, p.width, l);
      }
    }
  }
  const scale = p.width / (value[f] || 1);
  const x0 = index.start[f];
  const { end, start } = index;
  const fend = end[f];
  // depth-first over the focus's rows, jumping over the subtree of every node that is too narrow
  // (its descendants are narrower still) or at the last visible level: the work is in proportion
  // to what is drawn, not to the size of the subtree
  let i = f;
  while (i < fend) {
    const l = level[i];
    const w = value[i] * scale;
    if (w < minWidth) {
      i = end[i];
      continue;
    }
    if (l >= fromLevel) {
      visit(i, (start[i] - x0) * scale, w, l);
    }
    i = l >= last ? end[i] : i + 1;
  }
}

/** The node under point (x, y) in CSS px of the unscrolled graph, or -1. */
export function hitTest(index: FlameIndex, p: LayoutParams, x: number, y: number): number {
  if (y < 0) {
    return -1;
  }
  const l = levelAt(p, y);
  const { level, value } = index.data;
  const f = p.focus;
  if (l < 0 || l > index.data.maxLevel || x < 0 || x > p.width) {
    return -1;
  }
  if (l < level[f]) {
    let a = f;
    while (level[a] > l) {
      a = index.parent[a];
    }
    return a;
  }
  const scale = p.width / (value[f] || 1);
  const target = index.start[f] + x / scale;
  let lo = lowerBoundRow(index, l, f);
  let hi = lowerBoundRow(index, l, index.end[f]);
  const nodes = index.levelNodes;
  // last node whose start <= target
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (index.start[nodes[mid]] <= target) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo === lowerBoundRow(index, l, f)) {
    return -1;
  }
  const i = nodes[lo - 1];
  return target <= index.start[i] + value[i] ? i : -1;
}

/** Deepest level present in focus's subtree (for the scroll height), precomputed by buildIndex. */
export function subtreeDepth(index: FlameIndex, focus: number): number {
  return index.deepest[focus];
}

/** Collects the drawn rectangles (for tests and hit checks). */
export function layoutRects(index: FlameIndex, p: LayoutParams, minWidth = 0): Rect[] {
  const out: Rect[] = [];
  forEachVisible(index, p, 0, index.data.maxLevel, minWidth, (node, x, width, level) =>
    out.push({ node, x, width, level, y: level * p.rowHeight })
  );
  return out;
}
