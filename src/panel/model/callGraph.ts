// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameData } from '../../shared/flameData';

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

/** Values the graph is made of: by default the frame's own; in a diff, one side's. */
export interface CallGraphValues {
  value: ArrayLike<number>;
  self: ArrayLike<number>;
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
}

/** The frame's functions: each row's function id, names interned (an enum's text may repeat). */
interface Functions {
  ofRow: (i: number) => number;
  names: string[];
}

function functionsOf(data: FlameData): Functions {
  const names: string[] = [];
  const byName = new Map<string, number>();
  const canon = new Int32Array(data.names.length);
  data.names.forEach((n, k) => {
    let id = byName.get(n);
    if (id === undefined) {
      id = names.length;
      names.push(n);
      byName.set(n, id);
    }
    canon[k] = id;
  });
  const nameIdx = data.nameIdx;
  return { ofRow: (i) => canon[nameIdx[i]], names };
}

/**
 * The graph of the rows' functions (every function when kept is undefined, else only those with
 * kept[fn] set): pprof's graph.New, node by node. Functions with no flat and no cum are left out.
 */
function graphOf(data: FlameData, v: CallGraphValues, fns: Functions, kept?: Uint8Array): Sums[] {
  const n = data.count;
  const { level } = data;
  const { value, self } = v;
  const nfn = fns.names.length;
  const sums: Array<Sums | undefined> = new Array(nfn);
  const get = (fn: number) => {
    let s = sums[fn];
    if (!s) {
      s = { fn, flat: 0, cum: 0, in: new Map(), out: new Map() };
      sums[fn] = s;
    }
    return s;
  };
  // along the path from the root: how many times each function and each caller → callee pair is
  // on it (only the topmost occurrence adds), and per level what was pushed, the last kept
  // function at or above it and whether frames were dropped after that one
  const onPath = new Int32Array(nfn);
  const pairOnPath = new Map<number, number>();
  const depth = data.maxLevel + 1;
  const pushedFn = new Int32Array(depth).fill(-1);
  const pushedPair = new Float64Array(depth).fill(-1);
  const keptAbove = new Int32Array(depth).fill(-1);
  const residualAbove = new Uint8Array(depth);
  let top = 0; // levels [1, top) are on the path
  for (let i = 1; i < n; i++) {
    const l = level[i];
    // leave the levels at and under l
    while (top > l) {
      top--;
      const f = pushedFn[top];
      if (f >= 0) {
        onPath[f]--;
        const p = pushedPair[top];
        if (p >= 0) {
          pairOnPath.set(p, pairOnPath.get(p)! - 1);
        }
      }
    }
    top = l + 1;
    const parent = l > 1 ? keptAbove[l - 1] : -1;
    const residual = l > 1 ? residualAbove[l - 1] === 1 : false;
    const fn = fns.ofRow(i);
    pushedFn[l] = -1;
    pushedPair[l] = -1;
    if (kept && kept[fn] !== 1) {
      keptAbove[l] = parent;
      residualAbove[l] = 1;
      continue;
    }
    const s = get(fn);
    const total = value[i];
    if (onPath[fn] === 0) {
      s.cum += total;
    }
    onPath[fn]++;
    pushedFn[l] = fn;
    if (parent >= 0 && parent !== fn) {
      const key = parent * nfn + fn;
      const on = pairOnPath.get(key) ?? 0;
      if (on === 0) {
        const from = sums[parent]!;
        let e = from.out.get(fn);
        if (!e) {
          e = { from, to: s, weight: 0, residual: false };
          from.out.set(fn, e);
          s.in.set(parent, e);
        }
        e.weight += total;
        if (residual) {
          e.residual = true;
        }
      }
      pairOnPath.set(key, on + 1);
      pushedPair[l] = key;
    }
    keptAbove[l] = fn;
    residualAbove[l] = 0;
    s.flat += self[i];
  }
  const out: Sums[] = [];
  for (const s of sums) {
    if (s && (s.cum !== 0 || s.flat !== 0)) {
      out.push(s);
    }
  }
  return out;
}

/** pprof's entropy score: how telling a function is in a picture (fan-in and fan-out over pass-through). */
function entropyScore(s: Sums): number {
  let score = 0;
  score += s.in.size === 0 ? 1 : edgeEntropy(s.in, 0);
  score += s.out.size === 0 ? 1 : edgeEntropy(s.out, s.flat);
  return Math.trunc(score * s.cum) + s.flat;
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

/** pprof's visual order: entropy score, then name, then flat. */
function sortVisual(g: Sums[], names: string[]): Sums[] {
  const score = new Map<Sums, number>();
  for (const s of g) {
    score.set(s, Math.abs(entropyScore(s)));
  }
  return g.sort(
    (a, b) => score.get(b)! - score.get(a)! || byName(names, a.fn, b.fn) || Math.abs(b.flat) - Math.abs(a.flat)
  );
}

/** Heaviest first, then caller name, then callee name (pprof's edge order). */
function edgeOrder(names: string[]) {
  return (a: Edge, b: Edge) =>
    Math.abs(b.weight) - Math.abs(a.weight) || byName(names, a.from.fn, b.from.fn) || byName(names, a.to.fn, b.to.fn);
}

function trimEdges(g: Sums[], cutoff: number): number {
  let dropped = 0;
  for (const s of g) {
    for (const [from, e] of s.in) {
      if (Math.abs(e.weight) < cutoff) {
        s.in.delete(from);
        e.from.out.delete(s.fn);
        dropped++;
      }
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
 * Drops the dotted arrows whose caller reaches their callee by other arrows, lightest first, each
 * function's from the last in order; a solid arrow stops the search at that function (pprof's
 * RemoveRedundantEdges, as the Go toolchain's pprof has it).
 */
function removeRedundantEdges(g: Sums[], names: string[]) {
  const order = edgeOrder(names);
  for (let i = g.length - 1; i >= 0; i--) {
    const ins = [...g[i].in.values()].sort(order);
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
}

function keptSet(g: Sums[], nfn: number): Uint8Array {
  const kept = new Uint8Array(nfn);
  for (const s of g) {
    kept[s.fn] = 1;
  }
  return kept;
}

/** The graph's values in a diff: one side's (the frame's value and self otherwise). */
export function sideValues(data: FlameData, side: 'both' | 'comparison' | 'baseline'): CallGraphValues {
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
  for (let i = 0; i < n; i++) {
    value[i] = data.value[i] - right.value[i];
    self[i] = data.self[i] - right.self[i];
  }
  return { value, self };
}

/** The call graph of a frame, trimmed as pprof trims a picture (see CallGraphOptions). */
export function callGraph(
  data: FlameData,
  options: CallGraphOptions = PPROF_GRAPH_DEFAULTS,
  values: CallGraphValues = { value: data.value, self: data.self }
): CallGraph {
  const fns = functionsOf(data);
  const { names } = fns;
  const nfn = names.length;
  let g = graphOf(data, values, fns);
  let total = 0;
  for (const s of g) {
    total += s.flat;
  }
  const nodeCutoff = Math.abs(Math.trunc(total * options.nodeFraction));
  const edgeCutoff = Math.abs(Math.trunc(total * options.edgeFraction));
  let droppedNodes = 0;
  if (nodeCutoff > 0) {
    const keep = g.filter((s) => Math.abs(s.cum) >= nodeCutoff);
    if (keep.length !== g.length) {
      droppedNodes = g.length - keep.length;
      g = graphOf(data, values, fns, keptSet(keep, nfn));
    }
  }
  const beforeTop = g.length;
  g = sortVisual(g, names);
  if (options.nodeCount > 0) {
    trimEdges(g, edgeCutoff);
    if (g.length > options.nodeCount) {
      g = sortVisual(graphOf(data, values, fns, keptSet(g.slice(0, options.nodeCount), nfn)), names);
    }
  }
  const droppedEdges = trimEdges(g, edgeCutoff);
  removeRedundantEdges(g, names);

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
  return {
    nodes,
    edges,
    total: data.count > 0 ? values.value[0] : 0,
    shown,
    droppedNodes,
    nodeCutoff: Math.abs(Math.trunc((data.count > 0 ? values.value[0] : 0) * options.nodeFraction)),
    droppedEdges,
    edgeCutoff: Math.abs(Math.trunc((data.count > 0 ? values.value[0] : 0) * options.edgeFraction)),
    beforeTop,
    nodeCount: options.nodeCount,
  };
}
