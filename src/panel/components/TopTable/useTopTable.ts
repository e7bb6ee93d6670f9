// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { flushSync } from 'react-dom';
import { FlameData } from '../../../shared/flameData';
import { FlameIndex } from '../../model/flameIndex';
import { SearchResult } from '../../model/search';
import { SortKey, tableOrder, TopColumns, topColumns } from '../../model/topTable';
import { bestBy, TopRows } from '../../model/topRows';
import { afterPaint } from '../../afterPaint';

export interface TopTableRows {
  /** Every function's sums, once summed. */
  table?: TopColumns;
  /** All rows in the sort order. */
  sortedRows: TopRows | undefined;
  /** The rows the search keeps, in the sort order (none until summed). */
  rows: TopRows | undefined;
  /** The search as the table has caught up with it. */
  tableSearch?: SearchResult;
}

/**
 * The top table's rows. They are summed once the table is wanted, in the task right after the
 * graph's first paint, and shown in that task's render, so that the table is painted in the frame
 * after the graph's: a pass over the frame's typed arrays and a radix sort of the functions by
 * their sums (TopColumns, tableOrder), row objects made only for the rows in view. Sorted once per
 * sort order; a search filters the sorted rows in a deferred render, after the graph's marks are
 * drawn.
 */
export function useTopTable(
  data: FlameData,
  index: FlameIndex,
  wanted: boolean,
  sort: { key: SortKey; desc: boolean },
  searchResult: SearchResult | undefined
): TopTableRows {
  const [summed, setSummed] = useState<{ index: FlameIndex; table: TopColumns } | undefined>();
  const table = summed?.index === index ? summed.table : undefined;
  const build = wanted && !table;
  useEffect(() => {
    if (!build) {
      return;
    }
    return afterPaint(() => {
      const t = topColumns(index);
      // rendered now, in this task: a render scheduled for later may come after the next frame,
      // behind other work queued since the paint
      flushSync(() => setSummed({ index, table: t }));
    });
  }, [build, index]);
  const rootRight = data.valueRight ? data.valueRight[0] : undefined;
  const sortedRows = useMemo(
    () =>
      table &&
      new TopRows(table, tableOrder(table, sort.key, sort.desc, { total: data.value[0], right: rootRight ?? 0 })),
    [table, sort, data, rootRight]
  );
  const tableSearch = useDeferredValue(searchResult);
  const rows = useMemo(
    () => (sortedRows && tableSearch ? sortedRows.filter(tableSearch.nameMatch) : sortedRows),
    [sortedRows, tableSearch]
  );
  return { table, sortedRows, rows, tableSearch };
}

/** The search's sandwich: the matching function with the largest total (-1 when none matches). */
export function searchBest(table: TopColumns, nameMatch: Uint8Array): number {
  return bestBy(table, 'total', nameMatch);
}
