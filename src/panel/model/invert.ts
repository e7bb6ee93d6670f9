// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameData } from '../../shared/flameData';
import { rebuildStacks } from './stacks';

/**
 * The inverted flamegraph: every stack turned upside down, so the root's children are the leaf
 * functions, each with its self over the whole graph (pprof's -top flat), and each one's callers
 * above it. A node's total is the self of its root-side function reached through that chain of
 * callers. Virtual frames made from labels stay in front, in their order, so an inverted graph
 * `by (service)` still groups by service (as the query language's reverse does).
 */
export function invertFlameData(data: FlameData): FlameData {
  return rebuildStacks(data, (path) => {
    let v = 0;
    while (v < path.length && data.virtual && data.virtual[path[v]] === 1) {
      v++;
    }
    const out = path.slice(0, v);
    for (let i = path.length - 1; i >= v; i--) {
      out.push(path[i]);
    }
    return out;
  });
}
