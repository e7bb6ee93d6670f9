// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameIndex } from './flameIndex';
import { runChunks } from './idle';

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

/** Rows summed per chunk of a resumable top table: about 1–2 ms of work. */
const CHUNK = 16384;

/**
 * The top table of an index made in chunks: each `chunk()` sums a chunk of rows and says true
 * when the rows are ready (`rows`). The panel runs them in idle slices after the first paint
 * (runChunks), so the graph takes an input while 500k rows are summed; topTable makes it at once.
 */
export class TopTableBuild {
  rows?: TopRow[];
  private at = 0;
  private depth = -1;
  private k = 0;
  private readonly self: Float64Array;
  private readonly total: Float64Array;
  private readonly selfRight?: Float64Array;
  private readonly totalRight?: Float64Array;
  private readonly seen: Uint8Array;
  /** How many ancestors-or-self on the current path carry each name. */
  private readonly open: Int32Array;
  private readonly stack: Int32Array;
  private readonly out: TopRow[] = [];

  constructor(readonly index: FlameIndex) {
    const data = index.data;
    const names = data.names.length;
    this.self = new Float64Array(names);
    this.total = new Float64Array(names);
    if (data.valueRight && data.selfRight) {
      this.selfRight = new Float64Array(names);
      this.totalRight = new Float64Array(names);
    }
    this.seen = new Uint8Array(names);
    this.open = new Int32Array(names);
    this.stack = new Int32Array(data.maxLevel + 2);
  }

  /** Sums one chunk of rows, or once all are summed makes one chunk of the rows; true once the rows are ready. */
  chunk(): boolean {
    if (!this.rows) {
      if (this.at < this.index.data.count) {
        this.sum(Math.min(this.index.data.count, this.at + CHUNK));
      } else {
        this.collect(Math.min(this.index.data.names.length, this.k + CHUNK));
      }
    }
    return this.rows !== undefined;
  }

  /**
   * Sums rows at..to-1 into their names. Total counts recursion once: a node adds its total only
   * when none of its ancestors has the same name. The root and virtual frames (label values, not
   * code) are left out.
   */
  private sum(to: number) {
    const { level, nameIdx, virtual, value, valueRight } = this.index.data;
    const dSelf = this.index.data.self;
    const dSelfRight = this.index.data.selfRight;
    const { self, total, selfRight, totalRight, seen, open, stack } = this;
    let depth = this.depth;
    for (let i = this.at; i < to; i++) {
      const l = level[i];
      while (depth >= l) {
        open[nameIdx[stack[depth]]]--;
        depth--;
      }
      const k = nameIdx[i];
      if (i > 0 && !(virtual && virtual[i])) {
        seen[k] = 1;
        self[k] += dSelf[i];
        if (selfRight && dSelfRight) {
          selfRight[k] += dSelfRight[i];
        }
        if (open[k] === 0) {
          total[k] += value[i];
          if (totalRight && valueRight) {
            totalRight[k] += valueRight[i];
          }
        }
      }
      open[k]++;
      stack[l] = i;
      depth = l;
    }
    this.depth = depth;
    this.at = to;
  }

  /** Makes the rows of names k..to-1 that occur; the rows are ready after the last name. */
  private collect(to: number) {
    const names = this.index.data.names;
    const { self, total, selfRight, totalRight, seen, out } = this;
    for (let k = this.k; k < to; k++) {
      if (seen[k]) {
        const row: TopRow = { nameIdx: k, name: names[k], self: self[k], total: total[k] };
        if (selfRight && totalRight) {
          row.selfRight = selfRight[k];
          row.totalRight = totalRight[k];
        }
        out.push(row);
      }
    }
    this.k = to;
    if (to === names.length) {
      this.rows = out;
    }
  }
}

/**
 * Sums self and total per name over every node, at once (see TopTableBuild): one row per name
 * that occurs, in the order the names are listed.
 */
export function topTable(index: FlameIndex): TopRow[] {
  const b = new TopTableBuild(index);
  runChunks(() => b.chunk());
  return b.rows!;
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
