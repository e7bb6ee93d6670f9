// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameData } from '../../shared/flameData';
import { PathTree } from './tree';

/** One stack of a flamegraph: its frames from the root's child down to the node, and the node's self. */
export interface Stack {
  /** Node indices from the root's child down to the node. */
  path: number[];
  self: number;
  selfRight: number;
}

/**
 * Calls visit with every node that has a self value (left or right) and its stack. The path array
 * is reused between calls: copy it to keep it.
 */
export function forEachStack(data: FlameData, visit: (s: Stack) => void): void {
  const path: number[] = [];
  const stack: Stack = { path, self: 0, selfRight: 0 };
  for (let i = 1; i < data.count; i++) {
    path.length = data.level[i] - 1;
    path.push(i);
    const self = data.self[i];
    const selfRight = data.selfRight ? data.selfRight[i] : 0;
    if (self === 0 && selfRight === 0) {
      continue;
    }
    stack.self = self;
    stack.selfRight = selfRight;
    visit(stack);
  }
}

/**
 * Rebuilds a flamegraph from its stacks, each turned into a new path of node indices of data by
 * reshape (undefined or an empty path drops the stack, with its value).
 */
export function rebuildStacks(data: FlameData, reshape: (path: number[]) => number[] | undefined): FlameData {
  const out = new PathTree(data.nameIdx[0]);
  forEachStack(data, ({ path, self, selfRight }) => {
    const shaped = reshape(path);
    if (!shaped || shaped.length === 0) {
      return;
    }
    // self is what the bar draws (both sides of a diff), as PathTree sums it
    let at = 0;
    out.add(at, self, selfRight);
    for (const n of shaped) {
      const virtual = data.virtual ? data.virtual[n] : 0;
      at = out.child(at, data.nameIdx[n], virtual, data.virtualLabelIdx ? data.virtualLabelIdx[n] : -1);
      out.add(at, self, selfRight);
    }
  });
  return out.toFlameData(data);
}
