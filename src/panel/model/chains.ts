// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameData } from '../../shared/flameData';
import { LayoutParams } from './layout';
import { memoOf } from './memo';

/**
 * Where a graph's chains are (a node that is its parent's only child and carries the parent's
 * total, as recursion and wrapper frames do: what collapsing merges), and how deep the graph is
 * with them collapsed. Found in one backward pass over the level and value columns, with no
 * index: a bit per node and two arrays as deep as the graph.
 */
export interface Chains {
  /** Bit i (word i >> 5, bit i & 31) set: node i merges into its parent when chains are collapsed. */
  merges: Uint32Array;
  /** Deepest level of the graph with every chain collapsed. */
  collapsedDepth: number;
}

/** Whether node i merges into its parent when chains are collapsed (see Chains). */
export function mergesIntoParent(c: Chains, i: number): boolean {
  return (c.merges[i >>> 5] & (1 << (i & 31))) !== 0;
}

const chainsMemo = memoOf(findChains);

/**
 * The chains of data (made once per data). A node c merges into its parent p when p is not the
 * root, c is p's only child (so the next row), both carry the same total (and the same comparison
 * total in a diff), and neither is a virtual (label) frame.
 *
 * One backward pass: the rows after a node and deeper than it are its subtree, so when row p is
 * reached its children have all been seen, and what is pending one level below it (how many
 * children, the tallest one's collapsed height) is exactly its children's.
 */
export function chainsOf(data: FlameData): Chains {
  return chainsMemo(data);
}

function findChains(data: FlameData): Chains {
  const n = data.count;
  const { level, value, valueRight, virtual } = data;
  const merges = new Uint32Array((n + 31) >>> 5);
  // per level below the node being read: how many of its children were seen, and the tallest
  // one's height (levels drawn under it, chains collapsed)
  const pending = new Int32Array(data.maxLevel + 2);
  const tallest = new Int32Array(data.maxLevel + 2);
  let height = 0;
  for (let i = n - 1; i >= 0; i--) {
    const l = level[i];
    const children = pending[l + 1];
    height = 0;
    if (children > 0) {
      const c = i + 1;
      if (
        children === 1 &&
        i > 0 &&
        value[c] === value[i] &&
        (valueRight === undefined || valueRight[c] === valueRight[i]) &&
        (virtual === undefined || (virtual[c] === 0 && virtual[i] === 0))
      ) {
        merges[c >>> 5] |= 1 << (c & 31);
        height = tallest[l + 1];
      } else {
        height = tallest[l + 1] + 1;
      }
      pending[l + 1] = 0;
    }
    if (pending[l] === 0 || height > tallest[l]) {
      tallest[l] = height;
    }
    pending[l]++;
  }
  return { merges, collapsedDepth: n > 0 ? height : 0 };
}

/**
 * The bars of data's whole graph (the root fills `p.width`; p.focus must be the root and the graph
 * not flipped) in levels [fromLevel, toLevel] that are at least minWidth wide, walked straight from
 * the columns: the same bars, in the same order and at the same places, as forEachVisible over
 * the index of the graph (its collapsed graph's when `chains` is given). A bar is visited with the
 * node at the head of its chain and how many frames it holds. Narrow subtrees and those below the
 * last level are passed over by their rows' levels only: nothing as large as the graph is made.
 */
export function forEachVisibleInColumns(
  data: FlameData,
  chains: Chains | undefined,
  p: LayoutParams,
  fromLevel: number,
  toLevel: number,
  minWidth: number,
  visit: (node: number, x: number, width: number, level: number, frames: number) => void
): void {
  const n = data.count;
  if (n === 0) {
    return;
  }
  const { level, value } = data;
  const merges = chains?.merges;
  const depth = chains ? chains.collapsedDepth : data.maxLevel;
  const last = Math.min(toLevel, depth);
  const scale = p.width / (value[0] || 1);
  // the next free left edge under each open node, and the drawn level of each open node, by level
  const cursor = new Float64Array(data.maxLevel + 2);
  const drawnLevel = new Int32Array(data.maxLevel + 2);
  // the bar waiting for its chain to end (its frames counted), -1 when none
  let bar = -1;
  let barX = 0;
  let barW = 0;
  let barLevel = 0;
  let barFrames = 0;
  let i = 0;
  while (i < n) {
    const l = level[i];
    const x = l === 0 ? 0 : cursor[l];
    cursor[l] = x + value[i];
    cursor[l + 1] = x;
    if (merges !== undefined && (merges[i >>> 5] & (1 << (i & 31))) !== 0) {
      // one more frame of the chain its parent (the row before) is in
      drawnLevel[l] = drawnLevel[l - 1];
      barFrames++;
      i++;
      continue;
    }
    if (bar >= 0) {
      visit(bar, barX, barW, barLevel, barFrames);
      bar = -1;
    }
    const dl = l === 0 ? 0 : drawnLevel[l - 1] + 1;
    drawnLevel[l] = dl;
    const w = value[i] * scale;
    let skipBelow = -1;
    if (w < minWidth) {
      // too narrow: so is everything under it
      skipBelow = l;
    } else {
      if (dl >= fromLevel) {
        bar = i;
        barX = x * scale;
        barW = w;
        barLevel = dl;
        barFrames = 1;
      }
      if (dl >= last) {
        // the last level drawn: its chain's frames still count, nothing under them is drawn
        let j = i + 1;
        while (merges !== undefined && j < n && (merges[j >>> 5] & (1 << (j & 31))) !== 0) {
          barFrames++;
          j++;
        }
        i = j - 1;
        skipBelow = l;
      }
    }
    i++;
    if (skipBelow >= 0) {
      while (i < n && level[i] > skipBelow) {
        i++;
      }
    }
  }
  if (bar >= 0) {
    visit(bar, barX, barW, barLevel, barFrames);
  }
}
