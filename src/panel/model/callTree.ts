// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameIndex } from './flameIndex';

/** What the call tree's siblings are ordered by. */
export type TreeSortKey = 'self' | 'total';

/** The children of node i, in frame order. */
export function childrenOf(index: FlameIndex, i: number): number[] {
  const out: number[] = [];
  for (let c = i + 1; c < index.end[i]; c = index.end[c]) {
    out.push(c);
  }
  return out;
}

/**
 * The rows of the call tree as shown: the root, then, depth-first, the children of every expanded
 * node ordered by key (ties in frame order). Only expanded nodes are walked, so a 500k-node tree
 * with a few nodes open costs what it shows.
 */
export function treeRows(
  index: FlameIndex,
  expanded: ReadonlySet<number>,
  key: TreeSortKey,
  descending: boolean
): Int32Array {
  const d = index.data;
  const vals = key === 'self' ? d.self : d.value;
  const dir = descending ? -1 : 1;
  const out: number[] = [];
  const stack: number[] = [0];
  while (stack.length) {
    const i = stack.pop()!;
    out.push(i);
    if (!expanded.has(i)) {
      continue;
    }
    const kids = childrenOf(index, i);
    kids.sort((a, b) => dir * (vals[a] - vals[b]) || a - b);
    for (let k = kids.length - 1; k >= 0; k--) {
      stack.push(kids[k]);
    }
  }
  return Int32Array.from(out);
}

/** Whether node i has children. */
export function hasChildren(index: FlameIndex, i: number): boolean {
  return index.end[i] > i + 1;
}

/** The nodes to open so that node i is shown: its ancestors. */
export function pathTo(index: FlameIndex, i: number): number[] {
  const out: number[] = [];
  for (let p = index.parent[i]; p >= 0; p = index.parent[p]) {
    out.push(p);
  }
  return out;
}
