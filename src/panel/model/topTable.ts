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
      if (open[k] === 0) {
        total[k] += data.value[i];
      }
    }
    open[k]++;
    stack[l] = i;
    depth = l;
  }
  const rows: TopRow[] = [];
  for (let k = 0; k < data.names.length; k++) {
    if (seen[k]) {
      rows.push({ nameIdx: k, name: data.names[k], self: self[k], total: total[k] });
    }
  }
  return rows;
}

export type SortKey = 'name' | 'self' | 'total';

/** Sorts rows (a new array) by key; equal numbers keep the order in which the names first appear in the frame. */
export function sortRows(rows: TopRow[], key: SortKey, descending: boolean): TopRow[] {
  const dir = descending ? -1 : 1;
  const out = rows.slice();
  // plain code-unit order: localeCompare is far too slow for 100k+ symbols
  const byName = (a: TopRow, b: TopRow) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  if (key === 'name') {
    out.sort((a, b) => dir * byName(a, b));
  } else {
    // ties keep frame order (depth-first, children by name): stable and far cheaper than comparing names
    out.sort((a, b) => dir * (a[key] - b[key]) || a.nameIdx - b.nameIdx);
  }
  return out;
}
