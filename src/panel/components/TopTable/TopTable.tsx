// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useEffect, useRef, useState } from 'react';
import { css, cx } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2, useTheme2 } from '@grafana/ui';
import { formatPercent, formatValue } from '../../model/format';
import { diffColumns, formatDiff, SortKey } from '../../model/topTable';
import { RowSource } from '../../model/topRows';
import { diffColor } from '../../model/colors';
import { fitName } from '../../model/shortName';
import { monoCharWidth } from '../../render/textMetrics';
import { useSizeClass } from '../sizeStyles';
import { SourceRowAction, useSourceOpener } from '../Source';

export interface TopTableProps {
  /** The rows in their order: an array, or a TopRows that makes the rows in view only. */
  rows: RowSource;
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
  rows: css({ position: 'relative' }),
  nameHeader: css({ width: `var(${NAME_W})`, textAlign: 'left' }),
  numHeader: css({ width: `var(${NUM_W})`, textAlign: 'right' }),
  actionCell: css({ width: `var(${ACTION_W})`, flex: 'none', textAlign: 'center' }),
  diffCell: css({ fontWeight: 500 }),
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
    width: `var(${NAME_W})`,
    padding: `0 ${CELL_PADDING}px`,
    boxSizing: 'border-box',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    font: nameFont(theme),
  }),
  valueCell: css({
    width: `var(${NUM_W})`,
    padding: `0 ${CELL_PADDING}px`,
    boxSizing: 'border-box',
    textAlign: 'right',
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
  }),
});

/** The CSS variables of a table's column widths (set once on the table, read by its cells' classes). */
export const NAME_W = '--emberscope-name-w';
export const NUM_W = '--emberscope-num-w';
const ACTION_W = '--emberscope-action-w';

const getBoxStyles = (
  _theme: GrafanaTheme2,
  width: number,
  height: number,
  nameW: number,
  numW: number,
  actionW: number
) => css({ width, height, [NAME_W]: `${nameW}px`, [NUM_W]: `${numW}px`, [ACTION_W]: `${actionW}px` });

/**
 * A table's box: the panel's size, and its column widths (they follow the panel's width) as the
 * CSS variables its cells' classes read. One class per size, remade only when it changes.
 */
export function useTableBoxClass(width: number, height: number, nameW: number, numW: number, actionW = 0): string {
  return useStyles2(getBoxStyles, width, height, nameW, numW, actionW);
}

/**
 * A virtualised row's place in its scrolled group. A class per row position (emotion keeps one
 * per distinct value, made as rows first come into view): the position is the row's own number,
 * not a size the whole table shares.
 */
export const rowAt = (top: number) => css({ top });

/** A right-aligned value cell; its title is the value's share of the root. */
function ValueCell(props: { className: string; value: number; rootTotal: number; unit?: string }) {
  const { className, value, rootTotal, unit } = props;
  return (
    <div role="cell" className={className} title={formatPercent(value / (rootTotal || 1))}>
      {formatValue(value, unit)}
    </div>
  );
}

/** Baseline %, comparison % and diff % cells of a diff row, as Grafana's top table shows them. */
export function DiffCells(props: {
  className: string;
  total: number;
  totalRight: number;
  rootTotal: number;
  rootRight: number;
  colorBlind: boolean;
}) {
  const { className, total, totalRight, rootTotal, rootRight, colorBlind } = props;
  const styles = useStyles2(getStyles);
  const c = diffColumns(total, totalRight, rootTotal, rootRight);
  const change = c.diff === Infinity ? 1 : Math.max(-1, Math.min(1, c.diff / 100));
  return (
    <>
      <div role="cell" className={className} data-testid="cell-baseline">
        {c.baseline.toFixed(2)}%
      </div>
      <div role="cell" className={className} data-testid="cell-comparison">
        {c.comparison.toFixed(2)}%
      </div>
      <div
        role="cell"
        // the row's own change: one class per colour shown (emotion keeps them)
        className={cx(className, styles.diffCell, change !== 0 && css({ color: diffColor(change, colorBlind) }))}
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

  const boxClass = useTableBoxClass(width, height, nameW, numW, actionW);
  const bodyClass = useSizeClass(undefined, bodyHeight);
  const rowsClass = useSizeClass(undefined, rows.length * ROW);
  const header = (key: SortKey, label: string) => (
    <div
      role="columnheader"
      aria-sort={sortKey === key ? (descending ? 'descending' : 'ascending') : 'none'}
      tabIndex={0}
      onClick={() => onSort(key)}
      onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && onSort(key)}
      className={cx(styles.columnHeader, key === 'name' ? styles.nameHeader : styles.numHeader)}
    >
      {label}
      {sortKey === key ? (descending ? ' ▼' : ' ▲') : ''}
    </div>
  );
  const box = {
    role: 'table',
    'aria-label': 'Top table',
    'data-testid': 'top-table',
    className: cx(styles.table, boxClass),
  };
  if (props.pending) {
    return <div {...box} aria-busy="true" />;
  }
  return (
    <div {...box}>
      <div role="row" className={styles.headerRow}>
        {header('name', 'Symbol')}
        {diff ? (
          <>
            {header('baseline', 'Baseline')}
            {header('comparison', 'Comparison')}
            {header('diff', 'Diff')}
          </>
        ) : (
          <>
            {header('self', 'Self')}
            {header('total', 'Total')}
          </>
        )}
        {actionW > 0 && <div className={styles.actionCell} />}
      </div>
      <div
        ref={scroller}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        className={cx(styles.body, bodyClass)}
      >
        <div role="rowgroup" className={cx(styles.rows, rowsClass)}>
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
                className={cx(styles.row, on ? styles.selected : i % 2 ? styles.stripe : undefined, rowAt(i * ROW))}
              >
                <div role="cell" className={styles.nameCell}>
                  {fitName(r.name, nameChars)}
                </div>
                {diff ? (
                  <DiffCells
                    className={styles.valueCell}
                    total={r.total}
                    totalRight={r.totalRight ?? 0}
                    rootTotal={rootTotal}
                    rootRight={rootRight}
                    colorBlind={colorBlind}
                  />
                ) : (
                  <>
                    <ValueCell className={styles.valueCell} value={r.self} rootTotal={rootTotal} unit={unit} />
                    <ValueCell className={styles.valueCell} value={r.total} rootTotal={rootTotal} unit={unit} />
                  </>
                )}
                {actionW > 0 && (
                  <div role="cell" className={styles.actionCell}>
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
