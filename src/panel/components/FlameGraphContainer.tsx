// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef } from 'react';
import { css, cx } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2, useTheme2 } from '@grafana/ui';
import { FlameData, percentBase } from '../../shared/flameData';
import { buildIndex, FlameIndex } from '../model/flameIndex';
import { topColumns, TopRow } from '../model/topTable';
import { bestBy } from '../model/topRows';
import { effectiveView } from '../options';
import { ViewOptions } from '../types';
import { CallGraphView } from './CallGraph/CallGraphView';
import { CallTree } from './CallTree/CallTree';
import { bodyLayout, DrawerHandle, Kept } from './Drawer';
import { FlameGraphPane } from './FlameGraph/FlameGraphPane';
import { arrowTarget } from './FlameGraph/keyboard';
import { useShownGraph } from './FlameGraph/useShownGraph';
import { FlameGraphHeader, oneRowHeaderHeight } from './Header/FlameGraphHeader';
import { HeaderAction } from './Header/headerOptions';
import { useSearch } from './Header/useSearch';
import { useShownProfile } from './Header/useShownProfile';
import { SandwichView } from './Sandwich/SandwichView';
import { sandwichCutFor, usePrefetchSandwiches, useSandwich } from './Sandwich/useSandwich';
import { SandwichPending } from './Sandwich/SandwichPending';
import {
  initialViewState,
  openSandwichName,
  savedOptions,
  shownData,
  ViewAction,
  viewReducer,
  ViewState,
} from './state';
import { loadNumber, saveNumber, TABLE_WIDTH_KEY } from './storage';
import { searchBest, useTopTable } from './TopTable/useTopTable';
import { TopTable } from './TopTable/TopTable';
import { useElementHeight } from './useElementSize';
import { focusNotice, sandwichNotice } from './focus/FocusNotice';
import { SandwichFetcher } from './Sandwich/fetchedSandwich';
import { useSandwichFetch } from './Sandwich/useSandwichFetch';
import { CallSiteFetcher, useFocusFetch } from './focus/useFocusFetch';
import { decodeLink, encodeLink, linkOf, ViewLink } from './focus/viewLink';
import { useOpenedLink } from './focus/useOpenedLink';
import { useSizeClass } from './sizeStyles';

export { HANDLE_WIDTH, MIN_GRAPH_WIDTH, MIN_TABLE_WIDTH } from './Drawer';

/** The top table's rows before they are summed (it shows its box alone). */
const NO_ROWS: TopRow[] = [];

export interface FlameGraphContainerProps {
  data: FlameData;
  width: number;
  height: number;
  options: ViewOptions;
  /** Saves what the header changes as panel options (Grafana's onOptionsChange). */
  onOptionsChange?: (changed: Partial<ViewOptions>) => void;
  /** Whether data was cut at maxNodes (the frame's meta.custom.truncated). */
  cut?: boolean;
  /** Asks for a call site at full resolution, for a zoom into what the cut left out. */
  fetchCallSite?: CallSiteFetcher;
  /** Asks for a function's sandwich merged at full resolution, for a sandwich opened on a cut graph. */
  fetchSandwich?: SandwichFetcher;
  /** What a link opened shows: the view opens as it was seen; a different one later is opened on the view. */
  link?: ViewLink;
  /** Told what the view shows whenever that changes, for the host to keep in its address. */
  onLinkChange?: (link: ViewLink) => void;
  /** The address that reopens link, for the header's "Copy link" (none: no button). */
  linkUrl?: (link: ViewLink) => string;
}

const getStyles = (theme: GrafanaTheme2) => ({
  root: css({
    display: 'flex',
    flexDirection: 'column',
    outline: 'none',
    overflow: 'hidden',
    color: theme.colors.text.primary,
  }),
  body: css({ display: 'flex', flex: '1 1 auto', minHeight: 0 }),
  empty: css({ display: 'grid', placeItems: 'center' }),
});

/**
 * The view's state and its actions. A new profile or a search saved elsewhere (the panel editor)
 * is an action too, taken in the render that sees it. An action that changes a panel option is
 * also handed to the host to save.
 */
function useViewState(
  data: FlameData,
  options: ViewOptions,
  onOptionsChange?: (c: Partial<ViewOptions>) => void,
  link?: ViewLink
) {
  const [stored, dispatch] = useReducer(viewReducer, undefined, () =>
    initialViewState(data, {
      search: options.search,
      drawerWidth: loadNumber(TABLE_WIDTH_KEY),
      view: effectiveView({ viewMode: options.viewMode ?? 'both', showTable: options.showTable }),
      link,
    })
  );
  let state = stored;
  const take = (a: ViewAction) => {
    dispatch(a);
    state = viewReducer(state, a);
  };
  if (state.data !== data) {
    take({ type: 'newProfile', data });
  }
  if (state.savedSearch !== options.search) {
    take({ type: 'savedSearch', search: options.search });
  }
  const act = useCallback(
    (a: ViewAction) => {
      dispatch(a);
      const saved = savedOptions(a);
      if (saved) {
        onOptionsChange?.(saved);
      }
    },
    [onOptionsChange]
  );
  return [state, act] as const;
}

/**
 * The flame graph view shared by the panel, the app and the playground: the header (search and
 * view switch), the body (the flame graph pane, the sandwich, the call graph, the top table or the
 * call tree in a resizable drawer) and the keyboard. It owns the view's state; the panes draw it.
 */
export function FlameGraphContainer(props: FlameGraphContainerProps) {
  const { width, height, options } = props;
  // ignore, hide, relative and inverted reshape the profile before the view sees it
  const shownProfile = useShownProfile(props.data, options, props.onOptionsChange);
  const { onOptionsChange } = shownProfile;
  const theme = useTheme2();
  const styles = useStyles2(getStyles);
  const [state, act] = useViewState(shownProfile.data, options, onOptionsChange, props.link);
  useOpenedLink(props.link, act);
  // an inverted graph's paths start at leaves, which no server selects by: it is not re-asked
  const inverted = shownProfile.choices.inverted;
  useFocusFetch(state, (props.cut ?? false) && !inverted, props.fetchCallSite, act);
  // the graph drawn: a call site fetched at full resolution, or the profile
  const data = shownData(state);
  // the top table follows a fetched focus; otherwise it reads the profile the right way up
  const tableData = state.fetched ? data : shownProfile.table;
  const link = linkOf(state, data, { ...options, ...state.local });
  const linkText = encodeLink(link);
  const { onLinkChange, linkUrl } = props;
  const firstLink = useRef(linkText);
  useEffect(() => {
    // written once the user changes the view (an untouched view leaves the address alone), and
    // not while a link's path is still being fetched
    if (linkText !== firstLink.current && !state.pendingPath) {
      firstLink.current = '';
      onLinkChange?.(decodeLink(linkText) ?? {});
    }
  }, [linkText, onLinkChange, state.pendingPath]);
  const copyLink = useCallback(() => (linkUrl ? linkUrl(decodeLink(linkText) ?? {}) : ''), [linkUrl, linkText]);
  const opt: ViewOptions = { ...options, ...state.local };
  const view = effectiveView({ viewMode: opt.viewMode ?? 'both', showTable: opt.showTable });
  const collapse = opt.collapse ?? true;
  const diff = data.valueRight !== undefined;
  const look = { colorMode: opt.colorMode, colorBlindDiff: opt.colorBlindDiff };

  const graph = useShownGraph(data, collapse, state.expanded, look);
  const { index, shown } = graph;
  const found = useSearch(data, index, graph.collapsed, state.search, state.highlight);

  const headerRef = useRef<HTMLDivElement>(null);
  // the canvas is sized in the first render from the header's one-row height, without reading
  // the layout; a header that wraps is measured after the layout and redrawn before the paint
  const headerHeight = useElementHeight(headerRef, oneRowHeaderHeight(theme));
  const bodyHeight = Math.max(40, height - headerHeight);
  const sandwichOpen = state.sandwich !== undefined;
  const layout = bodyLayout(view, sandwichOpen, width, state.drawerWidth);

  // the top table and the sandwich read the graph the right way up, inverted or not
  const tableIndex = useMemo(() => (tableData === data ? index : buildIndex(tableData)), [tableData, data, index]);
  const table = useTopTable(tableData, tableIndex, layout.showTable, state.sort, found.searchResult);
  const { sortedRows, tableSearch } = table;
  const summed = table.table;
  // A drawer once shown stays mounted, hidden, while the other one is open: switching back shows
  // it with its rows, scroll and sort as left. (The table counts as seen once its rows are summed,
  // the tree once the header has switched to it or the panel opened on it.)
  const keepTable = !layout.showTable && layout.split && layout.drawer === 'tree' && summed !== undefined;
  const keepTree = !layout.showTree && layout.split && layout.drawer === 'table' && state.treeSeen;

  const cut = sandwichCutFor(bodyHeight, data.maxLevel);
  // on a cut graph the open sandwich is asked of the backend, merged at full resolution
  useSandwichFetch(state, (props.cut ?? false) && !inverted && !diff, props.fetchSandwich, act);
  const sandwichFetched = state.sandwichFetched?.name === openSandwichName(state) ? state.sandwichFetched : undefined;
  const localSandwich = useSandwich(tableIndex, sandwichFetched ? undefined : state.sandwich, cut, look);
  const sandwichModel = sandwichFetched?.sandwich ?? localSandwich;
  // the sandwiches a click may open next: the open context menu's function, the top table's
  // first row's (its button, and the header's pick with nothing selected) and the search's best
  const menu = state.menu;
  const menuName = menu && menu.node >= 0 && menu.node < shown.data.count ? shown.data.nameIdx[menu.node] : -1;
  const searchName = tableSearch && summed ? searchBest(summed, tableSearch.nameMatch) : -1;
  const firstRowName = sortedRows && sortedRows.length > 0 ? sortedRows.order[0] : -1;
  usePrefetchSandwiches(tableIndex, [menuName, firstRowName, searchName], sandwichOpen, cut, look);

  const sandwichOfSearch = () => {
    const result = found.searchResult;
    if (!result) {
      return;
    }
    // the one the prefetch merged (once the deferred render has caught up), or worked out now
    const best =
      summed && tableSearch === result ? searchName : searchBest(summed ?? topColumns(tableIndex), result.nameMatch);
    if (best >= 0) {
      act({ type: 'openSandwich', name: best });
    }
  };
  /** The header's sandwich: of the call graph's pick, the selected or zoomed bar, else the most self. */
  const headerSandwichName = (): number => {
    if (view === 'callgraph' && state.graphPick >= 0) {
      return state.graphPick;
    }
    const node = state.selected >= 0 ? state.selected : state.focus > 0 ? state.focus : -1;
    if (node > 0) {
      return data.nameIdx[node];
    }
    return bestBy(summed ?? topColumns(tableIndex), 'self');
  };

  // the header's controls are memoised: their callback stays the same and reads the latest render
  const onHeaderActionRef = useRef<(a: HeaderAction) => void>(() => undefined);
  useLayoutEffect(() => {
    onHeaderActionRef.current = (a: HeaderAction) => {
      if (a.kind === 'view') {
        if (a.view === 'sandwich') {
          const name = headerSandwichName();
          if (name >= 0) {
            act({ type: 'openSandwich', name });
          }
          return;
        }
        const showTable = a.view === 'both' || a.view === 'table' ? true : opt.showTable;
        act({ type: 'setView', view: a.view, showTable });
      } else if (a.kind === 'collapse') {
        act({ type: 'setCollapse', on: a.on });
      } else {
        act({ type: 'setOptions', changed: a.changed });
      }
    };
  });
  const onHeaderAction = useCallback((a: HeaderAction) => onHeaderActionRef.current(a), []);
  const rootRef = useRef<HTMLDivElement>(null);
  const size = useSizeClass(width, height);
  const bodySize = useSizeClass(undefined, bodyHeight);
  // stable: the call graph resets its pick when this callback changes
  const onGraphPick = useCallback((name: number) => act({ type: 'pickInGraph', name }), [act]);

  if (data.count === 0) {
    return <div className={cx(styles.empty, size)}>No profile data</div>;
  }

  return (
    <div
      ref={rootRef}
      data-testid="flamegraph-view"
      tabIndex={0}
      onKeyDown={(e) => onKeyDown(e, state, graph.shown, graph.toShown, graph.toOrig, act)}
      className={cx(styles.root, size)}
    >
      <FlameGraphHeader
        ref={headerRef}
        view={sandwichOpen ? 'sandwich' : view}
        diff={diff}
        colorMode={opt.colorMode}
        colorBlindDiff={opt.colorBlindDiff}
        textAlign={opt.textAlign}
        collapse={collapse}
        search={state.search}
        savedSearch={opt.search ?? ''}
        resultInfo={found.resultInfo}
        canSandwichSearch={!!found.searchResult && found.searchResult.count > 0 && !sandwichOpen}
        onSandwichSearch={sandwichOfSearch}
        onHeaderAction={onHeaderAction}
        onCopyLink={linkUrl ? copyLink : undefined}
        act={act}
        sampleFilters={shownProfile.choices}
      />
      <div className={cx(styles.body, bodySize)}>
        {layout.showGraph && sandwichModel && (
          <SandwichView
            key={sandwichModel.depthLimit === undefined ? 'whole' : 'cut'}
            sandwich={sandwichModel}
            unit={data.unit}
            rootTotal={percentBase(data)}
            width={layout.graphWidth}
            height={bodyHeight}
            options={opt}
            darkTheme={theme.isDark}
            onExit={() => act({ type: 'closeSandwich' })}
            notice={sandwichNotice(state)}
          />
        )}
        {layout.showGraph && sandwichOpen && !sandwichModel && (
          <SandwichPending
            name={data.names[state.sandwich!]}
            width={layout.graphWidth}
            height={bodyHeight}
            onExit={() => act({ type: 'closeSandwich' })}
          />
        )}
        {layout.showGraph && !sandwichOpen && (
          <FlameGraphPane
            graph={graph}
            state={state}
            collapse={collapse}
            nodeMatch={found.nodeMatch}
            width={layout.graphWidth}
            height={bodyHeight}
            minBarWidth={opt.minBarWidth}
            textAlign={opt.textAlign}
            dark={theme.isDark}
            tableOffered={view !== 'graph'}
            tableElsewhere={!layout.fits}
            notice={focusNotice(state)}
            noCallPaths={inverted || diff}
            act={act}
          />
        )}
        {layout.split && (
          <DrawerHandle
            width={layout.drawerWidth}
            max={layout.maxDrawerWidth}
            onResize={(w) => act({ type: 'resizeDrawer', width: w })}
            onDone={(w) => saveNumber(TABLE_WIDTH_KEY, w)}
          />
        )}
        {layout.showCallGraph && (
          <CallGraphView
            data={data}
            width={width}
            height={bodyHeight}
            matcher={found.matcher}
            nodeCount={opt.callGraphNodes}
            colorBlind={opt.colorBlindDiff}
            onPick={onGraphPick}
            onSandwich={(name) => {
              // the button that asked is gone with the graph: the view keeps the keyboard (Escape leaves)
              rootRef.current?.focus();
              act({ type: 'openSandwich', name });
            }}
          />
        )}
        {(layout.showTable || keepTable) && (
          <Kept hidden={!layout.showTable}>
            <TopTable
              rows={table.rows ?? NO_ROWS}
              pending={summed === undefined}
              unit={data.unit}
              rootTotal={percentBase(data)}
              rootRight={data.valueRight ? data.valueRight[0] : undefined}
              colorBlind={opt.colorBlindDiff}
              width={layout.split ? layout.drawerWidth : width}
              height={bodyHeight}
              sortKey={state.sort.key}
              descending={state.sort.desc}
              onSort={(key) => act({ type: 'sort', key })}
              highlighted={state.highlight}
              onSelect={(name) => act({ type: 'toggleHighlight', name })}
              onSandwich={(name) => act({ type: 'openSandwich', name })}
            />
          </Kept>
        )}
        {(layout.showTree || keepTree) && (
          <Kept hidden={!layout.showTree}>
            <CallTree
              index={shown}
              frames={graph.collapsed?.frames}
              width={layout.drawerWidth}
              height={bodyHeight}
              focus={graph.toShown(state.focus)}
              onSelect={(node) => act({ type: 'zoom', node: graph.toOrig(node) })}
              colorBlind={opt.colorBlindDiff}
            />
          </Kept>
        )}
      </div>
    </div>
  );
}

/**
 * The view's keys: in a sandwich, Escape leaves it; in the graph, Escape unzooms and drops the
 * highlight, the arrows move the selection and Enter zooms to it.
 */
function onKeyDown(
  e: React.KeyboardEvent,
  state: ViewState,
  shown: FlameIndex,
  toShown: (o: number) => number,
  toOrig: (s: number) => number,
  act: (a: ViewAction) => void
) {
  if (state.sandwich !== undefined) {
    if (e.key === 'Escape') {
      act({ type: 'closeSandwich' });
      e.preventDefault();
    }
    return;
  }
  const focus = toShown(state.focus);
  const selected = toShown(state.selected);
  if (e.key === 'Escape') {
    act({ type: 'reset', unhighlight: true });
  } else if (e.key === 'Enter') {
    if (selected >= 0) {
      act({ type: 'zoom', node: toOrig(selected) });
    }
  } else {
    const next = arrowTarget(shown, focus, selected, e.key);
    if (next === undefined) {
      return;
    }
    act({ type: 'select', node: toOrig(next) });
  }
  e.preventDefault();
}
