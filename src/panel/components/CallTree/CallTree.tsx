// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useEffect, useMemo, useRef, useState } from 'react';
import { css, cx } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';
import { percentBase } from '../../../shared/flameData';
import { FlameIndex } from '../../model/flameIndex';
import { hasChildren, pathTo, TreeSortKey, treeRows } from '../../model/callTree';
import { formatPercent, formatValue } from '../../model/format';
import { DiffCells, NAME_W, NUM_W, rowAt, useTableBoxClass } from '../TopTable/TopTable';
import { useSizeClass } from '../sizeStyles';
import { SOURCE_ACTION_W, SourceColumnHeader, SourceRowCell, useSourceOpener } from '../Source';

export interface CallTreeProps {
  index: FlameIndex;
  /** Frames each node holds when chains are collapsed (1 = a plain node). */
  frames?: Int32Array;
  width: number;
  height: number;
  /** The node zoomed in the graph; the tree opens the path to it and marks it. */
  focus: number;
  onSelect: (node: number) => void;
  colorBlind: boolean;
}

const ROW = 24;
const HEADER = 28;
const INDENT = 12;
/** A name cell's indent by the node's depth (a class per depth shown). */
const indentOf = (level: number) => css({ paddingLeft: 6 + level * INDENT });

const getStyles = (theme: GrafanaTheme2) => ({
  table: css({ fontSize: 12, display: 'flex', flexDirection: 'column', outline: 'none' }),
  headerRow: css({
    display: 'flex',
    height: HEADER,
    alignItems: 'center',
    borderBottom: `1px solid ${theme.colors.border.weak}`,
    flex: 'none',
  }),
  columnHeader: css({
    padding: '0 6px',
    boxSizing: 'border-box',
    fontWeight: theme.typography.fontWeightMedium,
    userSelect: 'none',
  }),
  sortable: css({ cursor: 'pointer', '&:hover': { background: theme.colors.action.hover } }),
  body: css({ overflowY: 'auto', overflowX: 'hidden' }),
  rows: css({ position: 'relative' }),
  nameColumn: css({ width: `var(${NAME_W})` }),
  numColumn: css({ width: `var(${NUM_W})`, textAlign: 'right' }),
  twisty: css({ display: 'inline-block', width: 12 }),
  row: css({
    position: 'absolute',
    height: ROW,
    width: '100%',
    display: 'flex',
    alignItems: 'center',
    cursor: 'pointer',
    '&:hover': { background: theme.colors.action.hover },
  }),
  cursor: css({ outline: `1px solid ${theme.colors.primary.border}`, outlineOffset: -1 }),
  selected: css({ background: theme.colors.action.selected }),
  name: css({
    width: `var(${NAME_W})`,
    padding: '0 6px',
    boxSizing: 'border-box',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    fontFamily: theme.typography.fontFamilyMonospace,
  }),
  value: css({
    width: `var(${NUM_W})`,
    padding: '0 6px',
    boxSizing: 'border-box',
    textAlign: 'right',
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
  }),
});

/**
 * The call tree: one row per node with its self and total, children under their parent and
 * sorted by self or total. A click or Enter opens a node and zooms the graph to it; arrows move
 * (Up/Down), open (Right) and close (Left); S (or the row's </> button) opens its source. Only the rows in view are in the DOM, and only open
 * nodes are walked, so 500k-node trees stay fast.
 */
export function CallTree(props: CallTreeProps) {
  const { index, frames, width, height, focus, onSelect, colorBlind } = props;
  const d = index.data;
  const styles = useStyles2(getStyles);
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [expanded, setExpanded] = useState<{ index: FlameIndex; open: Set<number> }>(() => ({
    index,
    open: new Set([0]),
  }));
  const open = useMemo(() => (expanded.index === index ? expanded.open : new Set([0])), [expanded, index]);
  const [sort, setSort] = useState<{ key: TreeSortKey; desc: boolean }>({ key: 'total', desc: true });
  const [cursor, setCursor] = useState(0);
  const source = useSourceOpener();

  // the graph's zoom opens the path to the zoomed node (state adjusted during render, as React recommends)
  const [seenFocus, setSeenFocus] = useState<{ focus: number; index: FlameIndex } | undefined>();
  if (!seenFocus || seenFocus.focus !== focus || seenFocus.index !== index) {
    setSeenFocus({ focus, index });
    if (focus > 0 && focus < d.count) {
      const path = pathTo(index, focus);
      if (!path.every((p) => open.has(p))) {
        const next = new Set(open);
        path.forEach((p) => next.add(p));
        setExpanded({ index, open: next });
      }
      setCursor(focus);
    }
  }

  const rows = useMemo(() => treeRows(index, open, sort.key, sort.desc), [index, open, sort]);
  const at = useMemo(() => rows.indexOf(cursor), [rows, cursor]);

  // keep the cursor's row in view
  useEffect(() => {
    const el = scroller.current;
    if (!el || at < 0) {
      return;
    }
    if (at * ROW < el.scrollTop || (at + 1) * ROW > el.scrollTop + el.clientHeight) {
      el.scrollTop = Math.max(0, at * ROW - el.clientHeight / 2);
    }
  }, [at]);

  const toggle = (i: number, want?: boolean) => {
    const isOpen = open.has(i);
    if (!hasChildren(index, i) || want === isOpen) {
      return;
    }
    const next = new Set(open);
    if (isOpen) {
      next.delete(i);
    } else {
      next.add(i);
    }
    setExpanded({ index, open: next });
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    const k = at < 0 ? 0 : at;
    const i = rows[k];
    switch (e.key) {
      case 'ArrowDown':
        setCursor(rows[Math.min(rows.length - 1, k + 1)]);
        break;
      case 'ArrowUp':
        setCursor(rows[Math.max(0, k - 1)]);
        break;
      case 'ArrowRight':
        if (open.has(i) && hasChildren(index, i)) {
          setCursor(rows[Math.min(rows.length - 1, k + 1)]);
        } else {
          toggle(i, true);
        }
        break;
      case 'ArrowLeft':
        if (open.has(i) && hasChildren(index, i)) {
          toggle(i, false);
        } else if (index.parent[i] >= 0) {
          setCursor(index.parent[i]);
        }
        break;
      case 'Enter':
        toggle(i);
        onSelect(i);
        break;
      case 's':
      case 'S':
        if (!source || i === undefined) {
          return;
        }
        source.open(d.names[d.nameIdx[i]]);
        break;
      default:
        return;
    }
    e.preventDefault();
    e.stopPropagation();
  };

  const diff = d.valueRight !== undefined;
  const numW = diff
    ? Math.max(72, Math.min(100, Math.floor(width * 0.15)))
    : Math.max(80, Math.min(130, Math.floor(width * 0.2)));
  const actionW = source ? SOURCE_ACTION_W : 0;
  const nameW = Math.max(60, width - (diff ? 3 : 2) * numW - actionW - 2);
  const bodyHeight = Math.max(0, height - HEADER);
  const first = Math.max(0, Math.floor(scrollTop / ROW) - 5);
  const last = Math.min(rows.length, Math.ceil((scrollTop + bodyHeight) / ROW) + 5);
  const boxClass = useTableBoxClass(width, height, nameW, numW, actionW);
  const bodyClass = useSizeClass(undefined, bodyHeight);
  const rowsClass = useSizeClass(undefined, rows.length * ROW);
  const root = percentBase(d) || 1;
  const rootRight = d.valueRight ? d.valueRight[0] : 0;
  const sortHeader = (key: TreeSortKey, label: string) => (
    <div
      role="columnheader"
      tabIndex={0}
      aria-sort={sort.key === key ? (sort.desc ? 'descending' : 'ascending') : 'none'}
      className={cx(styles.columnHeader, styles.sortable, styles.numColumn)}
      onClick={() => setSort((s) => ({ key, desc: s.key === key ? !s.desc : true }))}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.stopPropagation();
          setSort((s) => ({ key, desc: s.key === key ? !s.desc : true }));
        }
      }}
    >
      {label}
      {sort.key === key ? (sort.desc ? ' ▼' : ' ▲') : ''}
    </div>
  );

  return (
    <div
      role="treegrid"
      aria-label="Call tree"
      data-testid="call-tree"
      tabIndex={0}
      onKeyDown={onKeyDown}
      className={cx(styles.table, boxClass)}
    >
      <div role="row" className={styles.headerRow}>
        <div role="columnheader" className={cx(styles.columnHeader, styles.nameColumn)}>
          Function
        </div>
        {diff ? (
          <>
            <div role="columnheader" className={cx(styles.columnHeader, styles.numColumn)}>
              Baseline
            </div>
            <div role="columnheader" className={cx(styles.columnHeader, styles.numColumn)}>
              Comparison
            </div>
            <div role="columnheader" className={cx(styles.columnHeader, styles.numColumn)}>
              Diff
            </div>
          </>
        ) : (
          <>
            {sortHeader('self', 'Self')}
            {sortHeader('total', 'Total')}
          </>
        )}
        {source && <SourceColumnHeader />}
      </div>
      <div
        ref={scroller}
        className={cx(styles.body, bodyClass)}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      >
        <div role="rowgroup" className={cx(styles.rows, rowsClass)}>
          {Array.from(rows.subarray(first, last)).map((i, k) => {
            const name = d.names[d.nameIdx[i]];
            const kids = hasChildren(index, i);
            const isOpen = open.has(i);
            const held = frames ? frames[i] : 1;
            return (
              <div
                key={i}
                role="row"
                data-testid="call-tree-row"
                aria-level={d.level[i] + 1}
                aria-expanded={kids ? isOpen : undefined}
                aria-selected={i === focus}
                title={name}
                className={cx(
                  styles.row,
                  i === focus && styles.selected,
                  i === cursor && styles.cursor,
                  rowAt((first + k) * ROW)
                )}
                onClick={() => {
                  setCursor(i);
                  toggle(i);
                  onSelect(i);
                }}
              >
                <div role="cell" className={cx(styles.name, indentOf(d.level[i]))}>
                  <span aria-hidden className={styles.twisty}>
                    {kids ? (isOpen ? '▾' : '▸') : ''}
                  </span>
                  {name}
                  {held > 1 && <span data-testid="call-tree-frames">{` (+${held - 1})`}</span>}
                </div>
                {diff && d.valueRight ? (
                  <DiffCells
                    className={styles.value}
                    total={d.value[i]}
                    totalRight={d.valueRight[i]}
                    rootTotal={percentBase(d)}
                    rootRight={rootRight}
                    colorBlind={colorBlind}
                  />
                ) : (
                  <>
                    <div role="cell" className={styles.value} title={formatPercent(d.self[i] / root)}>
                      {formatValue(d.self[i], d.unit)}
                    </div>
                    <div role="cell" className={styles.value} title={formatPercent(d.value[i] / root)}>
                      {formatValue(d.value[i], d.unit)}
                    </div>
                  </>
                )}
                {source && <SourceRowCell name={name} open={source.open} />}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
