// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameData, flameDataLike } from '../../shared/flameData';

/**
 * A prefix tree of name paths, summed, that becomes a FlameData (nested set, depth-first,
 * children in order of first appearance). Used to merge the call sites of one function into
 * one callers tree and one callees tree (the sandwich view).
 */
export class PathTree {
  readonly parent: number[] = [-1];
  readonly nameIdx: number[];
  readonly value: number[] = [0];
  readonly valueRight: number[] = [0];
  readonly virtual: number[] = [0];
  readonly virtualLabel: number[] = [-1];
  private readonly children: Array<Map<number, number>> = [new Map()];

  constructor(rootName: number) {
    this.nameIdx = [rootName];
  }

  /** The child of node p named k (virtual frames are told apart from code of the same name), made when missing. */
  child(p: number, k: number, virtual = 0, virtualLabel = -1): number {
    const key = virtual ? -2 - k : k;
    const m = this.children[p];
    let c = m.get(key);
    if (c === undefined) {
      c = this.parent.length;
      this.parent.push(p);
      this.nameIdx.push(k);
      this.value.push(0);
      this.valueRight.push(0);
      this.virtual.push(virtual);
      this.virtualLabel.push(virtualLabel);
      this.children.push(new Map());
      m.set(key, c);
    }
    return c;
  }

  add(node: number, v: number, vr: number): void {
    this.value[node] += v;
    this.valueRight[node] += vr;
  }

  /** The tree as a FlameData over names (self = total minus the children's totals). */
  toFlameData(like: FlameData): FlameData {
    const n = this.parent.length;
    const level = new Int32Array(n);
    const value = new Float64Array(n);
    const self = new Float64Array(n);
    const nameIdx = new Int32Array(n);
    const diff = like.valueRight !== undefined;
    const valueRight = diff ? new Float64Array(n) : undefined;
    const selfRight = diff ? new Float64Array(n) : undefined;
    const anyVirtual = this.virtual.some((v) => v === 1);
    const virtual = anyVirtual ? new Uint8Array(n) : undefined;
    const virtualLabelIdx = anyVirtual ? new Int32Array(n) : undefined;
    let maxLevel = 0;
    let row = 0;
    // iterative depth-first walk, children in insertion order
    const stack: Array<[number, number]> = [[0, 0]];
    while (stack.length) {
      const [t, l] = stack.pop()!;
      level[row] = l;
      value[row] = this.value[t];
      nameIdx[row] = this.nameIdx[t];
      let childSum = 0;
      let childSumRight = 0;
      const kids = [...this.children[t].values()];
      for (const c of kids) {
        childSum += this.value[c];
        childSumRight += this.valueRight[c];
      }
      self[row] = Math.max(0, this.value[t] - childSum);
      if (valueRight && selfRight) {
        valueRight[row] = this.valueRight[t];
        selfRight[row] = Math.max(0, this.valueRight[t] - childSumRight);
      }
      if (virtual && virtualLabelIdx) {
        virtual[row] = this.virtual[t];
        virtualLabelIdx[row] = this.virtualLabel[t];
      }
      maxLevel = Math.max(maxLevel, l);
      row++;
      for (let k = kids.length - 1; k >= 0; k--) {
        stack.push([kids[k], l + 1]);
      }
    }
    return flameDataLike(like, {
      count: n,
      level,
      value,
      self,
      nameIdx,
      maxLevel,
      valueRight,
      selfRight,
      virtual,
      virtualLabelIdx,
    });
  }
}
