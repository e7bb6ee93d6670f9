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

/** The parts of an index that place nodes on the graph. */
interface Geometry {
  start: Float64Array;
  deepest: Int32Array;
  levelStart: Int32Array;
  levelNodes: Int32Array;
}

/** Rows per chunk of a geometry made in steps (about 1 ms of work). */
const CHUNK = 32768;

/**
 * The geometry of an index made in chunks: three passes (left edges and per-level counts
 * forward, subtree depths backward, per-level lists forward), each resumable at any row.
 */
class GeometryBuild {
  private pass = 0;
  private at = 0;
  private readonly start: Float64Array;
  private readonly deepest: Int32Array;
  private readonly cursor: Float64Array;
  private readonly perLevel: Int32Array;
  private levelStart?: Int32Array;
  private fill?: Int32Array;
  private levelNodes?: Int32Array;
  geometry?: Geometry;

  constructor(
    private readonly data: FlameData,
    private readonly parent: Int32Array
  ) {
    const n = data.count;
    this.start = new Float64Array(n);
    this.deepest = new Int32Array(n);
    // next free x offset under each open ancestor, indexed by level
    this.cursor = new Float64Array(data.maxLevel + 2);
    this.perLevel = new Int32Array(data.maxLevel + 2);
  }

  /** Goes on until the geometry is made (true) or the deadline has no time left (false). */
  step(deadline: { timeRemaining(): number } = { timeRemaining: () => Infinity }): boolean {
    const n = this.data.count;
    const { level, value, maxLevel } = this.data;
    const { start, deepest, cursor, perLevel, parent } = this;
    while (!this.geometry) {
      if (this.pass === 0) {
        const to = Math.min(n, this.at + CHUNK);
        for (let i = this.at; i < to; i++) {
          const l = level[i];
          const x = l === 0 ? 0 : cursor[l];
          start[i] = x;
          cursor[l] = x + value[i];
          cursor[l + 1] = x;
          perLevel[l]++;
          deepest[i] = l;
        }
        this.at = to;
        if (to === n) {
          this.pass = 1;
          this.at = n - 1;
        }
      } else if (this.pass === 1) {
        // children come after their parent, so one backward pass carries each subtree's depth up
        const to = Math.max(0, this.at - CHUNK);
        for (let i = this.at; i > to; i--) {
          const p = parent[i];
          if (deepest[i] > deepest[p]) {
            deepest[p] = deepest[i];
          }
        }
        this.at = to;
        if (to === 0) {
          const levelStart = new Int32Array(maxLevel + 2);
          for (let l = 0; l <= maxLevel; l++) {
            levelStart[l + 1] = levelStart[l] + perLevel[l];
          }
          this.levelStart = levelStart;
          this.fill = levelStart.slice(0, maxLevel + 1);
          this.levelNodes = new Int32Array(n);
          this.pass = 2;
        }
      } else {
        const to = Math.min(n, this.at + CHUNK);
        const fill = this.fill!;
        const levelNodes = this.levelNodes!;
        for (let i = this.at; i < to; i++) {
          levelNodes[fill[level[i]]++] = i;
        }
        this.at = to;
        if (to === n) {
          this.geometry = { start, deepest, levelStart: this.levelStart!, levelNodes };
        }
      }
      if (!this.geometry && deadline.timeRemaining() <= 0) {
        return false;
      }
    }
    return true;
  }
}

/**
 * A FlameIndex whose tree (parent, end) is made at once and whose geometry (start, deepest,
 * per-level lists) later: in idle time (warmGeometry) or at its first read. The uncollapsed
 * graph's index is walked by the collapse, but drawn only when collapsing is off, so with
 * collapsing on (the default) the first draw does not make 8 MB of geometry (500k nodes) it
 * does not read.
 */
class LazyIndex implements FlameIndex {
  build?: GeometryBuild;
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
  private geo?: Geometry;
  private geometry(): Geometry {
    if (!this.geo) {
      this.build ??= new GeometryBuild(this.data, this.parent);
      this.build.step();
      this.geo = this.build.geometry!;
    }
    return this.geo;
  }
}

/**
 * Builds the FlameIndex of data in O(n). With `geometry: 'later'` only its tree is made now, its
 * geometry by warmGeometry's steps or when first read.
 */
export function buildIndex(data: FlameData, opts: { geometry?: 'now' | 'later' } = {}): FlameIndex {
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
  const index = new LazyIndex(data, parent, end);
  if (opts.geometry !== 'later') {
    void index.start;
  }
  return index;
}

/**
 * A step that makes index's geometry in chunks while the deadline has time left, true once it
 * is made (at once for an index built with it).
 */
export function warmGeometry(index: FlameIndex): (deadline: { timeRemaining(): number }) => boolean {
  return (deadline) => {
    if (!(index instanceof LazyIndex)) {
      return true;
    }
    index.build ??= new GeometryBuild(index.data, index.parent);
    return index.build.step(deadline);
  };
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
