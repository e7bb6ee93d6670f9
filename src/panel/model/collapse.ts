// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameData, flameDataLike } from '../../shared/flameData';
import { FlameIndex } from './flameIndex';
import { Chains, chainsOf } from './chains';
import { Deadline, runChunks } from './idle';

/**
 * A flamegraph with its chains collapsed, as Grafana's flame graph collapses them: a node whose
 * only child carries the same total (recursion, wrapper frames) is merged with that child into one
 * bar, named after the chain's first frame. Totals do not change (the chain's frames all carry the
 * same total); the bar's self is the chain's self.
 */
export interface Collapsed {
  data: FlameData;
  /** For each shown node, the original node at the head of its chain. */
  head: Int32Array;
  /** For each shown node, how many original frames it holds (1 when nothing was merged). */
  frames: Int32Array;
  /** For each original node, the shown node that holds it. */
  shownOf: Int32Array;
}

/** Rows per chunk of a collapse made in steps (about 1 ms of work). */
const CHUNK = 32768;

/** The columns of the collapsed graph's bars, filled by CollapseBuild's second pass. */
interface BarColumns {
  level: Int32Array;
  value: Float64Array;
  self: Float64Array;
  nameIdx: Int32Array;
  head: Int32Array;
  frames: Int32Array;
  valueRight?: Float64Array;
  selfRight?: Float64Array;
  virtual?: Uint8Array;
  virtualLabelIdx?: Int32Array;
}

/**
 * A collapse made in chunks (each about a millisecond; runChunks runs them): a forward pass that numbers the bars (each node's bar: its own, or
 * its chain's), then one that fills their columns; both resumable at any row. Where chains are
 * comes from chainsOf (one backward pass over the columns), so no index of the graph is needed.
 */
export class CollapseBuild {
  result?: Collapsed;
  private pass = 0;
  private at = 0;
  private m = 0;
  private chainHead = 0;
  private readonly shownOf: Int32Array;
  private readonly chains: Chains;
  private cols?: BarColumns;
  private maxLevel = 0;
  private readonly drawnLevel: Int32Array;

  constructor(
    private readonly d: FlameData,
    private readonly expanded: ReadonlySet<number> = new Set()
  ) {
    this.chains = chainsOf(d);
    this.shownOf = new Int32Array(d.count);
    this.drawnLevel = new Int32Array(d.maxLevel + 2);
  }

  /** Does one chunk of rows (numbering the bars, then filling their columns); true once the collapse is made. */
  chunk(): boolean {
    if (this.result) {
      return true;
    }
    const n = this.d.count;
    const to = Math.min(n, this.at + CHUNK);
    if (this.pass === 0) {
      this.number(to);
      this.at = to;
      if (to === n) {
        if (this.m === n) {
          const ident = new Int32Array(n);
          for (let i = 0; i < n; i++) {
            ident[i] = i;
          }
          this.result = { data: this.d, head: ident, frames: new Int32Array(n).fill(1), shownOf: ident };
          return true;
        }
        this.start();
        this.pass = 1;
        this.at = 0;
      }
      return false;
    }
    this.fill(to);
    this.at = to;
    if (to === n) {
      this.finish();
    }
    return this.result !== undefined;
  }

  /** Numbers the bars of rows at..to-1: a merged node is on its parent's (the row before) bar. */
  private number(to: number) {
    const { shownOf, expanded } = this;
    const merges = this.chains.merges;
    const anyExpanded = expanded.size > 0;
    let m = this.m;
    let ch = this.chainHead;
    for (let i = this.at; i < to; i++) {
      if ((merges[i >>> 5] & (1 << (i & 31))) !== 0) {
        // a chain the user expanded (by its first node) keeps its frames apart
        if (!anyExpanded || !expanded.has(ch)) {
          shownOf[i] = shownOf[i - 1];
          continue;
        }
      } else {
        ch = i;
      }
      shownOf[i] = m++;
    }
    this.m = m;
    this.chainHead = ch;
  }

  private start() {
    const d = this.d;
    const m = this.m;
    this.cols = {
      level: new Int32Array(m),
      value: new Float64Array(m),
      self: new Float64Array(m),
      nameIdx: new Int32Array(m),
      head: new Int32Array(m),
      frames: new Int32Array(m),
      valueRight: d.valueRight ? new Float64Array(m) : undefined,
      selfRight: d.selfRight ? new Float64Array(m) : undefined,
      virtual: d.virtual ? new Uint8Array(m) : undefined,
      virtualLabelIdx: d.virtualLabelIdx ? new Int32Array(m) : undefined,
    };
  }

  /** Fills the bars' columns from rows at..to-1: a chain's first node gives its bar, every frame adds its self. */
  private fill(to: number) {
    const d = this.d;
    const { level, value, self, nameIdx, head, frames, valueRight, selfRight, virtual, virtualLabelIdx } = this.cols!;
    // the columns in locals: property loads in these loops over 500k rows made them 5 times slower
    const { shownOf, drawnLevel } = this;
    const dLevel = d.level;
    const dValue = d.value;
    const dSelf = d.self;
    const dName = d.nameIdx;
    const dValueRight = d.valueRight;
    const dSelfRight = d.selfRight;
    const dVirtual = d.virtual;
    const dVirtualLabel = d.virtualLabelIdx;
    let maxLevel = this.maxLevel;
    for (let i = this.at; i < to; i++) {
      const s = shownOf[i];
      const l = dLevel[i];
      if (i === 0 || s !== shownOf[i - 1]) {
        const sl = l === 0 ? 0 : drawnLevel[l - 1] + 1;
        drawnLevel[l] = sl;
        level[s] = sl;
        if (sl > maxLevel) {
          maxLevel = sl;
        }
        value[s] = dValue[i];
        nameIdx[s] = dName[i];
        head[s] = i;
        if (valueRight && dValueRight) {
          valueRight[s] = dValueRight[i];
        }
        if (virtual && dVirtual) {
          virtual[s] = dVirtual[i];
        }
        if (virtualLabelIdx && dVirtualLabel) {
          virtualLabelIdx[s] = dVirtualLabel[i];
        }
      } else {
        // merged into its parent's bar: drawn at its level
        drawnLevel[l] = drawnLevel[l - 1];
      }
      frames[s]++;
      self[s] += dSelf[i];
      if (selfRight && dSelfRight) {
        selfRight[s] += dSelfRight[i];
      }
    }
    this.maxLevel = maxLevel;
  }

  private finish() {
    const c = this.cols!;
    const data = flameDataLike(this.d, {
      count: this.m,
      level: c.level,
      value: c.value,
      self: c.self,
      nameIdx: c.nameIdx,
      maxLevel: this.maxLevel,
      valueRight: c.valueRight,
      selfRight: c.selfRight,
      virtual: c.virtual,
      virtualLabelIdx: c.virtualLabelIdx,
    });
    this.result = { data, head: c.head, frames: c.frames, shownOf: this.shownOf };
  }
}

/**
 * Collapses every chain of index except those whose head (original node) is in `expanded`.
 * O(n); the identity (nothing merged) when no chain can be collapsed.
 */
export function collapseChains(index: FlameIndex, expanded: ReadonlySet<number> = new Set()): Collapsed {
  const b = new CollapseBuild(index.data, expanded);
  runChunks(() => b.chunk());
  return b.result!;
}

/**
 * A Collapsed made when it is first read, or ahead in idle time by its steps (the panel's first
 * draw reads none of it: it walks the frame's columns).
 */
export class LazyCollapsed implements Collapsed {
  private build?: CollapseBuild;
  private made?: Collapsed;
  constructor(private readonly source: FlameData) {}
  get data() {
    return this.now().data;
  }
  get head() {
    return this.now().head;
  }
  get frames() {
    return this.now().frames;
  }
  get shownOf() {
    return this.now().shownOf;
  }
  /** Whether the collapse is made. */
  get ready(): boolean {
    return this.made !== undefined;
  }
  /** Goes on with the collapse while the deadline has time left; true once it is made. */
  step(deadline?: Deadline): boolean {
    if (!this.made) {
      const build = (this.build ??= new CollapseBuild(this.source));
      if (!runChunks(() => build.chunk(), deadline)) {
        return false;
      }
      this.made = build.result!;
      this.build = undefined;
    }
    return true;
  }
  private now(): Collapsed {
    this.step();
    return this.made!;
  }
}

/** How many chains of index can be collapsed (their heads), for the header's count. */
export function chainHeads(c: Collapsed): number {
  // read once: a LazyCollapsed's columns are getters
  const frames = c.frames;
  let k = 0;
  for (let s = 0; s < frames.length; s++) {
    if (frames[s] > 1) {
      k++;
    }
  }
  return k;
}

/** A per-original-node mask (search matches) as a per-shown-node mask: a bar matches when a frame it holds does. */
export function shownMatch(c: Collapsed, nodeMatch: Uint8Array): Uint8Array {
  // read once: a LazyCollapsed's columns are getters (at 500k nodes, a getter call per node was
  // about half of a search's marks)
  const shownOf = c.shownOf;
  const count = c.data.count;
  if (shownOf.length === count) {
    return nodeMatch;
  }
  const out = new Uint8Array(count);
  for (let i = 0; i < nodeMatch.length; i++) {
    if (nodeMatch[i]) {
      out[shownOf[i]] = 1;
    }
  }
  return out;
}

/** The names of the frames shown node s holds, first to last. */
export function chainNames(c: Collapsed, original: FlameData, s: number): string[] {
  const out: string[] = [];
  for (let k = 0; k < c.frames[s]; k++) {
    out.push(original.names[original.nameIdx[c.head[s] + k]]);
  }
  return out;
}
