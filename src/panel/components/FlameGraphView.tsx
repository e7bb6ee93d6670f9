// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { ContextMenu, IconButton, MenuItem, useTheme2 } from '@grafana/ui';
import { GrafanaTheme2 } from '@grafana/data';
import { FlameData } from '../../shared/flameData';
import { buildIndex, FlameIndex, isAncestorOrSelf, lowerBoundRow, warmIndex } from '../model/flameIndex';
import { nodeColors } from '../model/colors';
import { compileSearch, matchNames, nameTextSteps, searchNodes } from '../model/search';
import { SortKey, sortRows, topTable, TopRow, TopTableBuild } from '../model/topTable';
import { formatPercent } from '../model/format';
import { DrawnColumns, FlameCanvas, ROW_HEIGHT } from './FlameCanvas';
import { Tooltip } from './Tooltip';
import { TopTable } from './TopTable';
import { useElementHeight } from './useElementSize';
import { SearchInput } from './SearchInput';
import { loadNumber, saveNumber, TABLE_WIDTH_KEY } from './storage';
import { effectiveView } from '../options';
import { ViewOptions } from '../types';
import { Breadcrumbs } from './Breadcrumbs';
import { chainNames, Collapsed, collapseChains, LazyCollapsed, shownMatch } from '../model/collapse';
import { hasSandwich, Sandwich, sandwichOf, sandwichSteps } from '../model/sandwich';
import { inIdleSteps } from '../model/idle';
import { CallTree } from './CallTree';
import { CallGraphView } from './CallGraphView';
import { prepareSandwichSteps, SandwichView } from './SandwichView';
import { DiffLegend } from './DiffLegend';
import { Header } from './HeaderControls';
import { HeaderAction } from './headerOptions';
import { afterPaint } from '../afterPaint';

export interface FlameGraphViewProps {
  data: FlameData;
  width: number;
  height: number;
  options: ViewOptions;
  /** Saves what the header changes as panel options (Grafana's onOptionsChange). */
  onOptionsChange?: (changed: Partial<ViewOptions>) => void;
}

/** Narrowest the graph and the table may get side by side; below their sum a toggle shows one at a time. */
export const MIN_GRAPH_WIDTH = 320;
export const MIN_TABLE_WIDTH = 260;
export const HANDLE_WIDTH = 8;
/** Space under the header's controls, in CSS px. */
const HEADER_PAD = 6;

/** The header's height when its controls fit in one row: @grafana/ui's control height and the padding under it. */
export const oneRowHeaderHeight = (theme: GrafanaTheme2) =>
  theme.spacing.gridSize * theme.components.height.md + HEADER_PAD;

/** The zoom path's row under the header: a small @grafana/ui button's height and the padding under it. */
export const crumbRowHeight = (theme: GrafanaTheme2) =>
  theme.spacing.gridSize * theme.components.height.sm + HEADER_PAD;

interface Menu {
  node: number;
  x: number;
  y: number;
}

/**
 * The complete flamegraph view shared by the panel and the playground: header (view mode, colour
 * scheme, text alignment, collapse, search, breadcrumbs), the canvas graph, the resizable drawer
 * (top table or call tree), the sandwich view, tooltip, context menu and keyboard navigation.
 */
export function FlameGraphView({ data, width, height, options, onOptionsChange }: FlameGraphViewProps) {
  const theme = useTheme2();
  const dark = theme.isDark;
  // the first draw reads no index (the graph is drawn from the frame's columns): the graph's index,
  // its collapse and the collapsed graph's index are made in idle time after the first paint, or
  // what is left of them at the first input that reads them
  const index = useMemo(() => buildIndex(data, { later: true }), [data]);
  const diff = data.valueRight !== undefined;

  // header choices: panel options when the host saves them, else local state seeded from them
  const [local, setLocal] = useState<Partial<ViewOptions>>({});
  const opt = { ...options, ...local };
  const setOpt = useCallback(
    (changed: Partial<ViewOptions>) => {
      setLocal((l) => ({ ...l, ...changed }));
      onOptionsChange?.(changed);
    },
    [onOptionsChange]
  );
  const view = effectiveView({ viewMode: opt.viewMode ?? 'both', showTable: opt.showTable });
  const collapse = opt.collapse ?? true;

  // chains collapsed (expanded ones by their original head); focus and selection are kept as
  // original nodes, so switching collapse keeps the zoom
  const [expanded, setExpanded] = useState<{ data: FlameData; heads: Set<number> }>({ data, heads: new Set() });
  const heads = expanded.data === data ? expanded.heads : EMPTY_SET;
  const collapsed = useMemo(() => (collapse ? collapsedOf(index, heads) : undefined), [collapse, index, heads]);
  const shown = useMemo(() => (collapsed ? shownIndexOf(collapsed, index) : index), [collapsed, index]);
  // the root is the first bar whatever is collapsed (so an unzoomed graph reads no collapse)
  const toShown = useCallback((o: number) => (o <= 0 ? o : collapsed ? collapsed.shownOf[o] : o), [collapsed]);
  const toOrig = useCallback((s: number) => (s < 0 ? -1 : collapsed ? collapsed.head[s] : s), [collapsed]);

  const baseColors = useMemo(
    () => nodeColors(data, opt.colorMode, opt.colorBlindDiff),
    [data, opt.colorMode, opt.colorBlindDiff]
  );
  const colors = useMemo(
    () => (collapsed ? { get: (s: number) => baseColors.get(collapsed.head[s]) } : baseColors),
    [collapsed, baseColors]
  );
  // the top table is summed lazily: only while the drawer is shown, and after the graph has painted
  const [table, setTable] = useState<{ index: FlameIndex; rows: TopRow[] } | undefined>();
  const allRows = table?.index === index ? table.rows : undefined;

  const [focusO, setFocusO] = useState(0);
  const [selectedO, setSelectedO] = useState(-1);
  const [hover, setHover] = useState<{ node: number; x: number; y: number }>({ node: -1, x: 0, y: 0 });
  const [menu, setMenu] = useState<Menu | undefined>();
  const [search, setSearch] = useState(opt.search ?? '');
  const [highlight, setHighlight] = useState(-1);
  const [sandwich, setSandwich] = useState<number | undefined>();
  // the function picked in the call graph (its name index; -1: none)
  const [graphPick, setGraphPick] = useState(-1);
  const [treeSeen, setTreeSeen] = useState(() => view === 'tree');
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({ key: diff ? 'diff' : 'self', desc: true });
  const [tableWidth, setTableWidth] = useState<number | undefined>(() => loadNumber(TABLE_WIDTH_KEY));
  const focus = toShown(focusO);
  const selected = toShown(selectedO);

  // a new profile starts unzoomed (state reset during render, as React recommends)
  const [seenData, setSeenData] = useState(data);
  if (seenData !== data) {
    setSeenData(data);
    setFocusO(0);
    setSelectedO(-1);
    setHighlight(-1);
    setSandwich(undefined);
    setGraphPick(-1);
    setHover({ node: -1, x: 0, y: 0 });
  }
  // a search saved elsewhere (the panel editor) replaces the typed one
  const [seenSearch, setSeenSearch] = useState(options.search);
  if (seenSearch !== options.search) {
    setSeenSearch(options.search);
    setSearch(options.search ?? '');
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
  const origMatch = (highlightResult ?? searchResult)?.nodeMatch;
  const nodeMatch = useMemo(
    () => (origMatch && collapsed ? shownMatch(collapsed, origMatch) : origMatch),
    [origMatch, collapsed]
  );
  // the whole graph as the frame's columns, drawn from them until the index is made (not with a
  // chain expanded, nor with a search, whose marks are by the index's nodes)
  const columns = useMemo<DrawnColumns | undefined>(
    () => (heads.size === 0 && !origMatch ? { data, collapsed: collapse, colors: baseColors } : undefined),
    [heads, origMatch, data, collapse, baseColors]
  );
  // the drawn graph's collapse and index, made in idle slices after the first paint (an input
  // that reads them before makes what is left at once)
  useEffect(() => {
    let cancelIdle: (() => void) | undefined;
    const cancelPaint = afterPaint(() => {
      cancelIdle = inIdleSteps([(d) => !(collapsed instanceof LazyCollapsed) || collapsed.step(d), warmIndex(shown)]);
    });
    return () => {
      cancelPaint();
      cancelIdle?.();
    };
  }, [collapsed, shown]);

  // sorted once per sort order; a search only filters the sorted rows (filtering keeps the order)
  const rootRight = data.valueRight ? data.valueRight[0] : undefined;
  const sortedRows = useMemo(
    () => (allRows ? sortRows(allRows, sort.key, sort.desc, { total: data.value[0], right: rootRight ?? 0 }) : []),
    [allRows, sort, data, rootRight]
  );
  // the table follows a search in a deferred render, after the graph's marks are drawn: filtering
  // 100k rows and finding the best match were about half of a search's work at 500k nodes
  const tableSearch = useDeferredValue(searchResult);
  const rows = useMemo(
    () => (tableSearch ? sortedRows.filter((r) => tableSearch.nameMatch[r.nameIdx]) : sortedRows),
    [sortedRows, tableSearch]
  );
  // a deep graph's sandwich is drawn first cut at the levels a half of the view can show, then
  // merged whole after that paint (drawn whole at once when the whole merge is made already)
  const sandwichLevels = Math.ceil(height / 2 / ROW_HEIGHT) + 1;
  const sandwichCut = data.maxLevel > sandwichLevels ? sandwichLevels : undefined;
  const firstSandwich = useMemo(
    () =>
      sandwich === undefined
        ? undefined
        : sandwichCut !== undefined && !hasSandwich(index, sandwich)
          ? sandwichOf(index, sandwich, sandwichCut)
          : sandwichOf(index, sandwich),
    [sandwich, index, sandwichCut]
  );
  const [wholeSandwich, setWholeSandwich] = useState<{ of: Sandwich; whole: Sandwich }>();
  useEffect(() => {
    if (!firstSandwich || firstSandwich.depthLimit === undefined) {
      return;
    }
    // merged in idle slices (a prefetch under way goes on from where it paused), so the page
    // takes inputs while a large sandwich's lower levels are merged; then prepared and shown
    const k = firstSandwich.nameIdx;
    const look = { colorMode: opt.colorMode, colorBlindDiff: opt.colorBlindDiff };
    let cancelIdle: (() => void) | undefined;
    const cancelPaint = afterPaint(() => {
      cancelIdle = inIdleSteps(
        sandwichSteps(index, k, undefined, (whole) => [
          ...prepareSandwichSteps(whole, look),
          () => setWholeSandwich({ of: firstSandwich, whole }),
        ])
      );
    });
    return () => {
      cancelPaint();
      cancelIdle?.();
    };
    // the look only warms the colour caches: a change of it needs no new merge
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [firstSandwich, index]);
  // the sandwiches a click may open next, merged in idle time in resumable steps (an input waits
  // for one chunk at most), so opening one only draws: the function of the open context menu,
  // the top table's first row's (its button, and the header's pick with nothing selected; merged
  // once the rows are there, so usually done already), and the search's sandwich (the matching
  // function with the largest total)
  const menuName = menu && menu.node >= 0 && menu.node < shown.data.count ? shown.data.nameIdx[menu.node] : -1;
  const searchName = useMemo(
    () => (tableSearch && allRows ? searchBest(allRows, tableSearch.nameMatch) : -1),
    [tableSearch, allRows]
  );
  const prefetchName = sortedRows.length > 0 ? sortedRows[0].nameIdx : -1;
  const { colorMode, colorBlindDiff } = opt;
  useEffect(() => {
    if (sandwich !== undefined) {
      return;
    }
    const look = { colorMode, colorBlindDiff };
    const names = [menuName, prefetchName, searchName].filter((k, at, all) => k >= 0 && all.indexOf(k) === at);
    if (names.length === 0) {
      return;
    }
    return inIdleSteps(
      names.flatMap((k) => sandwichSteps(index, k, sandwichCut, (s) => prepareSandwichSteps(s, look)))
    );
  }, [index, sandwich, menuName, searchName, prefetchName, sandwichCut, colorMode, colorBlindDiff]);
  const sandwichModel = wholeSandwich && wholeSandwich.of === firstSandwich ? wholeSandwich.whole : firstSandwich;

  const headerRef = useRef<HTMLDivElement>(null);
  // the canvas is sized in the first render from the header's one-row height (the panel gets its
  // width and height from Grafana), without reading the layout; a header that wraps or grows
  // (breadcrumbs, narrow panels) is measured after the browser's layout and redrawn before paint
  const headerHeight = useElementHeight(headerRef, oneRowHeaderHeight(theme));
  const bodyHeight = Math.max(40, height - headerHeight);
  // the zoom path is a row of a fixed height over the graph (the drawer beside it keeps its
  // height): a zoom or a reset sizes the graph from it in the same render, with no measuring and
  // no second render (in the measured header, the path's new row redrew the graph and the top
  // table in a later frame: 2–3 frames for a zoom at 500k)
  const crumbs = sandwich === undefined && focus > 0;
  const crumbRow = crumbRowHeight(theme);

  const fits = width >= MIN_GRAPH_WIDTH + MIN_TABLE_WIDTH + HANDLE_WIDTH;
  const drawer =
    sandwich !== undefined
      ? fits
        ? 'table'
        : undefined
      : view === 'both'
        ? 'table'
        : view === 'tree'
          ? 'tree'
          : undefined;
  const split = drawer !== undefined && fits && view !== 'table';
  const maxTable = width - MIN_GRAPH_WIDTH - HANDLE_WIDTH;
  const tw = split ? Math.round(Math.max(MIN_TABLE_WIDTH, Math.min(maxTable, tableWidth ?? width * 0.36))) : 0;
  const showCallGraph = view === 'callgraph' && sandwich === undefined;
  const showGraph = (view !== 'table' && view !== 'callgraph') || sandwich !== undefined;
  const showTable = (view === 'table' && sandwich === undefined) || (split && drawer === 'table');
  const showTree = split && drawer === 'tree';
  // A drawer once shown stays mounted, hidden, while the other one is open: switching back between
  // the top table and the call tree then only shows it again, with its rows, scroll and sort as left,
  // instead of building its elements and their layout anew inside the switch's frame.
  // (the table counts as seen once its rows are summed, which happens only while it shows; the
  // tree once the header has switched to it or the panel opened on it)
  const keepTable = !showTable && split && drawer === 'tree' && allRows !== undefined;
  const keepTree = !showTree && split && drawer === 'table' && treeSeen;
  const graphWidth = split ? width - tw - HANDLE_WIDTH : width;

  const tableWanted = showTable && !allRows;
  useEffect(() => {
    if (!tableWanted) {
      return;
    }
    // summed in idle slices after the first paint: the graph takes inputs meanwhile
    let cancelIdle: (() => void) | undefined;
    const cancelPaint = afterPaint(() => {
      const build = new TopTableBuild(index);
      cancelIdle = inIdleSteps([(d) => build.step(d), () => setTable({ index, rows: build.rows! })]);
    });
    return () => {
      cancelPaint();
      cancelIdle?.();
    };
  }, [tableWanted, index]);
  // the names as one text for plain-text search, made in idle slices after the first paint
  useEffect(() => {
    let cancelIdle: (() => void) | undefined;
    const cancelPaint = afterPaint(() => {
      const build = nameTextSteps(data);
      cancelIdle = inIdleSteps([(d) => build(d), warmIndex(index)]);
    });
    return () => {
      cancelPaint();
      cancelIdle?.();
    };
  }, [data, index]);

  const zoom = useCallback(
    (node: number) => {
      const o = toOrig(node);
      setFocusO(o);
      setSelectedO(o);
      setMenu(undefined);
    },
    [toOrig]
  );
  const reset = useCallback(() => {
    setFocusO(0);
    setSelectedO(-1);
    setMenu(undefined);
  }, []);
  const openSandwich = useCallback((k: number) => {
    setSandwich(k);
    setMenu(undefined);
    setHover({ node: -1, x: 0, y: 0 });
  }, []);
  const closeSandwich = useCallback(() => setSandwich(undefined), []);
  const toggleChain = useCallback(
    (node: number, open: boolean) => {
      const o = collapsed ? collapsed.head[node] : node;
      setExpanded((e) => {
        const next = new Set(e.data === data ? e.heads : []);
        if (open) {
          next.add(o);
        } else {
          // closing: every opened chain this frame is in or under
          for (const x of [...next]) {
            if (isAncestorOrSelf(index, x, o)) {
              next.delete(x);
            }
          }
        }
        return { data, heads: next };
      });
      setMenu(undefined);
    },
    [collapsed, data, index]
  );
  const inOpenedChain = (node: number) => {
    const o = toOrig(node);
    for (const x of heads) {
      if (isAncestorOrSelf(index, x, o)) {
        return true;
      }
    }
    return false;
  };
  const sandwichOfSearch = () => {
    if (!searchResult) {
      return;
    }
    // the one the idle prefetch merged (searchName, once the deferred render has caught up with
    // the search), or worked out now
    const best =
      allRows && tableSearch === searchResult
        ? searchName
        : searchBest(allRows ?? topTable(index), searchResult.nameMatch);
    if (best >= 0) {
      openSandwich(best);
    }
  };
  const onSort = useCallback(
    (key: SortKey) => setSort((s) => ({ key, desc: s.key === key ? !s.desc : key !== 'name' })),
    []
  );
  const onSelectRow = useCallback((k: number) => setHighlight((h) => (h === k ? -1 : k)), []);
  const onHover = useCallback(
    (node: number, x: number, y: number) => setHover((h) => (h.node === node && node < 0 ? h : { node, x, y })),
    []
  );
  const onContextMenu = useCallback(
    (node: number, x: number, y: number) => {
      setSelectedO(toOrig(node));
      setMenu({ node, x, y });
    },
    [toOrig]
  );

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (sandwich !== undefined) {
      if (e.key === 'Escape') {
        closeSandwich();
        e.preventDefault();
      }
      return;
    }
    const { level, value } = shown.data;
    const cur = selected >= 0 ? selected : focus;
    const sameLevel = (dir: 1 | -1) => {
      const l = level[cur];
      const from = lowerBoundRow(shown, l, Math.max(focus, 0));
      const to = lowerBoundRow(shown, l, shown.end[focus]);
      const at = lowerBoundRow(shown, l, cur) + dir;
      return at >= from && at < to && level[focus] <= l ? shown.levelNodes[at] : cur;
    };
    let next = cur;
    switch (e.key) {
      case 'Escape':
        reset();
        setHighlight(-1);
        e.preventDefault();
        return;
      case 'ArrowUp':
        next = cur > focus && shown.parent[cur] >= 0 ? shown.parent[cur] : cur;
        break;
      case 'ArrowDown': {
        let best = -1;
        for (let c = cur + 1; c < shown.end[cur]; c = shown.end[c]) {
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
    setSelectedO(toOrig(next));
  };

  const copyName = (node: number) => {
    const name = shown.data.names[shown.data.nameIdx[node]];
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

  /** Empties the search box and the highlighted name, and the saved search with them. */
  const clearSearch = () => {
    setHighlight(-1);
    setSearch('');
    setOpt({ search: '' });
  };

  // inside the search box, at its right end (as Grafana's flame graph has its Clear there): what
  // the search or the highlighted name found, the sandwich of the best match, and Clear
  const searchSuffix =
    resultInfo || search ? (
      <>
        <span
          data-testid="flamegraph-search-result"
          title={resultInfo}
          style={{ minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' }}
        >
          {resultInfo}
        </span>
        {searchResult && searchResult.count > 0 && sandwich === undefined && (
          <IconButton
            name="gf-show-context"
            size="sm"
            data-testid="search-sandwich"
            aria-label="Sandwich view of the best match"
            tooltip="Sandwich view of the matching function with the largest total"
            onClick={sandwichOfSearch}
          />
        )}
        <IconButton name="times" size="sm" aria-label="Clear search" tooltip="Clear search" onClick={clearSearch} />
      </>
    ) : undefined;

  const probeNames = useMemo(
    () => (collapsed ? (s: number) => chainNames(collapsed, data, s) : undefined),
    [collapsed, data]
  );
  const crumbLabel = useMemo(
    () => (collapsed ? (s: number) => chainNames(collapsed, data, s).join(' › ') : undefined),
    [collapsed, data]
  );
  const hoverExtra = (node: number): Array<[string, string]> | undefined => {
    if (!collapsed || collapsed.frames[node] <= 1) {
      return undefined;
    }
    const names = chainNames(collapsed, data, node);
    return [['Collapsed', `${names.length} frames: ${names.join(' → ')}`]];
  };

  const enterSandwichFromHeader = () => {
    // in the call graph: the function picked there
    if (view === 'callgraph' && graphPick >= 0) {
      openSandwich(graphPick);
      return;
    }
    const node = selectedO >= 0 ? selectedO : focusO > 0 ? focusO : -1;
    if (node > 0) {
      openSandwich(data.nameIdx[node]);
      return;
    }
    // nothing picked: the function with the most self
    const best = (allRows ?? topTable(index)).reduce<TopRow | undefined>(
      (b, r) => (!b || r.self > b.self ? r : b),
      undefined
    );
    if (best) {
      openSandwich(best.nameIdx);
    }
  };

  // the header's controls are one memoised component (a zoom or hover does not re-render them)
  const actionRef = useRef<(a: HeaderAction) => void>(() => undefined);
  useLayoutEffect(() => {
    actionRef.current = (a: HeaderAction) => {
      switch (a.kind) {
        case 'view':
          if (a.view === 'sandwich') {
            enterSandwichFromHeader();
            return;
          }
          setSandwich(undefined);
          if (a.view === 'tree') {
            setTreeSeen(true);
          }
          setOpt({ viewMode: a.view, showTable: a.view === 'both' || a.view === 'table' ? true : opt.showTable });
          return;
        case 'collapse':
          setExpanded({ data, heads: new Set() });
          setOpt({ collapse: a.on });
          return;
        case 'options':
          setOpt(a.changed);
          return;
      }
    };
  });
  const onHeaderAction = useCallback((a: HeaderAction) => actionRef.current(a), []);
  const rootRef = useRef<HTMLDivElement>(null);

  if (data.count === 0) {
    return <div style={{ width, height, display: 'grid', placeItems: 'center' }}>No profile data</div>;
  }

  return (
    <div
      ref={rootRef}
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
        data-testid="flamegraph-header"
        style={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 6,
          alignItems: 'center',
          paddingBottom: HEADER_PAD,
          flex: 'none',
          minWidth: 0,
          boxSizing: 'border-box',
          minHeight: oneRowHeaderHeight(theme),
        }}
      >
        {
          <>
            {/* the search gives way first (to 150 px, its placeholder cut): the view, colour, align and
            collapse controls stay on one row with it down to a 1,200 px wide panel; what a search
            found and its buttons are inside its box, so typing moves nothing */}
            <div style={{ flex: '1 1 150px', minWidth: 0, maxWidth: 420 }}>
              <SearchInput
                data-testid="flamegraph-search"
                aria-label="Search functions"
                placeholder="Search: regex, or terms separated by commas"
                value={search}
                onChange={(e) => {
                  setSearch(e.currentTarget.value);
                  setHighlight(-1);
                }}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    setOpt({ search: e.currentTarget.value });
                    e.preventDefault();
                    e.stopPropagation();
                  } else if (e.key === 'Escape') {
                    clearSearch();
                    reset();
                    e.preventDefault();
                    e.stopPropagation();
                  }
                }}
                onBlur={(e) => {
                  if ((opt.search ?? '') !== e.currentTarget.value) {
                    setOpt({ search: e.currentTarget.value });
                  }
                }}
                suffix={searchSuffix}
              />
            </div>
            <Header
              view={sandwich !== undefined ? 'sandwich' : view}
              diff={diff}
              colorMode={opt.colorMode}
              colorBlindDiff={opt.colorBlindDiff}
              textAlign={opt.textAlign}
              collapse={collapse}
              onAction={onHeaderAction}
            />
            {diff && <DiffLegend colorBlind={opt.colorBlindDiff} />}
          </>
        }
      </div>
      <div style={{ display: 'flex', flex: '1 1 auto', minHeight: 0, height: bodyHeight }}>
        {showGraph && sandwichModel && (
          <SandwichView
            key={sandwichModel.depthLimit === undefined ? 'whole' : 'cut'}
            sandwich={sandwichModel}
            unit={data.unit}
            rootTotal={data.value[0]}
            width={graphWidth}
            height={bodyHeight}
            options={opt}
            darkTheme={dark}
            onExit={closeSandwich}
          />
        )}
        {showGraph && !sandwichModel && (
          <div style={{ display: 'flex', flexDirection: 'column', flex: 'none', width: graphWidth, minWidth: 0 }}>
            {crumbs && (
              <div
                style={{
                  display: 'flex',
                  alignItems: 'center',
                  height: crumbRow - HEADER_PAD,
                  marginBottom: HEADER_PAD,
                  flex: 'none',
                  minWidth: 0,
                  overflow: 'hidden',
                }}
              >
                <Breadcrumbs index={shown} focus={focus} onZoom={zoom} onReset={reset} labelOf={crumbLabel} />
              </div>
            )}
            <FlameCanvas
              index={shown}
              colors={colors}
              focus={focus}
              selected={selected}
              hovered={hover.node}
              nodeMatch={nodeMatch}
              width={graphWidth}
              height={bodyHeight - (crumbs ? crumbRow : 0)}
              minBarWidth={opt.minBarWidth}
              textAlign={opt.textAlign}
              darkTheme={dark}
              chains={collapsed}
              columns={columns}
              probeNames={probeNames}
              onHover={onHover}
              onClick={zoom}
              onContextMenu={onContextMenu}
            />
          </div>
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
        {showCallGraph && (
          <CallGraphView
            data={data}
            width={width}
            height={bodyHeight}
            matcher={matcher}
            nodeCount={opt.callGraphNodes}
            colorBlind={opt.colorBlindDiff}
            onPick={setGraphPick}
            onSandwich={(k) => {
              // the button that asked is gone with the graph: the view keeps the keyboard (Escape leaves)
              rootRef.current?.focus();
              openSandwich(k);
            }}
          />
        )}
        {(showTable || keepTable) && (
          <Kept hidden={!showTable}>
            <TopTable
              rows={rows}
              pending={table === undefined}
              unit={data.unit}
              rootTotal={data.value[0]}
              rootRight={rootRight}
              colorBlind={opt.colorBlindDiff}
              width={split ? tw : width}
              height={bodyHeight}
              sortKey={sort.key}
              descending={sort.desc}
              onSort={onSort}
              highlighted={highlight}
              onSelect={onSelectRow}
              onSandwich={openSandwich}
            />
          </Kept>
        )}
        {(showTree || keepTree) && (
          <Kept hidden={!showTree}>
            <CallTree
              index={shown}
              frames={collapsed?.frames}
              width={tw}
              height={bodyHeight}
              focus={focus}
              onSelect={zoom}
              colorBlind={opt.colorBlindDiff}
            />
          </Kept>
        )}
      </div>
      {hover.node >= 0 && !menu && showGraph && !sandwichModel && (
        <Tooltip
          index={shown}
          node={hover.node}
          focus={focus}
          clientX={hover.x}
          clientY={hover.y}
          dark={dark}
          extra={hoverExtra(hover.node)}
        />
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
                  setHighlight(shown.data.nameIdx[menu.node]);
                  setMenu(undefined);
                }}
              />
              <MenuItem
                label="Sandwich view"
                icon="gf-show-context"
                onClick={() => openSandwich(shown.data.nameIdx[menu.node])}
              />
              {collapsed && collapsed.frames[menu.node] > 1 && (
                <MenuItem
                  label={`Expand ${collapsed.frames[menu.node]} collapsed frames`}
                  icon="angle-double-down"
                  onClick={() => toggleChain(menu.node, true)}
                />
              )}
              {collapse && heads.size > 0 && inOpenedChain(menu.node) && (
                <MenuItem
                  label="Collapse this chain"
                  icon="angle-double-up"
                  onClick={() => toggleChain(menu.node, false)}
                />
              )}
              {view !== 'graph' && (
                <MenuItem
                  label="Show in table"
                  icon="table"
                  onClick={() => {
                    setHighlight(shown.data.nameIdx[menu.node]);
                    setSearch('');
                    if (!fits) {
                      setOpt({ viewMode: 'table' });
                    }
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

const EMPTY_SET: Set<number> = new Set();

/** The search's sandwich: the matching function with the largest total (-1 when none matches). */
function searchBest(rows: TopRow[], nameMatch: Uint8Array): number {
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

// the fully collapsed graph of an index, and the index of a collapsed graph, made once: switching
// collapse off and on again redraws without redoing either
const collapsedCache = new WeakMap<FlameIndex, Collapsed>();
const shownIndexCache = new WeakMap<Collapsed, FlameIndex>();

function collapsedOf(index: FlameIndex, heads: Set<number>): Collapsed {
  if (heads.size > 0) {
    return collapseChains(index, heads);
  }
  let c = collapsedCache.get(index);
  if (!c) {
    // made in idle time or when first read
    c = new LazyCollapsed(index.data);
    collapsedCache.set(index, c);
  }
  return c;
}

function shownIndexOf(c: Collapsed, index: FlameIndex): FlameIndex {
  let ix = shownIndexCache.get(c);
  if (!ix) {
    // the uncollapsed index itself when the collapse merged nothing
    ix = buildIndex(() => c.data, { later: true, sameAs: index });
    shownIndexCache.set(c, ix);
  }
  return ix;
}

/**
 * A drawer kept mounted while another is shown: out of the flow and invisible (so out of the
 * accessibility tree and of pointer events), but with its layout and scroll position kept, which
 * `display: none` would drop. Shown, it is a plain flex item of the body (`display: contents`).
 */
function Kept({ hidden, children }: { hidden: boolean; children: React.ReactNode }) {
  return (
    <div
      aria-hidden={hidden || undefined}
      style={
        hidden
          ? { position: 'absolute', visibility: 'hidden', contentVisibility: 'hidden', left: 0, top: 0 }
          : { display: 'contents' }
      }
    >
      {children}
    </div>
  );
}
