// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameData } from '../../shared/flameData';

/**
 * Structure derived once from a FlameData, all in typed arrays so that
 * 100k–500k nodes lay out and draw quickly:
 * - `parent[i]` and `end[i]` (the first row after i's subtree), so a subtree is the row range [i, end[i]);
 * - `start[i]`: the node's left edge in value units from the root's left edge;
 * - per-level lists of nodes in left-to-right order (CSR: `levelNodes[levelStart[l] .. levelStart[l+1])`),
 *   so drawing touches only the visible levels and the zoomed node's part of each;
 * - `deepest[i]`: the deepest level in i's subtree, so a zoom or reset knows its scroll height
 *   without walking the subtree.
 */
export interface FlameIndex {
  readonly data: FlameData;
  readonly parent: Int32Array;
  readonly end: Int32Array;
  readonly start: Float64Array;
  readonly deepest: Int32Array;
  readonly levelStart: Int32Array;
  readonly levelNodes: Int32Array;
}

/** The parts of an index that place nodes on the graph, made on first use. */
interface Geometry {
  start: Float64Array;
  deepest: Int32Array;
  levelStart: Int32Array;
  levelNodes: Int32Array;
}

/**
 * A FlameIndex whose tree (parent, end) is made at once and whose geometry (start, deepest,
 * per-level lists) on first use: the uncollapsed graph's index is walked by the collapse, the
 * top table and search, but drawn only when collapsing is off, so with collapsing on (the
 * default) the first draw does not make 8 MB of geometry at 500k nodes it never reads.
 */
class LazyIndex implements FlameIndex {
  private geo?: Geometry;
  constructor(
    readonly data: FlameData,
    readonly parent: Int32Array,
    readonly end: Int32Array
  ) {}
  get start() {
    return this.geometry().start;
  }
  get deepest() {
    return this.geometry().deepest;
  }
  get levelStart() {
    return this.geometry().levelStart;
  }
  get levelNodes() {
    return this.geometry().levelNodes;
  }
  private geometry(): Geometry {
    this.geo ??= buildGeometry(this.data, this.parent);
    return this.geo;
  }
}

/** Builds the FlameIndex of data in O(n) (its geometry in O(n) again when first read). */
export function buildIndex(data: FlameData): FlameIndex {
  const n = data.count;
  const level = data.level;
  const parent = new Int32Array(n);
  const end = new Int32Array(n);
  const stack = new Int32Array(data.maxLevel + 2);
  let depth = -1;
  for (let i = 0; i < n; i++) {
    const l = level[i];
    // close the nodes at levels >= l
    while (depth >= l) {
      end[stack[depth]] = i;
      depth--;
    }
    parent[i] = l === 0 ? -1 : stack[l - 1];
    stack[l] = i;
    depth = l;
  }
  while (depth >= 0) {
    end[stack[depth]] = n;
    depth--;
  }
  return new LazyIndex(data, parent, end);
}

function buildGeometry(data: FlameData, parent: Int32Array): Geometry {
  const n = data.count;
  const { level, value } = data;
  const start = new Float64Array(n);
  // next free x offset under each open ancestor, indexed by level
  const cursor = new Float64Array(data.maxLevel + 2);
  const perLevel = new Int32Array(data.maxLevel + 2);
  for (let i = 0; i < n; i++) {
    const l = level[i];
    const x = l === 0 ? 0 : cursor[l];
    start[i] = x;
    cursor[l] = x + value[i];
    cursor[l + 1] = x;
    perLevel[l]++;
  }
  // children come after their parent, so one backward pass carries each subtree's depth up
  const deepest = Int32Array.from(level);
  for (let i = n - 1; i > 0; i--) {
    const p = parent[i];
    if (deepest[i] > deepest[p]) {
      deepest[p] = deepest[i];
    }
  }
  const levelStart = new Int32Array(data.maxLevel + 2);
  for (let l = 0; l <= data.maxLevel; l++) {
    levelStart[l + 1] = levelStart[l] + perLevel[l];
  }
  const fill = levelStart.slice(0, data.maxLevel + 1);
  const levelNodes = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    levelNodes[fill[level[i]]++] = i;
  }
  return { start, deepest, levelStart, levelNodes };
}

/** Index in levelNodes of the first node of level l whose row is >= row (binary search). */
export function lowerBoundRow(index: FlameIndex, l: number, row: number): number {
  let lo = index.levelStart[l];
  let hi = index.levelStart[l + 1];
  const nodes = index.levelNodes;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (nodes[mid] < row) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/** The ancestors of node i from the root down to i's parent. */
export function ancestors(index: FlameIndex, i: number): number[] {
  const out: number[] = [];
  for (let p = index.parent[i]; p >= 0; p = index.parent[p]) {
    out.push(p);
  }
  return out.reverse();
}

/** Whether node a is node d or one of its ancestors. */
export function isAncestorOrSelf(index: FlameIndex, a: number, d: number): boolean {
  return d >= a && d < index.end[a];
}
