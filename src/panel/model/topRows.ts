// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { rowOf, TopColumns, TopRow } from './topTable';

/** What the top table reads of its rows: an array of rows, or a TopRows. */
export interface RowSource {
  readonly length: number;
  /** The rows from start to end-1, as objects. */
  slice(start: number, end: number): TopRow[];
  /** The place of the first row p accepts, -1 when none. */
  findIndex(p: (row: TopRow) => boolean): number;
}

/**
 * A table's rows in an order (name indices), made as row objects only when read: the top table
 * shows a few dozen of 10^5 functions, and those are the only ones it makes.
 */
export class TopRows implements RowSource {
  constructor(
    readonly table: TopColumns,
    readonly order: Int32Array
  ) {}

  get length(): number {
    return this.order.length;
  }

  slice(start: number, end: number): TopRow[] {
    const out: TopRow[] = [];
    for (let i = Math.max(0, start); i < Math.min(end, this.order.length); i++) {
      out.push(rowOf(this.table, this.order[i]));
    }
    return out;
  }

  findIndex(p: (row: TopRow) => boolean): number {
    for (let i = 0; i < this.order.length; i++) {
      if (p(rowOf(this.table, this.order[i]))) {
        return i;
      }
    }
    return -1;
  }

  /** The rows of the names match marks, in this order. */
  filter(match: Uint8Array): TopRows {
    return new TopRows(
      this.table,
      this.order.filter((k) => match[k] !== 0)
    );
  }
}

/** The function with the largest key (self or total) among those match marks (all, without match); -1 when none. */
export function bestBy(t: TopColumns, key: 'self' | 'total', match?: Uint8Array): number {
  const v = t[key];
  let best = -1;
  for (let i = 0; i < t.present.length; i++) {
    const k = t.present[i];
    if ((!match || match[k]) && (best < 0 || v[k] > v[best])) {
      best = k;
    }
  }
  return best;
}
