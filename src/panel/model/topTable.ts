// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameIndex } from './flameIndex';

/** One row of the top table: a symbol with its summed self and total. */
export interface TopRow {
  nameIdx: number;
  name: string;
  self: number;
  /** Sum of totals, where a frame inside a frame of the same name (recursion) is counted once. */
  total: number;
  /** Diff frames: the comparison's self and total (recursion counted once); the baseline is self/total minus these. */
  selfRight?: number;
  totalRight?: number;
}

/**
 * Sums self and total per name over every node. Total counts recursion once: a node adds its
 * total only when none of its ancestors has the same name. The root and virtual frames
 * (label values, not code) are left out.
 */
export function topTable(index: FlameIndex): TopRow[] {
  const data = index.data;
  const n = data.count;
  const self = new Float64Array(data.names.length);
  const total = new Float64Array(data.names.length);
  const right = data.valueRight;
  const selfRightSrc = data.selfRight;
  const selfRight = right ? new Float64Array(data.names.length) : undefined;
  const totalRight = right ? new Float64Array(data.names.length) : undefined;
  const seen = new Uint8Array(data.names.length);
  const open = new Int32Array(data.names.length); // how many ancestors-or-self on the current path carry the name
  const stack = new Int32Array(data.maxLevel + 2);
  let depth = -1;
  for (let i = 0; i < n; i++) {
    const l = data.level[i];
    while (depth >= l) {
      open[data.nameIdx[stack[depth]]]--;
      depth--;
    }
    const k = data.nameIdx[i];
    if (i > 0 && !(data.virtual && data.virtual[i])) {
      seen[k] = 1;
      self[k] += data.self[i];
      if (selfRight && selfRightSrc) {
        selfRight[k] += selfRightSrc[i];
      }
      if (open[k] === 0) {
        total[k] += data.value[i];
        if (totalRight && right) {
          totalRight[k] += right[i];
        }
      }
    }
    open[k]++;
    stack[l] = i;
    depth = l;
  }
  const rows: TopRow[] = [];
  for (let k = 0; k < data.names.length; k++) {
    if (seen[k]) {
      const row: TopRow = { nameIdx: k, name: data.names[k], self: self[k], total: total[k] };
      if (selfRight && totalRight) {
        row.selfRight = selfRight[k];
        row.totalRight = totalRight[k];
      }
      rows.push(row);
    }
  }
  return rows;
}

export type SortKey = 'name' | 'self' | 'total' | 'baseline' | 'comparison' | 'diff';

/**
 * A diff row's columns as Grafana's top table shows them: the function's total as a share (%) of
 * the baseline's and of the comparison's whole profile, and the change of that share in %
 * (Infinity for a function new in the comparison).
 */
export function diffColumns(
  total: number,
  totalRight: number,
  rootTotal: number,
  rootRight: number
): { baseline: number; comparison: number; diff: number } {
  const left = total - totalRight;
  const rootLeft = rootTotal - rootRight;
  const baseline = rootLeft > 0 ? (100 * left) / rootLeft : 0;
  const comparison = rootRight > 0 ? (100 * totalRight) / rootRight : 0;
  const diff = baseline > 0 ? ((comparison - baseline) / baseline) * 100 : comparison > 0 ? Infinity : 0;
  return { baseline, comparison, diff };
}

/** The text of a diff % cell: `+12.3%`, `-100.0%`, `new`. */
export function formatDiff(diff: number): string {
  if (diff === Infinity) {
    return 'new';
  }
  return `${diff >= 0 ? '+' : ''}${diff.toFixed(1)}%`;
}

/** Sorts rows (a new array) by key; equal numbers keep the order in which the names first appear in the frame. */
export function sortRows(
  rows: TopRow[],
  key: SortKey,
  descending: boolean,
  roots: { total: number; right: number } = { total: 0, right: 0 }
): TopRow[] {
  const dir = descending ? -1 : 1;
  const out = rows.slice();
  // plain code-unit order: localeCompare is far too slow for 100k+ symbols
  const byName = (a: TopRow, b: TopRow) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  if (key === 'name') {
    out.sort((a, b) => dir * byName(a, b));
  } else if (key === 'baseline' || key === 'comparison' || key === 'diff') {
    const vals = new Map<TopRow, number>();
    for (const r of rows) {
      const c = diffColumns(r.total, r.totalRight ?? 0, roots.total, roots.right);
      vals.set(r, c[key]);
    }
    const num = (r: TopRow) => {
      const v = vals.get(r) ?? 0;
      return v === Infinity ? Number.MAX_VALUE : v;
    };
    out.sort((a, b) => dir * (num(a) - num(b)) || a.nameIdx - b.nameIdx);
  } else {
    // ties keep frame order (depth-first, children by name): stable and far cheaper than comparing names
    out.sort((a, b) => dir * (a[key] - b[key]) || a.nameIdx - b.nameIdx);
  }
  return out;
}
