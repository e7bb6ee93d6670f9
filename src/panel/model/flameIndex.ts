// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameData } from '../../shared/flameData';
import { Deadline, NO_DEADLINE, runChunks } from './idle';

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

  /** Does one chunk of rows; true once the geometry is made. */
  chunk(): boolean {
    const n = this.data.count;
    const { level, value, maxLevel } = this.data;
    const { start, deepest, cursor, perLevel, parent } = this;
    if (!this.geometry) {
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
    }
    return this.geometry !== undefined;
  }
}

/**
 * The tree of an index (each node's parent and the end of its subtree) made in chunks: one
 * forward pass with a stack of the open nodes, resumable at any row.
 */
class TreeBuild {
  private at = 0;
  private depth = -1;
  private readonly parent: Int32Array;
  private readonly end: Int32Array;
  private readonly stack: Int32Array;
  tree?: { parent: Int32Array; end: Int32Array };

  constructor(private readonly data: FlameData) {
    const n = data.count;
    this.parent = new Int32Array(n);
    this.end = new Int32Array(n);
    this.stack = new Int32Array(data.maxLevel + 2);
  }

  /** Does one chunk of rows; true once the tree is made. */
  chunk(): boolean {
    const n = this.data.count;
    const level = this.data.level;
    const { parent, end, stack } = this;
    if (!this.tree) {
      const to = Math.min(n, this.at + CHUNK);
      let depth = this.depth;
      for (let i = this.at; i < to; i++) {
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
      this.depth = depth;
      this.at = to;
      if (to === n) {
        while (this.depth >= 0) {
          end[stack[this.depth]] = n;
          this.depth--;
        }
        this.tree = { parent, end };
      }
    }
    return this.tree !== undefined;
  }
}

/**
 * A FlameIndex made when it is first read, or ahead in idle time by warmIndex's steps: its tree
 * (parent, end), then its geometry (start, deepest, per-level lists). Its data may itself be made
 * on first read (a collapsed graph): `source` is then a function giving it. The panel's first
 * draw reads none of it (it walks the frame's columns, see model/outline.ts), so a 500k-node
 * profile is on screen before 20 MB of index are made.
 */
class LazyIndex implements FlameIndex {
  private treeBuild?: TreeBuild;
  private geoBuild?: GeometryBuild;
  private tree?: { parent: Int32Array; end: Int32Array };
  private geo?: Geometry;
  private resolved?: FlameData;
  /** The index read instead of this one, once the data turns out to be its data. */
  private target?: FlameIndex;

  constructor(
    private readonly source: FlameData | (() => FlameData),
    private readonly sameAs?: FlameIndex
  ) {}

  get data(): FlameData {
    if (!this.resolved) {
      this.resolved = typeof this.source === 'function' ? this.source() : this.source;
      if (this.sameAs && this.sameAs.data === this.resolved) {
        this.target = this.sameAs;
      }
    }
    return this.resolved;
  }
  get parent() {
    return this.treeNow().parent;
  }
  get end() {
    return this.treeNow().end;
  }
  get start() {
    return this.geometryNow().start;
  }
  get deepest() {
    return this.geometryNow().deepest;
  }
  get levelStart() {
    return this.geometryNow().levelStart;
  }
  get levelNodes() {
    return this.geometryNow().levelNodes;
  }

  /** Whether both the tree and the geometry are made. */
  get ready(): boolean {
    return this.target ? indexReady(this.target) : this.geo !== undefined;
  }

  /** Makes what is left of the tree, then of the geometry, while the deadline has time (true once all is made). */
  step(deadline: Deadline): boolean {
    void this.data;
    if (this.target) {
      return warmIndex(this.target)(deadline);
    }
    return runChunks(() => this.chunk(), deadline);
  }

  /** One chunk of the tree, or once it is made of the geometry; true once both are made. */
  private chunk(): boolean {
    if (!this.tree) {
      this.treeBuild ??= new TreeBuild(this.data);
      if (this.treeBuild.chunk()) {
        this.tree = this.treeBuild.tree!;
        this.treeBuild = undefined;
      }
      return false;
    }
    if (!this.geo) {
      this.geoBuild ??= new GeometryBuild(this.data, this.tree.parent);
      if (!this.geoBuild.chunk()) {
        return false;
      }
      this.geo = this.geoBuild.geometry!;
      this.geoBuild = undefined;
    }
    return true;
  }

  private treeNow(): { parent: Int32Array; end: Int32Array } {
    void this.data;
    if (this.target) {
      return this.target;
    }
    if (!this.tree) {
      const build = (this.treeBuild ??= new TreeBuild(this.data));
      runChunks(() => build.chunk());
      this.tree = this.treeBuild.tree!;
      this.treeBuild = undefined;
    }
    return this.tree;
  }

  private geometryNow(): Geometry {
    void this.data;
    if (this.target) {
      return this.target;
    }
    if (!this.geo) {
      const build = (this.geoBuild ??= new GeometryBuild(this.data, this.treeNow().parent));
      runChunks(() => build.chunk());
      this.geo = this.geoBuild.geometry!;
      this.geoBuild = undefined;
    }
    return this.geo;
  }
}

/**
 * Builds the FlameIndex of data in O(n). With `later`, nothing is made now: the index is made
 * by warmIndex's steps or, what is left of it, when first read. `data` may be a function giving
 * the data, called on the first read; when it gives `sameAs`'s data, the index is `sameAs`'s (a
 * collapse that merged nothing).
 */
export function buildIndex(
  data: FlameData | (() => FlameData),
  opts: { later?: boolean; sameAs?: FlameIndex } = {}
): FlameIndex {
  const index = new LazyIndex(data, opts.sameAs);
  if (!opts.later) {
    warmIndex(index)(NO_DEADLINE);
  }
  return index;
}

/**
 * A step that makes index's tree and geometry in chunks while the deadline has time left, true
 * once they are made (at once for an index made already).
 */
export function warmIndex(index: FlameIndex): (deadline: Deadline) => boolean {
  return (deadline) => !(index instanceof LazyIndex) || index.step(deadline);
}

/** Whether reading index's tree and geometry costs nothing more (made already). */
export function indexReady(index: FlameIndex): boolean {
  return !(index instanceof LazyIndex) || index.ready;
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
