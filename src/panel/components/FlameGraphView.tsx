// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Button, ContextMenu, Input, MenuItem, RadioButtonGroup, useTheme2 } from '@grafana/ui';
import { FlameData } from '../../shared/flameData';
import { buildIndex, FlameIndex, lowerBoundRow } from '../model/flameIndex';
import { ColorMode, nodeColors } from '../model/colors';
import { compileSearch, matchNames, nameText, searchNodes } from '../model/search';
import { SortKey, sortRows, topTable, TopRow } from '../model/topTable';
import { formatPercent } from '../model/format';
import { FlameCanvas } from './FlameCanvas';
import { Tooltip } from './Tooltip';
import { TopTable } from './TopTable';
import { useElementSize } from './useElementSize';
import { loadNumber, saveNumber, TABLE_WIDTH_KEY } from './storage';
import { Breadcrumbs } from './Breadcrumbs';

/** Display options of the view (the panel's options). */
export interface ViewOptions {
  colorMode: ColorMode;
  textAlign: 'left' | 'right';
  showTable: boolean;
  minBarWidth: number;
  colorBlindDiff: boolean;
}

export interface FlameGraphViewProps {
  data: FlameData;
  width: number;
  height: number;
  options: ViewOptions;
}

/** Narrowest the graph and the table may get side by side; below their sum a toggle shows one at a time. */
export const MIN_GRAPH_WIDTH = 320;
export const MIN_TABLE_WIDTH = 260;
export const HANDLE_WIDTH = 8;

interface Menu {
  node: number;
  x: number;
  y: number;
}

/**
 * Runs fn after the browser has painted the current frame (a task queued from the next
 * animation frame, so the graph is on screen before fn's work starts); returns a cancel function.
 */
function afterPaint(fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (typeof requestAnimationFrame !== 'function') {
    timer = setTimeout(fn, 0);
    return () => clearTimeout(timer);
  }
  const raf = requestAnimationFrame(() => {
    timer = setTimeout(fn, 0);
  });
  return () => {
    cancelAnimationFrame(raf);
    clearTimeout(timer);
  };
}

/**
 * The complete flamegraph view shared by the panel and the playground: header (search,
 * breadcrumbs, view toggle), the canvas graph, the resizable top-table drawer, tooltip,
 * context menu and keyboard navigation.
 */
export function FlameGraphView({ data, width, height, options }: FlameGraphViewProps) {
  const theme = useTheme2();
  const dark = theme.isDark;
  const index = useMemo(() => buildIndex(data), [data]);
  const colors = useMemo(
    () => nodeColors(data, options.colorMode, options.colorBlindDiff),
    [data, options.colorMode, options.colorBlindDiff]
  );
  // the top table is summed lazily: only while the drawer is shown, and after the graph has painted
  const [table, setTable] = useState<{ index: FlameIndex; rows: TopRow[] } | undefined>();
  const allRows = table?.index === index ? table.rows : undefined;

  const [focus, setFocus] = useState(0);
  const [selected, setSelected] = useState(-1);
  const [hover, setHover] = useState<{ node: number; x: number; y: number }>({ node: -1, x: 0, y: 0 });
  const [menu, setMenu] = useState<Menu | undefined>();
  const [search, setSearch] = useState('');
  const [highlight, setHighlight] = useState(-1);
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({ key: 'self', desc: true });
  const [narrowView, setNarrowView] = useState<'graph' | 'table'>('graph');
  const [tableWidth, setTableWidth] = useState<number | undefined>(() => loadNumber(TABLE_WIDTH_KEY));

  // a new profile starts unzoomed (state reset during render, as React recommends)
  const [shownData, setShownData] = useState(data);
  if (shownData !== data) {
    setShownData(data);
    setFocus(0);
    setSelected(-1);
    setHighlight(-1);
    setHover({ node: -1, x: 0, y: 0 });
  }

  const matcher = useMemo(() => compileSearch(search), [search]);
  const searchResult = useMemo(
    () => (matcher ? searchNodes(index, matchNames(data, matcher)) : undefined),
    [matcher, index, data]
  );
  const highlightResult = useMemo(() => {
    if (highlight < 0) {
      return undefined;
    }
    const m = new Uint8Array(data.names.length);
    m[highlight] = 1;
    return searchNodes(index, m);
  }, [highlight, index, data]);
  const nodeMatch = (highlightResult ?? searchResult)?.nodeMatch;

  // sorted once per sort order; a search only filters the sorted rows (filtering keeps the order)
  const sortedRows = useMemo(() => (allRows ? sortRows(allRows, sort.key, sort.desc) : []), [allRows, sort]);
  const rows = useMemo(
    () => (searchResult ? sortedRows.filter((r) => searchResult.nameMatch[r.nameIdx]) : sortedRows),
    [sortedRows, searchResult]
  );

  const headerRef = useRef<HTMLDivElement>(null);
  const headerSize = useElementSize(headerRef);
  const bodyHeight = Math.max(40, height - headerSize.height);
  // the canvas is mounted once the header has been measured: drawn once, not before and again after
  const [measured, setMeasured] = useState(false);
  // one deliberate second render, in the same commit as the header's measurement (useElementSize)
  // eslint-disable-next-line react-hooks/set-state-in-effect
  useLayoutEffect(() => setMeasured(true), []);

  const split = options.showTable && width >= MIN_GRAPH_WIDTH + MIN_TABLE_WIDTH + HANDLE_WIDTH;
  const toggle = options.showTable && !split;
  const maxTable = width - MIN_GRAPH_WIDTH - HANDLE_WIDTH;
  const tw = split ? Math.round(Math.max(MIN_TABLE_WIDTH, Math.min(maxTable, tableWidth ?? width * 0.36))) : 0;
  const showGraph = !toggle || narrowView === 'graph';
  const showTable = split || (toggle && narrowView === 'table');
  const graphWidth = split ? width - tw - HANDLE_WIDTH : width;

  const tableWanted = showTable && !allRows;
  useEffect(() => {
    if (!tableWanted) {
      return;
    }
    return afterPaint(() => setTable({ index, rows: topTable(index) }));
  }, [tableWanted, index]);
  // the names as one text for plain-text search, made after the first paint (and after the table)
  useEffect(() => afterPaint(() => void nameText(data)), [data]);

  const zoom = useCallback((node: number) => {
    setFocus(node);
    setSelected(node);
    setMenu(undefined);
  }, []);
  const reset = useCallback(() => {
    setFocus(0);
    setSelected(-1);
    setMenu(undefined);
  }, []);

  const onKeyDown = (e: React.KeyboardEvent) => {
    const { level, value } = data;
    const cur = selected >= 0 ? selected : focus;
    const sameLevel = (dir: 1 | -1) => {
      const l = level[cur];
      const from = lowerBoundRow(index, l, Math.max(focus, 0));
      const to = lowerBoundRow(index, l, index.end[focus]);
      const at = lowerBoundRow(index, l, cur) + dir;
      return at >= from && at < to && level[focus] <= l ? index.levelNodes[at] : cur;
    };
    let next = cur;
    switch (e.key) {
      case 'Escape':
        reset();
        setHighlight(-1);
        e.preventDefault();
        return;
      case 'ArrowUp':
        next = cur > focus && index.parent[cur] >= 0 ? index.parent[cur] : cur;
        break;
      case 'ArrowDown': {
        let best = -1;
        for (let c = cur + 1; c < index.end[cur]; c = index.end[c]) {
          if (best < 0 || value[c] > value[best]) {
            best = c;
          }
        }
        next = best >= 0 ? best : cur;
        break;
      }
      case 'ArrowLeft':
        next = sameLevel(-1);
        break;
      case 'ArrowRight':
        next = sameLevel(1);
        break;
      case 'Enter':
        if (selected >= 0) {
          zoom(selected);
        }
        e.preventDefault();
        return;
      default:
        return;
    }
    e.preventDefault();
    setSelected(next);
  };

  const copyName = (node: number) => {
    const name = data.names[data.nameIdx[node]];
    if (navigator.clipboard?.writeText) {
      navigator.clipboard.writeText(name).catch(() => undefined);
    }
    setMenu(undefined);
  };

  const startDrag = (e: React.PointerEvent<HTMLDivElement>) => {
    const startX = e.clientX;
    const startW = tw;
    const target = e.currentTarget;
    target.setPointerCapture?.(e.pointerId);
    let last = startW;
    const move = (ev: PointerEvent) => {
      last = Math.max(MIN_TABLE_WIDTH, Math.min(maxTable, startW - (ev.clientX - startX)));
      setTableWidth(last);
    };
    const up = () => {
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', up);
      target.removeEventListener('pointercancel', up);
      saveNumber(TABLE_WIDTH_KEY, last);
    };
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', up);
    target.addEventListener('pointercancel', up);
    e.preventDefault();
  };

  const resultInfo = highlightResult
    ? `${highlightResult.count} × ${data.names[highlight]} · ${formatPercent(highlightResult.share)} of total`
    : searchResult
      ? `${searchResult.count} match${searchResult.count === 1 ? '' : 'es'} · ${formatPercent(searchResult.share)} of total`
      : '';

  if (data.count === 0) {
    return <div style={{ width, height, display: 'grid', placeItems: 'center' }}>No profile data</div>;
  }

  return (
    <div
      data-testid="flamegraph-view"
      tabIndex={0}
      onKeyDown={onKeyDown}
      style={{
        width,
        height,
        display: 'flex',
        flexDirection: 'column',
        outline: 'none',
        overflow: 'hidden',
        color: theme.colors.text.primary,
      }}
    >
      <div
        ref={headerRef}
        style={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 6,
          alignItems: 'center',
          paddingBottom: 6,
          flex: 'none',
          minWidth: 0,
        }}
      >
        <div style={{ flex: '1 1 180px', minWidth: 0, maxWidth: 420 }}>
          <Input
            data-testid="flamegraph-search"
            aria-label="Search functions"
            placeholder="Search (text or regex)"
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setHighlight(-1);
            }}
          />
        </div>
        <span
          data-testid="flamegraph-search-result"
          style={{ fontSize: 12, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', maxWidth: '100%' }}
        >
          {resultInfo}
        </span>
        {(highlight >= 0 || search) && (
          <Button size="sm" variant="secondary" fill="text" onClick={() => (setHighlight(-1), setSearch(''))}>
            Clear
          </Button>
        )}
        {toggle && (
          <RadioButtonGroup
            size="sm"
            options={[
              { value: 'graph', label: 'Flame graph' },
              { value: 'table', label: 'Top table' },
            ]}
            value={narrowView}
            onChange={(v) => setNarrowView(v === 'table' ? 'table' : 'graph')}
          />
        )}
        <Breadcrumbs index={index} focus={focus} onZoom={zoom} onReset={reset} />
      </div>
      <div style={{ display: 'flex', flex: '1 1 auto', minHeight: 0, height: bodyHeight }}>
        {showGraph && measured && (
          <FlameCanvas
            index={index}
            colors={colors}
            focus={focus}
            selected={selected}
            hovered={hover.node}
            nodeMatch={nodeMatch}
            width={graphWidth}
            height={bodyHeight}
            minBarWidth={options.minBarWidth}
            textAlign={options.textAlign}
            darkTheme={dark}
            onHover={(node, x, y) => setHover((h) => (h.node === node && node < 0 ? h : { node, x, y }))}
            onClick={zoom}
            onContextMenu={(node, x, y) => {
              setSelected(node);
              setMenu({ node, x, y });
            }}
          />
        )}
        {split && (
          <div
            role="separator"
            aria-orientation="vertical"
            aria-label="Resize top table"
            data-testid="drawer-handle"
            onPointerDown={startDrag}
            style={{
              width: HANDLE_WIDTH,
              cursor: 'col-resize',
              flex: 'none',
              display: 'flex',
              justifyContent: 'center',
              touchAction: 'none',
            }}
          >
            <div style={{ width: 2, height: '100%', background: theme.colors.border.medium }} />
          </div>
        )}
        {showTable && (
          <TopTable
            rows={rows}
            unit={data.unit}
            rootTotal={data.value[0]}
            width={split ? tw : width}
            height={bodyHeight}
            sortKey={sort.key}
            descending={sort.desc}
            onSort={(key) => setSort((s) => ({ key, desc: s.key === key ? !s.desc : key !== 'name' }))}
            highlighted={highlight}
            onSelect={(k) => setHighlight((h) => (h === k ? -1 : k))}
          />
        )}
      </div>
      {hover.node >= 0 && !menu && showGraph && (
        <Tooltip index={index} node={hover.node} focus={focus} clientX={hover.x} clientY={hover.y} dark={dark} />
      )}
      {menu && (
        <ContextMenu
          x={menu.x}
          y={menu.y}
          onClose={() => setMenu(undefined)}
          renderMenuItems={() => (
            <>
              <MenuItem label="Focus (zoom)" icon="search-plus" onClick={() => zoom(menu.node)} />
              <MenuItem label="Copy name" icon="copy" onClick={() => copyName(menu.node)} />
              <MenuItem
                label="Highlight same name"
                icon="eye"
                onClick={() => {
                  setHighlight(data.nameIdx[menu.node]);
                  setMenu(undefined);
                }}
              />
              {options.showTable && (
                <MenuItem
                  label="Show in table"
                  icon="table"
                  onClick={() => {
                    setHighlight(data.nameIdx[menu.node]);
                    setSearch('');
                    setNarrowView('table');
                    setMenu(undefined);
                  }}
                />
              )}
            </>
          )}
        />
      )}
    </div>
  );
}
