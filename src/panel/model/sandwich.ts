// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameData } from '../../shared/flameData';
import { FlameIndex } from './flameIndex';
import { PathTree } from './tree';

/** The sandwich of one function: every caller path merged above it, every callee path merged below it. */
export interface Sandwich {
  nameIdx: number;
  /** Root = the function; its children are its callers, theirs their callers, up to the outermost frame. */
  callers: FlameData;
  /** Root = the function; below it every call it makes, merged over every call site. */
  callees: FlameData;
  /** The function's self summed over every node (pprof's flat). */
  self: number;
  /** The function's total, a call inside a call of itself counted once (pprof's cum). */
  total: number;
  /** How many nodes of the graph carry the function. */
  sites: number;
}

/**
 * Builds the sandwich of name k as pprof's `-peek` counts it: every node named k is a call site;
 * its subtree is merged into the callees tree and its path of ancestors (the root frame left out)
 * into the callers tree, keyed by name. A sample is counted once per merged node: where a call of k
 * sits inside another (recursion), a merged node the outer call already counts is not counted
 * again, so the roots are pprof's cum and the first levels pprof's caller and callee edges.
 */
export function buildSandwich(index: FlameIndex, k: number): Sandwich {
  const d = index.data;
  const callers = new PathTree(k);
  const callees = new PathTree(k);
  const right = d.valueRight;
  const virt = (i: number) => (d.virtual ? d.virtual[i] : 0);
  const vlabel = (i: number) => (d.virtualLabelIdx ? d.virtualLabelIdx[i] : -1);
  // per node on the current path: the callee-tree nodes it is merged into (one per call site above it)
  const mapped: number[][] = new Array(d.maxLevel + 2);
  // per node on the current path: the caller-tree nodes it counted
  const counted: number[][] = new Array(d.maxLevel + 2);
  // per merged node: how many nodes on the current path are counted in it
  let openCallee: Int32Array = new Int32Array(64);
  let openCaller: Int32Array = new Int32Array(64);
  const grow = (a: Int32Array, n: number): Int32Array => {
    if (n < a.length) {
      return a;
    }
    const b = new Int32Array(Math.max(n + 1, a.length * 2));
    b.set(a);
    return b;
  };
  let self = 0;
  let total = 0;
  let sites = 0;
  const stack: number[] = [];
  const close = (j: number) => {
    const l = d.level[j];
    for (const t of mapped[l] ?? []) {
      openCallee[t]--;
    }
    for (const t of counted[l] ?? []) {
      openCaller[t]--;
    }
    mapped[l] = [];
    counted[l] = [];
  };
  for (let i = 0; i < d.count; i++) {
    const l = d.level[i];
    while (stack.length > l) {
      close(stack.pop()!);
    }
    stack.push(i);
    const v = d.value[i];
    const vr = right ? right[i] : 0;
    const here: number[] = [];
    if (l > 0) {
      for (const t of mapped[l - 1] ?? []) {
        here.push(callees.child(t, d.nameIdx[i], virt(i), vlabel(i)));
      }
    }
    const site = l > 0 && d.nameIdx[i] === k && !virt(i);
    if (site) {
      sites++;
      self += d.self[i];
      here.push(0);
      // callers: the path up to (not including) the root, counted where the path above has not counted it
      const up: number[] = [0];
      let t = 0;
      for (let p = index.parent[i]; p > 0; p = index.parent[p]) {
        t = callers.child(t, d.nameIdx[p], virt(p), vlabel(p));
        up.push(t);
      }
      openCaller = grow(openCaller, callers.parent.length);
      for (const u of up) {
        if (openCaller[u] === 0) {
          callers.add(u, v, vr);
        }
        openCaller[u]++;
      }
      counted[l] = up;
    } else {
      counted[l] = [];
    }
    openCallee = grow(openCallee, callees.parent.length);
    for (const t of here) {
      if (openCallee[t] === 0) {
        callees.add(t, v, vr);
        if (t === 0) {
          total += v;
        }
      }
      openCallee[t]++;
    }
    mapped[l] = here;
  }
  return { nameIdx: k, callers: callers.toFlameData(d), callees: callees.toFlameData(d), self, total, sites };
}
