// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useEffect, useRef, useState } from 'react';
import { css, cx } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2, useTheme2 } from '@grafana/ui';
import { formatPercent, formatValue } from '../../model/format';
import { diffColumns, formatDiff, SortKey, TopRow } from '../../model/topTable';
import { diffColor } from '../../model/colors';
import { fitName } from '../../model/shortName';
import { monoCharWidth } from '../../render/textMetrics';
import { TextAlign } from '../../types';
import { SourceRowAction, useSourceOpener } from '../Source';

export interface TopTableProps {
  rows: TopRow[];
  /**
   * No rows summed yet since the panel mounted: the table's box alone (its column headers come
   * with the first rows, after the graph's first paint; a refresh keeps them)
   */
  pending?: boolean;
  unit?: string;
  rootTotal: number;
  width: number;
  height: number;
  sortKey: SortKey;
  descending: boolean;
  onSort: (key: SortKey) => void;
  highlighted: number;
  onSelect: (nameIdx: number) => void;
  /** Diff frames: the comparison's root total; the table then shows baseline, comparison and diff %. */
  rootRight?: number;
  colorBlind?: boolean;
  /** Opens the sandwich view of a symbol (a button on each row). */
  onSandwich?: (nameIdx: number) => void;
}

const ROW = 24;
const HEADER = 28;
const CELL_PADDING = 6;
/** Font size of the table, and of the symbol column's monospace font. */
const FONT_SIZE = 12;

/** The font of the symbol column, as CSS and the canvas measure it. */
function nameFont(theme: GrafanaTheme2): string {
  return `${FONT_SIZE}px ${theme.typography.fontFamilyMonospace}`;
}

const getStyles = (theme: GrafanaTheme2) => ({
  table: css({ fontSize: FONT_SIZE, display: 'flex', flexDirection: 'column', color: theme.colors.text.primary }),
  headerRow: css({
    display: 'flex',
    height: HEADER,
    alignItems: 'center',
    borderBottom: `1px solid ${theme.colors.border.weak}`,
    flex: 'none',
  }),
  columnHeader: css({
    cursor: 'pointer',
    padding: `0 ${CELL_PADDING}px`,
    boxSizing: 'border-box',
    fontWeight: theme.typography.fontWeightMedium,
    userSelect: 'none',
    '&:hover': { background: theme.colors.action.hover },
  }),
  body: css({ overflowY: 'auto', overflowX: 'hidden' }),
  row: css({
    position: 'absolute',
    height: ROW,
    width: '100%',
    display: 'flex',
    alignItems: 'center',
    cursor: 'pointer',
    '&:hover': { background: theme.colors.action.hover },
  }),
  action: css({
    background: 'none',
    border: 'none',
    color: theme.colors.text.secondary,
    cursor: 'pointer',
    padding: 0,
    '&:hover': { color: theme.colors.text.primary },
  }),
  stripe: css({ background: theme.colors.background.secondary }),
  selected: css({ background: theme.colors.action.selected, '&:hover': { background: theme.colors.action.selected } }),
  nameCell: css({
    padding: `0 ${CELL_PADDING}px`,
    boxSizing: 'border-box',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    font: nameFont(theme),
  }),
  valueCell: css({
    padding: `0 ${CELL_PADDING}px`,
    boxSizing: 'border-box',
    textAlign: 'right',
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
  }),
});

/** A right-aligned value cell; its title is the value's share of the root. */
function ValueCell(props: { className: string; width: number; value: number; rootTotal: number; unit?: string }) {
  const { className, width, value, rootTotal, unit } = props;
  return (
    <div role="cell" className={className} style={{ width }} title={formatPercent(value / (rootTotal || 1))}>
      {formatValue(value, unit)}
    </div>
  );
}

/** Baseline %, comparison % and diff % cells of a diff row, as Grafana's top table shows them. */
export function DiffCells(props: {
  className: string;
  width: number;
  total: number;
  totalRight: number;
  rootTotal: number;
  rootRight: number;
  colorBlind: boolean;
}) {
  const { className, width, total, totalRight, rootTotal, rootRight, colorBlind } = props;
  const c = diffColumns(total, totalRight, rootTotal, rootRight);
  const change = c.diff === Infinity ? 1 : Math.max(-1, Math.min(1, c.diff / 100));
  return (
    <>
      <div role="cell" className={className} style={{ width }} data-testid="cell-baseline">
        {c.baseline.toFixed(2)}%
      </div>
      <div role="cell" className={className} style={{ width }} data-testid="cell-comparison">
        {c.comparison.toFixed(2)}%
      </div>
      <div
        role="cell"
        className={className}
        style={{ width, color: change === 0 ? undefined : diffColor(change, colorBlind), fontWeight: 500 }}
        data-testid="cell-diff"
      >
        {formatDiff(c.diff)}
      </div>
    </>
  );
}

/**
 * The top table: symbol, self and total per function, sortable by any column. Rows are
 * windowed (only the visible ones are in the DOM), so 100k symbols stay fast. Colours and
 * fonts come from the Grafana theme.
 */
export const TopTable = React.memo(function TopTable(props: TopTableProps) {
  const { rows, width, height, sortKey, descending, onSort, highlighted, onSelect, unit, rootTotal } = props;
  const { rootRight, onSandwich, colorBlind = false } = props;
  const diff = rootRight !== undefined;
  const source = useSourceOpener();
  const actionW = (onSandwich ? 26 : 0) + (source ? 26 : 0);
  const theme = useTheme2();
  const styles = useStyles2(getStyles);
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const bodyHeight = Math.max(0, height - HEADER);
  const first = Math.max(0, Math.floor(scrollTop / ROW) - 5);
  const last = Math.min(rows.length, Math.ceil((scrollTop + bodyHeight) / ROW) + 5);
  const numCols = diff ? 3 : 2;
  const numW = diff
    ? Math.max(72, Math.min(110, Math.floor(width * 0.16)))
    : Math.max(84, Math.min(150, Math.floor(width * 0.22)));
  const nameW = Math.max(40, width - numCols * numW - actionW - 2);
  // long names are shortened from the left (module path, package) so the function stays visible
  const nameChars = Math.floor((nameW - 2 * CELL_PADDING) / monoCharWidth(nameFont(theme)));

  // bring the highlighted symbol into view
  useEffect(() => {
    const el = scroller.current;
    if (!el || highlighted < 0) {
      return;
    }
    const at = rows.findIndex((r) => r.nameIdx === highlighted);
    if (at >= 0 && (at * ROW < el.scrollTop || (at + 1) * ROW > el.scrollTop + el.clientHeight)) {
      el.scrollTop = Math.max(0, at * ROW - el.clientHeight / 2);
    }
  }, [highlighted, rows]);

  const header = (key: SortKey, label: string, w: number, align: TextAlign) => (
    <div
      role="columnheader"
      aria-sort={sortKey === key ? (descending ? 'descending' : 'ascending') : 'none'}
      tabIndex={0}
      onClick={() => onSort(key)}
      onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && onSort(key)}
      className={styles.columnHeader}
      style={{ width: w, textAlign: align }}
    >
      {label}
      {sortKey === key ? (descending ? ' ▼' : ' ▲') : ''}
    </div>
  );
  const box = {
    role: 'table',
    'aria-label': 'Top table',
    'data-testid': 'top-table',
    className: styles.table,
    style: { width, height },
  };
  if (props.pending) {
    return <div {...box} aria-busy="true" />;
  }
  return (
    <div {...box}>
      <div role="row" className={styles.headerRow}>
        {header('name', 'Symbol', nameW, 'left')}
        {diff ? (
          <>
            {header('baseline', 'Baseline', numW, 'right')}
            {header('comparison', 'Comparison', numW, 'right')}
            {header('diff', 'Diff', numW, 'right')}
          </>
        ) : (
          <>
            {header('self', 'Self', numW, 'right')}
            {header('total', 'Total', numW, 'right')}
          </>
        )}
        {actionW > 0 && <div style={{ width: actionW, flex: 'none' }} />}
      </div>
      <div
        ref={scroller}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        className={styles.body}
        style={{ height: bodyHeight }}
      >
        <div role="rowgroup" style={{ height: rows.length * ROW, position: 'relative' }}>
          {rows.slice(first, last).map((r, k) => {
            const i = first + k;
            const on = r.nameIdx === highlighted;
            return (
              <div
                role="row"
                key={r.nameIdx}
                aria-selected={on}
                data-testid="top-table-row"
                onClick={() => onSelect(r.nameIdx)}
                title={r.name}
                className={cx(styles.row, on ? styles.selected : i % 2 ? styles.stripe : undefined)}
                style={{ top: i * ROW }}
              >
                <div role="cell" className={styles.nameCell} style={{ width: nameW }}>
                  {fitName(r.name, nameChars)}
                </div>
                {diff ? (
                  <DiffCells
                    className={styles.valueCell}
                    width={numW}
                    total={r.total}
                    totalRight={r.totalRight ?? 0}
                    rootTotal={rootTotal}
                    rootRight={rootRight}
                    colorBlind={colorBlind}
                  />
                ) : (
                  <>
                    <ValueCell
                      className={styles.valueCell}
                      width={numW}
                      value={r.self}
                      rootTotal={rootTotal}
                      unit={unit}
                    />
                    <ValueCell
                      className={styles.valueCell}
                      width={numW}
                      value={r.total}
                      rootTotal={rootTotal}
                      unit={unit}
                    />
                  </>
                )}
                {actionW > 0 && (
                  <div role="cell" style={{ width: actionW, flex: 'none', textAlign: 'center' }}>
                    {onSandwich && (
                      <button
                        type="button"
                        className={styles.action}
                        aria-label={`Sandwich view of ${r.name}`}
                        title="Sandwich view: callers and callees"
                        data-testid="top-table-sandwich"
                        onClick={(e) => {
                          e.stopPropagation();
                          onSandwich(r.nameIdx);
                        }}
                      >
                        ⧗
                      </button>
                    )}
                    {source && <SourceRowAction className={styles.action} name={r.name} open={source.open} />}
                  </div>
                )}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
});
