// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { DataFrame } from '@grafana/data';
import { FlameData } from '../../../shared/flameData';

/** The name the backend (and Pyroscope) gives the node that stands for what a cut at maxNodes left out. */
export const OTHER_NAME = 'other';

/** Who picked a fetched call site's samples, as the frame's `meta.custom.callSite.selectedBy` says. */
export type SelectedBy = 'server' | 'datasource';

/** A call site asked of the backend: its subtree at full resolution, drawn against the whole graph. */
export interface FetchedFocus {
  /** The call path, frame names from the root's first child down (collapsed chains expanded). */
  path: string[];
  /** The answer, its root's total raised to the whole graph's (see againstWhole). */
  data: FlameData;
  selectedBy: SelectedBy;
  /** Whether the call site's own subtree was cut at maxNodes too. */
  cut: boolean;
}

/**
 * The call path of node: the names of its ancestors below the root and its own, as the query's
 * `callSite` takes them. Node 0 (the root) has the empty path.
 */
export function pathOf(data: FlameData, node: number): string[] {
  const path: string[] = [];
  if (node <= 0 || node >= data.count) {
    return path;
  }
  let want = data.level[node];
  for (let i = node; i > 0 && want > 0; i--) {
    if (data.level[i] === want) {
      path.push(data.names[data.nameIdx[i]]);
      want--;
    }
  }
  return path.reverse();
}

/** The node at the end of path (matched by name from the root down), or -1 when the graph has none. */
export function nodeAtPath(data: FlameData, path: string[]): number {
  let at = 0;
  for (let depth = 0; depth < path.length; depth++) {
    at = childNamed(data, at, path[depth]);
    if (at < 0) {
      return -1;
    }
  }
  return at;
}

function childNamed(data: FlameData, parent: number, name: string): number {
  const childLevel = data.level[parent] + 1;
  for (let i = parent + 1; i < data.count && data.level[i] >= childLevel; i++) {
    if (data.level[i] === childLevel && data.names[data.nameIdx[i]] === name) {
      return i;
    }
  }
  return -1;
}

/** Whether the subtree under node holds an `other` node, that is, lost detail to the cut at maxNodes. */
export function cutUnder(data: FlameData, node: number): boolean {
  if (node < 0 || node >= data.count) {
    return false;
  }
  const other = data.names.indexOf(OTHER_NAME);
  if (other < 0) {
    return false;
  }
  const l = data.level[node];
  for (let i = node + 1; i < data.count && data.level[i] > l; i++) {
    if (data.nameIdx[i] === other) {
      return true;
    }
  }
  return false;
}

/** Whether the frame's tree was cut at maxNodes, as the backend marks it (`meta.custom.truncated`). */
export function frameIsCut(frame: DataFrame): boolean {
  return (frame.meta?.custom as { truncated?: unknown } | undefined)?.truncated === true;
}

/**
 * How a focused frame was made (`meta.custom.callSite`, or for a diff's comparison side
 * `meta.custom.comparisonCallSite`), when it says.
 */
export function callSiteMeta(
  frame: DataFrame,
  key: 'callSite' | 'comparisonCallSite' = 'callSite'
): { selectedBy: SelectedBy; wholeTotal: number } | undefined {
  const custom = frame.meta?.custom as
    Record<string, { selectedBy?: unknown; wholeTotal?: unknown } | undefined> | undefined;
  const cs = custom?.[key];
  if (!cs || typeof cs.wholeTotal !== 'number') {
    return undefined;
  }
  return { selectedBy: cs.selectedBy === 'server' ? 'server' : 'datasource', wholeTotal: cs.wholeTotal };
}

/**
 * A call site's graph with its root's total raised to the whole graph's, the difference as the
 * root's self: every width and percentage is then of the whole, as in the graph it was zoomed
 * from. The top table leaves the root out, so it counts the call site's functions only. A diff's
 * comparison side is raised to its own whole (wholeRight); its bars hold both sides, as
 * FlameData's diff columns do (value = baseline + comparison).
 */
export function againstWhole(data: FlameData, wholeTotal: number, wholeRight?: number): FlameData {
  if (data.count === 0) {
    return data;
  }
  const oldRight = data.valueRight ? data.valueRight[0] : 0;
  const right = data.valueRight && wholeRight !== undefined ? Math.max(wholeRight, oldRight) : oldRight;
  const left = Math.max(wholeTotal, data.value[0] - oldRight);
  const root = left + right;
  if (root <= data.value[0]) {
    return data;
  }
  const value = Float64Array.from(data.value);
  const self = Float64Array.from(data.self);
  self[0] += root - data.value[0];
  value[0] = root;
  const out: FlameData = { ...data, value, self };
  if (data.valueRight && data.selfRight && right > oldRight) {
    const valueRight = Float64Array.from(data.valueRight);
    const selfRight = Float64Array.from(data.selfRight);
    selfRight[0] += right - oldRight;
    valueRight[0] = right;
    out.valueRight = valueRight;
    out.selfRight = selfRight;
  }
  // the root is no function: the per-name sums of self stay right, but are made anew to be safe
  return { ...out, selfByName: undefined };
}

/** Name index k of from as an index of to's names (-1 when to has no such name). */
export function sameName(k: number | undefined, from: FlameData, to: FlameData): number {
  if (k === undefined || k < 0 || from === to) {
    return k ?? -1;
  }
  return to.names.indexOf(from.names[k]);
}
