// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameColumns } from '../../shared/flameData';
import { memoOf } from './memo';

/**
 * The sandwich merge itself, over plain columns: what it reads of a frame and its index
 * (MergeSource, which a FlameIndex is, and which the model worker makes from the columns it was
 * sent), and what it makes (SandwichParts: the two halves as columns). The caches and the
 * scheduling are sandwich.ts's.
 */

/** What the merge reads: the frame's columns (names only counted), each node's parent and subtree end. */
export interface MergeSource {
  readonly data: Omit<FlameColumns, 'selfByName'> & { readonly names: { readonly length: number } };
  readonly parent: Int32Array;
  readonly end: Int32Array;
}

/** A merged sandwich as columns: the callers half (root = the function, its callers above) and the callees half. */
export interface SandwichParts {
  nameIdx: number;
  callers: FlameColumns;
  callees: FlameColumns;
  self: number;
  total: number;
  sites: number;
  depthLimit?: number;
}

/** The call sites of every name, made once per flame index: `nodes[start[k] .. start[k+1])` in row order. */
interface Sites {
  start: Int32Array;
  nodes: Int32Array;
}

/** Rows of work in one chunk of a resumable merge (a fraction of a millisecond). */
export const MERGE_CHUNK = 4096;

/** The call sites being listed: a count pass, then a fill pass, `at` the next row; `sites` once listed. */
interface SitesBuild {
  pass: 0 | 1;
  at: number;
  start: Int32Array;
  fill?: Int32Array;
  nodes?: Int32Array;
  sites?: Sites;
}

/** The listing of an index's call sites, one per index: every merge of it goes on with the same one. */
const sitesBuildOf = memoOf((index: MergeSource): SitesBuild => ({
  pass: 0,
  at: 0,
  start: new Int32Array(index.data.names.length + 1),
}));

/** Lists call sites for up to `budget` rows: the budget left (0: paused; the sites are then not listed yet). */
function sitesStep(index: MergeSource, b: SitesBuild, budget: number): number {
  if (b.sites) {
    return budget;
  }
  const d = index.data;
  const level = d.level;
  const virt = d.virtual;
  const nameIdx = d.nameIdx;
  const start = b.start;
  const n = d.count;
  if (b.pass === 0) {
    let i = b.at;
    const stop = Math.min(n, i + budget);
    for (; i < stop; i++) {
      if (level[i] > 0 && !(virt && virt[i])) {
        start[nameIdx[i] + 1]++;
      }
    }
    budget -= stop - b.at;
    b.at = i;
    if (i < n) {
      return 0;
    }
    for (let k = 0; k < d.names.length; k++) {
      start[k + 1] += start[k];
    }
    b.fill = start.slice(0, d.names.length);
    b.nodes = new Int32Array(start[d.names.length]);
    b.pass = 1;
    b.at = 0;
  }
  const fill = b.fill!;
  const nodes = b.nodes!;
  let i = b.at;
  const stop = Math.min(n, i + budget);
  for (; i < stop; i++) {
    if (level[i] > 0 && !(virt && virt[i])) {
      nodes[fill[nameIdx[i]]++] = i;
    }
  }
  budget -= stop - b.at;
  b.at = i;
  if (i < n) {
    return 0;
  }
  b.sites = { start, nodes };
  b.fill = undefined;
  return budget;
}

export function sitesOf(index: MergeSource): Sites {
  const b = sitesBuildOf(index);
  sitesStep(index, b, Infinity);
  return b.sites!;
}

/**
 * A prefix tree of name paths in typed arrays: one hash of (parent, name) to child, children
 * kept in order of first appearance as sibling lists, so it becomes a FlameData in one walk.
 */
class MergeTree {
  n = 1;
  parent = new Int32Array(64);
  name = new Int32Array(64);
  depth = new Int32Array(64);
  virt = new Uint8Array(64);
  vlabel = new Int32Array(64);
  firstChild = new Int32Array(64);
  lastChild = new Int32Array(64);
  next = new Int32Array(64);
  value = new Float64Array(64);
  valueRight = new Float64Array(64);
  open = new Int32Array(64);
  anyVirtual = false;
  // open addressing over (parent, name, virtual): slot = child + 1, 0 = empty
  private slots = new Int32Array(128);

  constructor(rootName: number) {
    this.parent[0] = -1;
    this.name[0] = rootName;
    this.vlabel[0] = -1;
    this.firstChild[0] = -1;
    this.lastChild[0] = -1;
    this.next[0] = -1;
  }

  private grow() {
    const m = this.parent.length * 2;
    const g = <T extends Int32Array | Uint8Array | Float64Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(m);
      b.set(a);
      return b;
    };
    this.parent = g(this.parent);
    this.name = g(this.name);
    this.depth = g(this.depth);
    this.virt = g(this.virt);
    this.vlabel = g(this.vlabel);
    this.firstChild = g(this.firstChild);
    this.lastChild = g(this.lastChild);
    this.next = g(this.next);
    this.value = g(this.value);
    this.valueRight = g(this.valueRight);
    this.open = g(this.open);
  }

  private static hash(p: number, k: number, virtual: number): number {
    return Math.imul(p ^ Math.imul(k, 0x9e3779b1), 0x85ebca6b) ^ (virtual ? 0x5bd1e995 : 0);
  }

  private rehash() {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let c = 1; c < this.n; c++) {
      let h = MergeTree.hash(this.parent[c], this.name[c], this.virt[c]) & mask;
      while (slots[h] !== 0) {
        h = (h + 1) & mask;
      }
      slots[h] = c + 1;
    }
    this.slots = slots;
  }

  /** The child of node p named k (virtual frames are told apart from code of the same name), made when missing. */
  child(p: number, k: number, virtual: number, virtualLabel: number): number {
    const mask = this.slots.length - 1;
    let h = MergeTree.hash(p, k, virtual) & mask;
    for (let e = this.slots[h]; e !== 0; e = this.slots[h]) {
      const c = e - 1;
      if (this.parent[c] === p && this.name[c] === k && this.virt[c] === virtual) {
        return c;
      }
      h = (h + 1) & mask;
    }
    {
      if (this.n === this.parent.length) {
        this.grow();
      }
      const c = this.n++;
      this.parent[c] = p;
      this.name[c] = k;
      this.depth[c] = this.depth[p] + 1;
      this.virt[c] = virtual;
      this.vlabel[c] = virtualLabel;
      this.firstChild[c] = -1;
      this.lastChild[c] = -1;
      this.next[c] = -1;
      if (virtual) {
        this.anyVirtual = true;
      }
      if (this.lastChild[p] < 0) {
        this.firstChild[p] = c;
      } else {
        this.next[this.lastChild[p]] = c;
      }
      this.lastChild[p] = c;
      this.slots[h] = c + 1;
      if (this.n * 2 > this.slots.length) {
        this.rehash();
      }
      return c;
    }
  }
}

/**
 * A MergeTree made into a FlameData's columns, depth-first, in bounded steps: step(budget) writes about
 * `budget` rows and returns the budget left (0 when paused); `result` once every row is written.
 * Large halves (half a million merged nodes) are then made in idle slices too.
 */
class FlameDataWalk {
  result?: FlameColumns;
  private readonly level: Int32Array;
  private readonly value: Float64Array;
  private readonly self: Float64Array;
  private readonly nameIdx: Int32Array;
  private readonly valueRight?: Float64Array;
  private readonly selfRight?: Float64Array;
  private readonly virtual?: Uint8Array;
  private readonly virtualLabelIdx?: Int32Array;
  private readonly stack: Int32Array;
  private top = 1;
  private row = 0;
  private maxLevel = 0;

  constructor(
    private readonly tree: MergeTree,
    withRight: boolean
  ) {
    const n = tree.n;
    this.level = new Int32Array(n);
    this.value = new Float64Array(n);
    this.self = new Float64Array(n);
    this.nameIdx = new Int32Array(n);
    if (withRight) {
      this.valueRight = new Float64Array(n);
      this.selfRight = new Float64Array(n);
    }
    if (tree.anyVirtual) {
      this.virtual = new Uint8Array(n);
      this.virtualLabelIdx = new Int32Array(n);
    }
    this.stack = new Int32Array(n);
    this.stack[0] = 0;
  }

  step(budget: number): number {
    const t = this.tree;
    const { level, value, self, nameIdx, valueRight, selfRight, virtual, virtualLabelIdx, stack } = this;
    let top = this.top;
    let row = this.row;
    let maxLevel = this.maxLevel;
    while (top > 0 && budget > 0) {
      budget--;
      const node = stack[--top];
      const l = t.depth[node];
      level[row] = l;
      value[row] = t.value[node];
      nameIdx[row] = t.name[node];
      let childSum = 0;
      let childSumRight = 0;
      let kids = 0;
      for (let c = t.firstChild[node]; c >= 0; c = t.next[c]) {
        childSum += t.value[c];
        childSumRight += t.valueRight[c];
        kids++;
      }
      self[row] = Math.max(0, t.value[node] - childSum);
      if (valueRight && selfRight) {
        valueRight[row] = t.valueRight[node];
        selfRight[row] = Math.max(0, t.valueRight[node] - childSumRight);
      }
      if (virtual && virtualLabelIdx) {
        virtual[row] = t.virt[node];
        virtualLabelIdx[row] = t.vlabel[node];
      }
      if (l > maxLevel) {
        maxLevel = l;
      }
      // children pushed last-first so the first child is drawn first
      top += kids;
      let at = top - 1;
      for (let c = t.firstChild[node]; c >= 0; c = t.next[c]) {
        stack[at--] = c;
      }
      row++;
    }
    this.top = top;
    this.row = row;
    this.maxLevel = maxLevel;
    if (top === 0 && !this.result) {
      this.result = {
        count: t.n,
        level,
        value,
        self,
        nameIdx,
        maxLevel,
        valueRight,
        selfRight,
        virtual,
        virtualLabelIdx,
      };
    }
    return top === 0 ? budget : 0;
  }
}

/**
 * Builds the sandwich of name k as pprof's `-peek` counts it: every node named k is a call site;
 * its subtree is merged into the callees tree and its path of ancestors (the root frame left out)
 * into the callers tree, keyed by name. A sample is counted once per merged node: where a call of k
 * sits inside another (recursion), a merged node the outer call already counts is not counted
 * again, so the roots are pprof's cum and the first levels pprof's caller and callee edges.
 *
 * The work is bounded by the call sites: the sites of each name are listed once per index, the
 * callers are each site's walk to the root, and the callees walk only the subtrees of the
 * outermost sites (a site inside another is merged during the outer one's walk). With
 * `depthLimit`, both halves stop that many levels from the function (the levels kept are exact).
 */
export function mergeSandwich(index: MergeSource, k: number, depthLimit?: number): SandwichParts {
  const st = new MergeState(index, k, depthLimit);
  st.run(Infinity);
  return st.result!;
}

const SITES = 0;
const CALLEES = 1;
const CALLERS = 2;
const CALLER_DATA = 3;
const CALLEE_DATA = 4;
const DONE = 5;

/**
 * buildSandwich's merge as a step function: run(budget) does about `budget` rows of work (a
 * caller walk counts its levels, a half made into a FlameData its nodes) and returns, every loop
 * variable kept here, so the merge goes on where it stopped. Plain loops, no generator: the
 * loops get optimised as the one-shot merge's do.
 */
export class MergeState {
  phase = SITES;
  result?: SandwichParts;
  private sites?: Sites;
  private readonly limit: number;
  private readonly callers: MergeTree;
  private readonly callees: MergeTree;
  private self = 0;
  private total = 0;
  private callerData?: FlameColumns;
  private calleeData?: FlameColumns;
  // the half being made into a FlameData (CALLER_DATA, CALLEE_DATA)
  private walk?: FlameDataWalk;
  // callees: per level below the outermost site on the current path, the merged nodes its node
  // is counted in (one per site above it), as a stack of ranges in one buffer
  private buf = new Int32Array(256);
  private readonly off: Int32Array;
  private readonly len: Int32Array;
  private j = -1;
  private inSite = false;
  private i = 0;
  private depth = 0;
  private next = 0;
  private stop = 0;
  private base = 0;
  // callers: the sites open around the current one, and the merged nodes each counted
  private up = new Int32Array(256);
  private openSites?: Int32Array;
  private upOff?: Int32Array;
  private open = 0;

  constructor(
    readonly index: MergeSource,
    readonly k: number,
    readonly depthLimit?: number
  ) {
    this.limit = depthLimit ?? Infinity;
    this.callers = new MergeTree(k);
    this.callees = new MergeTree(k);
    this.off = new Int32Array(index.data.maxLevel + 2);
    this.len = new Int32Array(index.data.maxLevel + 2);
  }

  /** Merges about `budget` rows; true once the sandwich is made (then in `result`). */
  run(budget: number): boolean {
    while (budget > 0 && this.phase !== DONE) {
      switch (this.phase) {
        case SITES:
          budget = this.sitesPhase(budget);
          break;
        case CALLEES:
          budget = this.calleesPhase(budget);
          break;
        case CALLERS:
          budget = this.callersPhase(budget);
          break;
        case CALLER_DATA:
          this.walk ??= new FlameDataWalk(this.callers, this.index.data.valueRight !== undefined);
          budget = this.walk.step(budget);
          if (this.walk.result) {
            this.callerData = this.walk.result;
            this.walk = undefined;
            this.phase = CALLEE_DATA;
          }
          break;
        case CALLEE_DATA:
          this.walk ??= new FlameDataWalk(this.callees, this.index.data.valueRight !== undefined);
          budget = this.walk.step(budget);
          if (this.walk.result) {
            this.calleeData = this.walk.result;
            this.walk = undefined;
            this.finish();
          }
          break;
      }
    }
    return this.phase === DONE;
  }

  private sitesPhase(budget: number): number {
    const b = sitesBuildOf(this.index);
    budget = sitesStep(this.index, b, budget);
    if (!b.sites) {
      return 0;
    }
    this.sites = b.sites;
    const { start, nodes } = this.sites;
    const self = this.index.data.self;
    for (let j = start[this.k]; j < start[this.k + 1]; j++) {
      this.self += self[nodes[j]];
    }
    this.j = start[this.k];
    const n = start[this.k + 1] - start[this.k];
    this.openSites = new Int32Array(n + 1);
    this.upOff = new Int32Array(n + 2);
    this.phase = CALLEES;
    return budget;
  }

  private calleesPhase(budget: number): number {
    const d = this.index.data;
    const { start, nodes } = this.sites!;
    const k = this.k;
    const s1 = start[k + 1];
    const limit = this.limit;
    const right = d.valueRight;
    const virt = d.virtual;
    const vlab = d.virtualLabelIdx;
    const level = d.level;
    const nameIdx = d.nameIdx;
    const end = this.index.end;
    const callees = this.callees;
    const off = this.off;
    const len = this.len;
    let buf = this.buf;
    let j = this.j;
    let i = this.i;
    let depth = this.depth;
    let next = this.next;
    let stop = this.stop;
    let base = this.base;
    let total = this.total;
    let inSite = this.inSite;
    let paused = false;
    while (j < s1) {
      if (!inSite) {
        const s = nodes[j];
        base = level[s];
        stop = end[s];
        depth = 0; // levels on the stack
        next = j + 1; // the first site after the current row
        i = s;
        inSite = true;
      }
      for (; i < stop; i++) {
        if (budget <= 0) {
          paused = true;
          break;
        }
        budget--;
        const rl = level[i] - base;
        while (depth > rl) {
          depth--;
          for (let q = off[depth], e = q + len[depth]; q < e; q++) {
            callees.open[buf[q]]--;
          }
        }
        // levels skipped over (see below) merge nothing
        for (; depth < rl; depth++) {
          off[depth] = depth > 0 ? off[depth - 1] + len[depth - 1] : 0;
          len[depth] = 0;
        }
        const o = rl > 0 ? off[rl - 1] + len[rl - 1] : 0;
        const pl = rl > 0 ? len[rl - 1] : 0;
        if (o + pl + 1 >= buf.length) {
          const b = new Int32Array(buf.length * 2 + pl + 1);
          b.set(buf);
          buf = b;
        }
        let m = 0;
        const v = d.value[i];
        const vr = right ? right[i] : 0;
        const vi = virt ? virt[i] : 0;
        for (let q = off[rl - 1 < 0 ? 0 : rl - 1], e = q + pl; q < e; q++) {
          const t = buf[q];
          if (callees.depth[t] < limit) {
            buf[o + m++] = callees.child(t, nameIdx[i], vi, vlab ? vlab[i] : -1);
          }
        }
        if (nameIdx[i] === k && !vi) {
          buf[o + m++] = 0;
        }
        for (let q = o, e = o + m; q < e; q++) {
          const t = buf[q];
          if (callees.open[t] === 0) {
            callees.value[t] += v;
            callees.valueRight[t] += vr;
            if (t === 0) {
              total += v;
            }
          }
          callees.open[t]++;
        }
        off[rl] = o;
        len[rl] = m;
        depth = rl + 1;
        if (m === 0) {
          // past the depth limit: below i only a site inside it merges anything
          while (next < s1 && nodes[next] <= i) {
            next++;
          }
          const skipTo = next < s1 && nodes[next] < end[i] ? nodes[next] : end[i];
          i = skipTo - 1;
        }
      }
      if (paused) {
        break;
      }
      while (depth > 0) {
        depth--;
        for (let q = off[depth], e = q + len[depth]; q < e; q++) {
          callees.open[buf[q]]--;
        }
      }
      // the sites inside this one were merged with it
      while (j < s1 && nodes[j] < stop) {
        j++;
      }
      inSite = false;
    }
    this.buf = buf;
    this.j = j;
    this.i = i;
    this.depth = depth;
    this.next = next;
    this.stop = stop;
    this.base = base;
    this.total = total;
    this.inSite = inSite;
    if (paused) {
      return 0;
    }
    this.j = start[k];
    this.phase = CALLERS;
    return budget;
  }

  private callersPhase(budget: number): number {
    const d = this.index.data;
    const { start, nodes } = this.sites!;
    const k = this.k;
    const s1 = start[k + 1];
    const limit = this.limit;
    const right = d.valueRight;
    const virt = d.virtual;
    const vlab = d.virtualLabelIdx;
    const level = d.level;
    const nameIdx = d.nameIdx;
    const end = this.index.end;
    const parent = this.index.parent;
    const callers = this.callers;
    const openSites = this.openSites!;
    const upOff = this.upOff!;
    let up = this.up;
    let open = this.open;
    let j = this.j;
    for (; j < s1 && budget > 0; j++) {
      const s = nodes[j];
      while (open > 0 && end[openSites[open - 1]] <= s) {
        open--;
        for (let q = upOff[open]; q < upOff[open + 1]; q++) {
          callers.open[up[q]]--;
        }
      }
      let o = upOff[open];
      const need = o + level[s] + 1;
      if (need >= up.length) {
        const b = new Int32Array(need * 2);
        b.set(up);
        up = b;
      }
      up[o++] = 0;
      let t = 0;
      for (let p = parent[s]; p > 0 && callers.depth[t] < limit; p = parent[p]) {
        t = callers.child(t, nameIdx[p], virt ? virt[p] : 0, vlab ? vlab[p] : -1);
        up[o++] = t;
      }
      const v = d.value[s];
      const vr = right ? right[s] : 0;
      for (let q = upOff[open]; q < o; q++) {
        const u = up[q];
        if (callers.open[u] === 0) {
          callers.value[u] += v;
          callers.valueRight[u] += vr;
        }
        callers.open[u]++;
      }
      budget -= o - upOff[open];
      openSites[open++] = s;
      upOff[open] = o;
    }
    this.up = up;
    this.open = open;
    this.j = j;
    if (j < s1) {
      return 0;
    }
    this.phase = CALLER_DATA;
    return budget;
  }

  private finish() {
    const { start } = this.sites!;
    const out: SandwichParts = {
      nameIdx: this.k,
      callers: this.callerData!,
      callees: this.calleeData!,
      self: this.self,
      total: this.total,
      sites: start[this.k + 1] - start[this.k],
    };
    if (this.depthLimit !== undefined) {
      out.depthLimit = this.depthLimit;
    }
    this.result = out;
    this.phase = DONE;
  }
}
