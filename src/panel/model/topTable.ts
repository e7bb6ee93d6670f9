// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameIndex } from './flameIndex';
import { runChunks } from './idle';
import { orderByKey } from './keyOrder';

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
 * The top table as columns: the functions that occur, and per name index their sums. Rows are
 * made as objects only for what is shown (TopRows), never 10^5 of them at once.
 */
export interface TopColumns {
  /** The names of the frame, by name index. */
  names: string[];
  /** The name indices of the functions that occur (the root and virtual frames left out), ascending: one row each. */
  present: Int32Array;
  /** Per name index. */
  self: Float64Array;
  total: Float64Array;
  selfRight?: Float64Array;
  totalRight?: Float64Array;
}

/** The row of name index k. */
export function rowOf(t: TopColumns, k: number): TopRow {
  const row: TopRow = { nameIdx: k, name: t.names[k], self: t.self[k], total: t.total[k] };
  if (t.selfRight && t.totalRight) {
    row.selfRight = t.selfRight[k];
    row.totalRight = t.totalRight[k];
  }
  return row;
}

/**
 * The top table of an index made in chunks: each `chunk()` sums a chunk of rows and says true
 * when the table is ready (`columns`). The panel sums it right after the graph's first paint;
 * topTable makes it at once.
 */
export class TopTableBuild {
  columns?: TopColumns;
  private at = 0;
  private depth = -1;
  private self: Float64Array;
  /** Whether self is the reader's sums (selfByName): the pass then sums totals only. */
  private readonly selfKnown: boolean;
  private readonly total: Float64Array;
  private readonly selfRight?: Float64Array;
  private readonly totalRight?: Float64Array;
  private readonly seen: Uint8Array;
  /** How many ancestors-or-self on the current path carry each name. */
  private readonly open: Int32Array;
  /** The names on the current path, by level. */
  private readonly stack: Int32Array;

  constructor(readonly index: FlameIndex) {
    const data = index.data;
    const names = data.names.length;
    // the reader's self per name, when it counts the same nodes (no virtual frame; the root is
    // taken out once summed); one random write less per node
    const bySelf = data.selfByName;
    this.selfKnown = bySelf !== undefined && bySelf.length === names && !data.virtual && !data.selfRight;
    this.self = this.selfKnown ? bySelf! : new Float64Array(names);
    this.total = new Float64Array(names);
    if (data.valueRight && data.selfRight) {
      this.selfRight = new Float64Array(names);
      this.totalRight = new Float64Array(names);
    }
    this.seen = new Uint8Array(names);
    this.open = new Int32Array(names);
    this.stack = new Int32Array(data.maxLevel + 2);
  }

  /** The table's rows, in the order the names are listed, once summed (objects: for tests and one-off reads). */
  get rows(): TopRow[] | undefined {
    const t = this.columns;
    return t && Array.from(t.present, (k) => rowOf(t, k));
  }

  /** Sums one chunk of rows; true once the table is ready. */
  chunk(): boolean {
    if (!this.columns) {
      this.sum(Math.min(this.index.data.count, this.at + CHUNK));
      if (this.at === this.index.data.count) {
        this.columns = this.collect();
      }
    }
    return this.columns !== undefined;
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
    const { self, total, selfRight, totalRight, seen, open, stack, selfKnown } = this;
    let depth = this.depth;
    for (let i = this.at; i < to; i++) {
      const l = level[i];
      while (depth >= l) {
        open[stack[depth]]--;
        depth--;
      }
      const k = nameIdx[i];
      if (i > 0 && !(virtual && virtual[i])) {
        seen[k] = 1;
        if (!selfKnown) {
          self[k] += dSelf[i];
        }
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
      stack[l] = k;
      depth = l;
    }
    this.depth = depth;
    this.at = to;
  }

  /** The table once every row is summed: the names that occur, ascending. */
  private collect(): TopColumns {
    const { seen, total, selfRight, totalRight } = this;
    const { nameIdx, self: dSelf } = this.index.data;
    if (this.selfKnown && seen[nameIdx[0]] && dSelf[0] !== 0) {
      // the root's name is a function's too: the root's own self taken out (the reader's sums left as they are)
      this.self = Float64Array.from(this.self);
      this.self[nameIdx[0]] -= dSelf[0];
    }
    const self = this.self;
    let n = 0;
    for (let k = 0; k < seen.length; k++) {
      n += seen[k];
    }
    const present = new Int32Array(n);
    for (let k = 0, at = 0; k < seen.length; k++) {
      if (seen[k]) {
        present[at++] = k;
      }
    }
    return { names: this.index.data.names, present, self, total, selfRight, totalRight };
  }
}

/** Sums self and total per name over every node, at once (see TopTableBuild). */
export function topColumns(index: FlameIndex): TopColumns {
  const b = new TopTableBuild(index);
  runChunks(() => b.chunk());
  return b.columns!;
}

/**
 * Sums self and total per name over every node, at once (see TopTableBuild): one row per name
 * that occurs, in the order the names are listed.
 */
export function topTable(index: FlameIndex): TopRow[] {
  const t = topColumns(index);
  return Array.from(t.present, (k) => rowOf(t, k));
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

/**
 * The name indices of a table's rows in the order of key (see sortRows), from ids (the rows
 * shown, ascending name indices).
 */
export function tableOrder(
  t: TopColumns,
  key: SortKey,
  descending: boolean,
  roots: { total: number; right: number } = { total: 0, right: 0 },
  ids: Int32Array = t.present
): Int32Array {
  if (key === 'name') {
    const dir = descending ? -1 : 1;
    const names = Array.from(ids, (k) => t.names[k]);
    // places in ids, equal names kept in their order; plain code-unit order: localeCompare is far
    // too slow for 100k+ symbols
    const at = Int32Array.from(names.keys());
    at.sort((a, b) => dir * (names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0) || a - b);
    return at.map((i) => ids[i]);
  }
  if (key === 'self' || key === 'total') {
    return orderByKey(t[key], ids, descending);
  }
  const keys = new Float64Array(t.names.length);
  for (let i = 0; i < ids.length; i++) {
    const k = ids[i];
    const v = diffColumns(t.total[k], t.totalRight ? t.totalRight[k] : 0, roots.total, roots.right)[key];
    keys[k] = v === Infinity ? Number.MAX_VALUE : v;
  }
  return orderByKey(keys, ids, descending);
}

/**
 * Sorts rows (a new array) by key; equal numbers keep the order in which the names first appear
 * in the frame (their name index), equal names too.
 */
export function sortRows(
  rows: TopRow[],
  key: SortKey,
  descending: boolean,
  roots: { total: number; right: number } = { total: 0, right: 0 }
): TopRow[] {
  // the rows as a table of their own, by their place in rows
  const n = rows.length;
  const t: TopColumns = {
    names: rows.map((r) => r.name),
    present: Int32Array.from(rows.keys()).sort((a, b) => rows[a].nameIdx - rows[b].nameIdx),
    self: Float64Array.from(rows, (r) => r.self),
    total: Float64Array.from(rows, (r) => r.total),
    totalRight: Float64Array.from(rows, (r) => r.totalRight ?? 0),
  };
  const order = tableOrder(t, key, descending, roots);
  const out = new Array<TopRow>(n);
  for (let i = 0; i < n; i++) {
    out[i] = rows[order[i]];
  }
  return out;
}
