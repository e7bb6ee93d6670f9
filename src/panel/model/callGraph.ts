// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameData } from '../../shared/flameData';
import { runChunks } from './idle';

/**
 * pprof's call graph (`go tool pprof -http`'s default view, `-dot`/`-web`) of a flamegraph frame:
 * one box per function with its flat and cum, one arrow per caller → callee with the value that
 * went through that call, trimmed as pprof trims it for a picture. Built from the frame's call
 * tree, where every node's self is the samples whose stack is exactly that node's path, so what
 * pprof sums sample by sample is summed here node by node:
 *
 * - a function's cum counts each sample once however often the function is on its stack (its
 *   topmost occurrence on a path carries the whole subtree);
 * - an arrow's weight likewise counts each sample once per caller → callee pair; a function
 *   calling itself has no arrow;
 * - when the graph keeps only some functions, an arrow joins each kept function to the next kept
 *   one below it on the stack, and is "residual" (pprof's dotted arrow) where dropped frames were
 *   passed over; a sample whose leaf frame was dropped adds no flat;
 * - trimming: functions whose cum is under `nodeFraction` of the total go first (the graph is then
 *   made again from the frame with the rest), then, in pprof's visual order (its entropy score,
 *   which favours functions where calls fan in or out over pass-through frames), the first
 *   `nodeCount` stay (made again), arrows under `edgeFraction` go, and a dotted arrow goes when its
 *   callee is still reached from the caller's ancestors another way.
 *
 * Matches `go tool pprof -dot` of the same profile (without its label nodelets: a flamegraph frame
 * has no per-sample labels, so pprof is compared with `-taghide=.`), function for function and
 * arrow for arrow; pprof's "(inline)" mark on arrows is not known from a frame.
 */
export interface CallGraphOptions {
  /** pprof's -nodefraction: functions with cum under this share of the total are dropped. */
  nodeFraction: number;
  /** pprof's -edgefraction: arrows under this share of the total are dropped. */
  edgeFraction: number;
  /** pprof's -nodecount: how many functions the picture keeps at most (0: all). */
  nodeCount: number;
}

/** pprof's defaults for a graph (`-dot`, `-web`, the web UI's Graph view). */
export const PPROF_GRAPH_DEFAULTS: CallGraphOptions = { nodeFraction: 0.005, edgeFraction: 0.001, nodeCount: 80 };

export interface CallGraphNode {
  /** The function's name. */
  name: string;
  /** Value in the function itself (pprof's flat). */
  flat: number;
  /** Value in it and what it calls, each sample once (pprof's cum). */
  cum: number;
  /** Indices (into edges) of the arrows into and out of it. */
  in: number[];
  out: number[];
}

export interface CallGraphEdge {
  /** Indices into nodes. */
  from: number;
  to: number;
  weight: number;
  /** Joins two functions over frames the picture dropped (drawn dotted, as pprof draws it). */
  residual: boolean;
}

export interface CallGraph {
  /** In pprof's order (its visual order: the most telling first). */
  nodes: CallGraphNode[];
  /** Heaviest first (then caller, then callee name), as pprof writes them. */
  edges: CallGraphEdge[];
  /** The profile's total (the frame's root). */
  total: number;
  /** Sum of the shown functions' flat ("showing nodes accounting for"). */
  shown: number;
  /** Functions dropped for their cum under the node cutoff, and that cutoff. */
  droppedNodes: number;
  nodeCutoff: number;
  /** Arrows dropped for their weight under the edge cutoff, and that cutoff. */
  droppedEdges: number;
  edgeCutoff: number;
  /** Functions left after the node cutoff, before nodeCount ("top N out of this"). */
  beforeTop: number;
  /** The nodeCount applied. */
  nodeCount: number;
}

/** Values the graph is made of: by default the frame's own; in a diff, one side's or their difference. */
export interface CallGraphValues {
  value: ArrayLike<number>;
  self: ArrayLike<number>;
  /**
   * What shares are of (the legend's total, its cutoffs and the colours), when not the root's
   * value: the baseline's total for a difference, as `pprof -diff_base` has it.
   */
  total?: number;
}

/** One function's sums while a graph is made. */
interface Sums {
  fn: number;
  flat: number;
  cum: number;
  /** caller function → edge */
  in: Map<number, Edge>;
  out: Map<number, Edge>;
}

interface Edge {
  from: Sums;
  to: Sums;
  weight: number;
  residual: boolean;
  /** While a graph is made: how many times the pair is on the current path. */
  onPath: number;
}

/** The frame's functions: each name's function id (an enum's text may repeat a name), and the distinct names. */
interface Functions {
  canon: Int32Array;
  names: string[];
}

/** Rows (or names) in one chunk of a graph made in chunks (well under a millisecond). */
const CHUNK = 2048;

/** Interns the frame's names, a chunk at a time. */
class FunctionsPass {
  readonly fns: Functions;
  private readonly byName = new Map<string, number>();
  private k = 0;

  constructor(private readonly data: FlameData) {
    this.fns = { canon: new Int32Array(data.names.length), names: [] };
  }

  /** Interns one chunk of names; true once every name has its function. */
  chunk(): boolean {
    const { names: all } = this.data;
    const { canon, names } = this.fns;
    const end = Math.min(all.length, this.k + CHUNK);
    for (let k = this.k; k < end; k++) {
      const n = all[k];
      let id = this.byName.get(n);
      if (id === undefined) {
        id = names.length;
        names.push(n);
        this.byName.set(n, id);
      }
      canon[k] = id;
    }
    this.k = end;
    return this.k >= all.length;
  }
}

/**
 * Each function's flat and cum over every row, a chunk of rows at a time, in typed arrays: what
 * the node cutoff needs of the whole graph. The arrows are summed only by the passes after the
 * cutoff (GraphPass), over the functions that stay: a large frame's every caller → callee pair
 * as objects would be tens of megabytes the collector copies, in pauses of their own.
 */
class SumsPass {
  readonly flat: Float64Array;
  readonly cum: Float64Array;
  private readonly onPath: Int32Array;
  private readonly pushedFn: Int32Array;
  private top = 0; // levels [1, top) are on the path
  private i = 1;

  constructor(
    private readonly data: FlameData,
    private readonly v: CallGraphValues,
    private readonly fns: Functions
  ) {
    const nfn = fns.names.length;
    this.flat = new Float64Array(nfn);
    this.cum = new Float64Array(nfn);
    this.onPath = new Int32Array(nfn);
    this.pushedFn = new Int32Array(data.maxLevel + 1);
  }

  /** Adds one chunk of rows; true once every row is in. */
  chunk(): boolean {
    const n = this.data.count;
    const { level, nameIdx } = this.data;
    const { value, self } = this.v;
    const { canon } = this.fns;
    const { flat, cum, onPath, pushedFn } = this;
    let top = this.top;
    let i = this.i;
    const end = Math.min(n, i + CHUNK);
    for (; i < end; i++) {
      const l = level[i];
      while (top > l) {
        top--;
        onPath[pushedFn[top]]--;
      }
      top = l + 1;
      const fn = canon[nameIdx[i]];
      // each sample once: only the function's topmost occurrence on the path adds to its cum
      if (onPath[fn] === 0) {
        cum[fn] += value[i];
      }
      onPath[fn]++;
      pushedFn[l] = fn;
      flat[fn] += self[i];
    }
    this.top = top;
    this.i = i;
    return i >= n;
  }

  /** The functions with a flat or a cum (the graph's functions). */
  present(): number[] {
    const out: number[] = [];
    for (let fn = 0; fn < this.flat.length; fn++) {
      if (this.cum[fn] !== 0 || this.flat[fn] !== 0) {
        out.push(fn);
      }
    }
    return out;
  }
}

/**
 * The graph of the rows' functions (every function when kept is undefined, else only those with
 * kept[fn] set): pprof's graph.New, node by node, a chunk of rows at a time. Functions with no
 * flat and no cum are left out of the result.
 */
class GraphPass {
  private readonly sums: Array<Sums | undefined>;
  // along the path from the root: how many times each function is on it, and per level what was
  // pushed, the last kept function at or above it and whether frames were dropped after that one
  // (how many times a caller → callee pair is on the path is kept on its edge)
  private readonly onPath: Int32Array;
  private readonly pushedFn: Int32Array;
  private readonly pushedEdge: Array<Edge | undefined>;
  private readonly keptAbove: Int32Array;
  private readonly residualAbove: Uint8Array;
  private top = 0; // levels [1, top) are on the path
  private i = 1;

  constructor(
    private readonly data: FlameData,
    private readonly v: CallGraphValues,
    private readonly fns: Functions,
    private readonly kept?: Uint8Array
  ) {
    const nfn = fns.names.length;
    const depth = data.maxLevel + 1;
    this.sums = new Array(nfn);
    this.onPath = new Int32Array(nfn);
    this.pushedFn = new Int32Array(depth).fill(-1);
    this.pushedEdge = new Array(depth);
    this.keptAbove = new Int32Array(depth).fill(-1);
    this.residualAbove = new Uint8Array(depth);
  }

  /** Adds one chunk of rows; true once every row is in. */
  chunk(): boolean {
    const n = this.data.count;
    const { level, nameIdx } = this.data;
    const { value, self } = this.v;
    const { canon } = this.fns;
    const { sums, onPath, pushedFn, pushedEdge, keptAbove, residualAbove, kept } = this;
    let top = this.top;
    let i = this.i;
    {
      const end = Math.min(n, i + CHUNK);
      for (; i < end; i++) {
        const l = level[i];
        // leave the levels at and under l
        while (top > l) {
          top--;
          const f = pushedFn[top];
          if (f >= 0) {
            onPath[f]--;
            const e = pushedEdge[top];
            if (e) {
              e.onPath--;
            }
          }
        }
        top = l + 1;
        const parent = l > 1 ? keptAbove[l - 1] : -1;
        const residual = l > 1 && residualAbove[l - 1] === 1;
        const fn = canon[nameIdx[i]];
        pushedFn[l] = -1;
        pushedEdge[l] = undefined;
        if (kept && kept[fn] !== 1) {
          keptAbove[l] = parent;
          residualAbove[l] = 1;
          continue;
        }
        let s = sums[fn];
        if (!s) {
          s = { fn, flat: 0, cum: 0, in: new Map(), out: new Map() };
          sums[fn] = s;
        }
        const total = value[i];
        if (onPath[fn] === 0) {
          s.cum += total;
        }
        onPath[fn]++;
        pushedFn[l] = fn;
        if (parent >= 0 && parent !== fn) {
          const from = sums[parent]!;
          let e = from.out.get(fn);
          if (!e) {
            e = { from, to: s, weight: 0, residual: false, onPath: 0 };
            from.out.set(fn, e);
            s.in.set(parent, e);
          }
          // each sample once per pair: only the pair's topmost occurrence on the path adds
          if (e.onPath === 0) {
            e.weight += total;
            if (residual) {
              e.residual = true;
            }
          }
          e.onPath++;
          pushedEdge[l] = e;
        }
        keptAbove[l] = fn;
        residualAbove[l] = 0;
        s.flat += self[i];
      }
    }
    this.top = top;
    this.i = i;
    return i >= n;
  }

  result(): Sums[] {
    const out: Sums[] = [];
    for (const s of this.sums) {
      if (s && (s.cum !== 0 || s.flat !== 0)) {
        out.push(s);
      }
    }
    return out;
  }
}

const INT64_MIN = -(BigInt(2) ** BigInt(63));
const TWO_63 = 2 ** 63;

/**
 * Go's int64(x) of a float64 as amd64 does it: out of range or NaN gives the minimum int64 (the
 * machine's "integer indefinite"). A diff's negative values make pprof's entropy NaN (the log of a
 * negative share), and its node order then follows from this; the checked-in diff graph was made
 * on amd64.
 */
function goInt64(x: number): bigint {
  if (Number.isNaN(x) || x >= TWO_63 || x < -TWO_63) {
    return INT64_MIN;
  }
  return BigInt(Math.trunc(x));
}

/** Go's abs64 with int64 wrap-around (the minimum stays itself). */
function abs64(x: bigint): bigint {
  return x < BigInt(0) ? BigInt.asIntN(64, -x) : x;
}

/**
 * pprof's entropy score: how telling a function is in a picture (fan-in and fan-out over
 * pass-through), in pprof's own int64 arithmetic (see goInt64).
 */
function entropyScore(s: Sums): bigint {
  let score = 0;
  score += s.in.size === 0 ? 1 : edgeEntropy(s.in, 0);
  score += s.out.size === 0 ? 1 : edgeEntropy(s.out, s.flat);
  return BigInt.asIntN(64, goInt64(score * s.cum) + BigInt(s.flat));
}

function edgeEntropy(edges: Map<number, Edge>, self: number): number {
  let total = self;
  for (const e of edges.values()) {
    if (e.weight > 0) {
      total += Math.abs(e.weight);
    }
  }
  if (total === 0) {
    return 0;
  }
  let score = 0;
  for (const e of edges.values()) {
    const frac = Math.abs(e.weight) / total;
    score -= frac * Math.log2(frac);
  }
  if (self > 0) {
    const frac = Math.abs(self) / total;
    score -= frac * Math.log2(frac);
  }
  return score;
}

function byName(names: string[], a: number, b: number): number {
  const x = names[a];
  const y = names[b];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** pprof's visual order: entropy score (see visualScore), then name, then flat. */
function visualOrder(score: Map<Sums, bigint>, names: string[]) {
  return (a: Sums, b: Sums) => {
    const x = score.get(a)!;
    const y = score.get(b)!;
    return x > y ? -1 : x < y ? 1 : byName(names, a.fn, b.fn) || Math.abs(b.flat) - Math.abs(a.flat);
  };
}

/** The key pprof sorts functions by for a picture. */
function visualScore(s: Sums): bigint {
  return abs64(entropyScore(s));
}

/** Heaviest first, then caller name, then callee name (pprof's edge order). */
function edgeOrder(names: string[]) {
  return (a: Edge, b: Edge) =>
    Math.abs(b.weight) - Math.abs(a.weight) || byName(names, a.from.fn, b.from.fn) || byName(names, a.to.fn, b.to.fn);
}

/** Drops the function's arrows in that weigh under the cutoff; how many it dropped. */
function trimEdgesInto(s: Sums, cutoff: number): number {
  let dropped = 0;
  for (const [from, e] of s.in) {
    if (Math.abs(e.weight) < cutoff) {
      s.in.delete(from);
      e.from.out.delete(s.fn);
      dropped++;
    }
  }
  return dropped;
}

/** Whether e's caller still reaches e's callee by other arrows (then a dotted e adds nothing). */
function reachedOtherwise(e: Edge): boolean {
  const seen = new Set<Sums>([e.to]);
  const queue = [e.to];
  for (let k = 0; k < queue.length; k++) {
    for (const ie of queue[k].in.values()) {
      if (ie === e || seen.has(ie.from)) {
        continue;
      }
      if (ie.from === e.from) {
        return true;
      }
      seen.add(ie.from);
      queue.push(ie.from);
    }
  }
  return false;
}

/**
 * Drops the dotted arrows into s whose caller reaches s by other arrows, lightest first; a solid
 * arrow stops the search. Called for each function from the last in order, this is pprof's
 * RemoveRedundantEdges, as the Go toolchain's pprof has it.
 */
function removeRedundantEdgesInto(s: Sums, order: (a: Edge, b: Edge) => number) {
  const ins = [...s.in.values()].sort(order);
  for (let j = ins.length - 1; j >= 0; j--) {
    const e = ins[j];
    if (!e.residual) {
      break;
    }
    if (reachedOtherwise(e)) {
      e.from.out.delete(e.to.fn);
      e.to.in.delete(e.from.fn);
    }
  }
}

function keptSet(fns: number[], nfn: number): Uint8Array {
  const kept = new Uint8Array(nfn);
  for (const fn of fns) {
    kept[fn] = 1;
  }
  return kept;
}

/**
 * The graph's values in a diff: one side's, or the comparison less the baseline (what
 * `go tool pprof -diff_base=baseline comparison` draws: red where it grew, green where it shrank,
 * shares of the baseline's total). The frame's own value and self otherwise.
 */
export function sideValues(data: FlameData, side: 'both' | 'comparison' | 'baseline' | 'difference'): CallGraphValues {
  if (side === 'both' || !data.valueRight || !data.selfRight) {
    return { value: data.value, self: data.self };
  }
  const right = { value: data.valueRight, self: data.selfRight };
  if (side === 'comparison') {
    return right;
  }
  const n = data.count;
  const value = new Float64Array(n);
  const self = new Float64Array(n);
  // the frame's value and self hold both sides (the reader adds them for the bars)
  for (let i = 0; i < n; i++) {
    value[i] = data.value[i] - right.value[i];
    self[i] = data.self[i] - right.self[i];
  }
  if (side === 'baseline') {
    return { value, self };
  }
  for (let i = 0; i < n; i++) {
    value[i] = right.value[i] - value[i];
    self[i] = right.self[i] - self[i];
  }
  return { value, self, total: n > 0 ? data.value[0] - right.value[0] : 0 };
}

/** Arrows (or functions) looked at in one chunk of the work between two passes. */
const WORK_CHUNK = 4096;

/**
 * The call graph of a frame made a chunk at a time: each chunk() does a bounded part (a chunk of
 * names or rows; between two passes, the functions' scores, the trimming of arrows and the
 * search for redundant ones, a few thousand arrows at a time) and says true once the graph is
 * made, so that runChunks makes a large frame's graph in idle slices without holding up the page.
 * pprof makes its graph three times (whole, without the functions under the node cutoff, and
 * with the top nodeCount only): so does this, three passes over every row at most.
 */
export class CallGraphBuild {
  graph?: CallGraph;
  private readonly functions: FunctionsPass;
  /** The work still to do, in order: each entry a resumable job; a job that ends may add the next. */
  private readonly todo: Array<() => boolean> = [];
  private g: Sums[] = [];
  private nodeCutoff = 0;
  private edgeCutoff = 0;
  private droppedNodes = 0;
  private droppedEdges = 0;
  private beforeTop = 0;

  constructor(
    private readonly data: FlameData,
    private readonly options: CallGraphOptions = PPROF_GRAPH_DEFAULTS,
    private readonly values: CallGraphValues = { value: data.value, self: data.self }
  ) {
    const functions = new FunctionsPass(data);
    this.functions = functions;
    this.todo.push(() => functions.chunk(), this.sumsJob());
  }

  chunk(): boolean {
    if (this.todo.length > 0 && this.todo[0]()) {
      this.todo.shift();
    }
    return this.todo.length === 0;
  }

  /** The whole graph's flat and cum per function (no arrows), then the node cutoff (afterWhole). */
  private sumsJob(): () => boolean {
    let pass: SumsPass | undefined;
    return () => {
      pass ??= new SumsPass(this.data, this.values, this.functions.fns);
      if (!pass.chunk()) {
        return false;
      }
      this.afterWhole(pass);
      return true;
    };
  }

  /** A pass over every row keeping the functions of `keep` (all when undefined), then `then` with its result in g. */
  private passJob(keep: number[] | undefined, then: () => void): () => boolean {
    let pass: GraphPass | undefined;
    return () => {
      const fns = this.functions.fns;
      pass ??= new GraphPass(this.data, this.values, fns, keep && keptSet(keep, fns.names.length));
      if (!pass.chunk()) {
        return false;
      }
      this.g = pass.result();
      then();
      return true;
    };
  }

  /** fn over each function of g in order (or from the last one), some WORK_CHUNK arrows at a time, then `then`. */
  private eachJob(fn: (s: Sums) => void, then: () => void, backward = false): () => boolean {
    let k = 0;
    return () => {
      const g = this.g;
      let work = 0;
      while (k < g.length && work < WORK_CHUNK) {
        const s = g[backward ? g.length - 1 - k : k];
        work += 1 + s.in.size + s.out.size;
        fn(s);
        k++;
      }
      if (k < g.length) {
        return false;
      }
      then();
      return true;
    };
  }

  /** g put in pprof's visual order (its scores worked out a chunk at a time), then `then`. */
  private order(then: () => void) {
    const score = new Map<Sums, bigint>();
    this.todo.push(
      this.eachJob(
        (s) => score.set(s, visualScore(s)),
        () => {
          this.g.sort(visualOrder(score, this.functions.fns.names));
          then();
        }
      )
    );
  }

  /**
   * After the whole graph's sums: the cutoffs, and the graph with its arrows made of the
   * functions at or over the node cutoff (all of them when none is under it).
   */
  private afterWhole(sums: SumsPass) {
    const o = this.options;
    const present = sums.present();
    let total = 0;
    for (const fn of present) {
      total += sums.flat[fn];
    }
    this.nodeCutoff = Math.abs(Math.trunc(total * o.nodeFraction));
    this.edgeCutoff = Math.abs(Math.trunc(total * o.edgeFraction));
    const keep = this.nodeCutoff > 0 ? present.filter((fn) => Math.abs(sums.cum[fn]) >= this.nodeCutoff) : present;
    this.droppedNodes = present.length - keep.length;
    this.todo.push(this.passJob(this.droppedNodes > 0 ? keep : undefined, () => this.order(() => this.afterCut())));
  }

  /** After the cut graph is in order: its light arrows trimmed, and the top nodeCount made again. */
  private afterCut() {
    const o = this.options;
    this.beforeTop = this.g.length;
    if (o.nodeCount <= 0) {
      this.finish();
      return;
    }
    const cutoff = this.edgeCutoff;
    this.todo.push(
      this.eachJob(
        (s) => void trimEdgesInto(s, cutoff),
        () => {
          if (this.g.length > o.nodeCount) {
            const top = this.g.slice(0, o.nodeCount).map((s) => s.fn);
            this.todo.push(this.passJob(top, () => this.order(() => this.finish())));
          } else {
            this.finish();
          }
        }
      )
    );
  }

  /** The last trimming of arrows, the redundant dotted ones dropped, then the graph. */
  private finish() {
    const cutoff = this.edgeCutoff;
    const order = edgeOrder(this.functions.fns.names);
    this.todo.push(
      this.eachJob(
        (s) => {
          this.droppedEdges += trimEdgesInto(s, cutoff);
        },
        () => undefined
      ),
      this.eachJob(
        (s) => removeRedundantEdgesInto(s, order),
        () => {
          this.graph = this.assemble();
        },
        true
      )
    );
  }

  /** The graph as the view reads it: its functions and arrows in order, with the legend's counts. */
  private assemble(): CallGraph {
    const { names } = this.functions.fns;
    const g = this.g;
    const at = new Map<Sums, number>();
    const nodes: CallGraphNode[] = g.map((s, k) => {
      at.set(s, k);
      return { name: names[s.fn], flat: s.flat, cum: s.cum, in: [], out: [] };
    });
    const all: Edge[] = [];
    for (const s of g) {
      all.push(...s.out.values());
    }
    all.sort(edgeOrder(names));
    const edges: CallGraphEdge[] = all.map((e, k) => {
      const from = at.get(e.from)!;
      const to = at.get(e.to)!;
      nodes[from].out.push(k);
      nodes[to].in.push(k);
      return { from, to, weight: e.weight, residual: e.residual };
    });
    let shown = 0;
    for (const s of g) {
      shown += s.flat;
    }
    const total = this.values.total ?? (this.data.count > 0 ? this.values.value[0] : 0);
    return {
      nodes,
      edges,
      total,
      shown,
      droppedNodes: this.droppedNodes,
      nodeCutoff: Math.abs(Math.trunc(total * this.options.nodeFraction)),
      droppedEdges: this.droppedEdges,
      edgeCutoff: Math.abs(Math.trunc(total * this.options.edgeFraction)),
      beforeTop: this.beforeTop,
      nodeCount: this.options.nodeCount,
    };
  }
}

/** The call graph of a frame, trimmed as pprof trims a picture (see CallGraphOptions), made at once. */
export function callGraph(
  data: FlameData,
  options: CallGraphOptions = PPROF_GRAPH_DEFAULTS,
  values: CallGraphValues = { value: data.value, self: data.self }
): CallGraph {
  const build = new CallGraphBuild(data, options, values);
  runChunks(() => build.chunk());
  return build.graph!;
}
