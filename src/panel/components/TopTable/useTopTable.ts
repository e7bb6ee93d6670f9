// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { FlameData } from '../../../shared/flameData';
import { FlameIndex } from '../../model/flameIndex';
import { SearchResult } from '../../model/search';
import { SortKey, sortRows, TopRow, TopTableBuild } from '../../model/topTable';
import { chunkStep, inIdleSteps } from '../../model/idle';
import { afterPaint } from '../../afterPaint';

export interface TopTableRows {
  /** Every function's row, once summed. */
  allRows?: TopRow[];
  /** All rows in the sort order. */
  sortedRows: TopRow[];
  /** The rows the search keeps, in the sort order. */
  rows: TopRow[];
  /** The search as the table has caught up with it. */
  tableSearch?: SearchResult;
}

/**
 * The top table's rows. They are summed only once the table is wanted, in idle slices after the
 * graph has painted (the graph takes inputs meanwhile); sorted once per sort order; and a search
 * filters the sorted rows in a deferred render, after the graph's marks are drawn.
 */
export function useTopTable(
  data: FlameData,
  index: FlameIndex,
  wanted: boolean,
  sort: { key: SortKey; desc: boolean },
  searchResult: SearchResult | undefined
): TopTableRows {
  const [table, setTable] = useState<{ index: FlameIndex; rows: TopRow[] } | undefined>();
  const allRows = table?.index === index ? table.rows : undefined;
  const build = wanted && !allRows;
  useEffect(() => {
    if (!build) {
      return;
    }
    let cancelIdle: (() => void) | undefined;
    const cancelPaint = afterPaint(() => {
      const b = new TopTableBuild(index);
      cancelIdle = inIdleSteps([chunkStep(() => b.chunk()), () => setTable({ index, rows: b.rows! })]);
    });
    return () => {
      cancelPaint();
      cancelIdle?.();
    };
  }, [build, index]);
  const rootRight = data.valueRight ? data.valueRight[0] : undefined;
  const sortedRows = useMemo(
    () => (allRows ? sortRows(allRows, sort.key, sort.desc, { total: data.value[0], right: rootRight ?? 0 }) : []),
    [allRows, sort, data, rootRight]
  );
  const tableSearch = useDeferredValue(searchResult);
  const rows = useMemo(
    () => (tableSearch ? sortedRows.filter((r) => tableSearch.nameMatch[r.nameIdx]) : sortedRows),
    [sortedRows, tableSearch]
  );
  return { allRows, sortedRows, rows, tableSearch };
}

/** The search's sandwich: the matching function with the largest total (-1 when none matches). */
export function searchBest(rows: TopRow[], nameMatch: Uint8Array): number {
  let best = -1;
  let bestTotal = -1;
  for (const r of rows) {
    if (nameMatch[r.nameIdx] && r.total > bestTotal) {
      best = r.nameIdx;
      bestTotal = r.total;
    }
  }
  return best;
}
