// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useCallback, useMemo } from 'react';
import { css, cx } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2, useTheme2 } from '@grafana/ui';
import { TextAlign } from '../../types';
import { ViewAction, ViewState } from '../state';
import { FocusNotice, FocusNoticeText } from '../focus/FocusNotice';
import { Breadcrumbs } from './Breadcrumbs';
import { DrawnColumns, FlameCanvas } from './FlameCanvas';
import { FlameContextMenu } from './FlameContextMenu';
import { OverTimeOff } from '../OverTime';
import { Tooltip } from './Tooltip';
import { useSizeClass } from '../sizeStyles';
import { ShownGraph } from './useShownGraph';

/** Space under the header's rows, in CSS px. */
export const ROW_PAD = 6;

/** The zoom path's row over the graph: a small @grafana/ui button's height and the padding under it. */
export const crumbRowHeight = (theme: GrafanaTheme2) => theme.spacing.gridSize * theme.components.height.sm + ROW_PAD;

const getStyles = (theme: GrafanaTheme2) => ({
  pane: css({ display: 'flex', flexDirection: 'column', flex: 'none', minWidth: 0 }),
  crumbs: css({
    display: 'flex',
    alignItems: 'center',
    height: crumbRowHeight(theme) - ROW_PAD,
    marginBottom: ROW_PAD,
    flex: 'none',
    minWidth: 0,
    overflow: 'hidden',
  }),
});

export interface FlameGraphPaneProps {
  graph: ShownGraph;
  state: Pick<ViewState, 'focus' | 'selected' | 'hover' | 'menu' | 'expanded'>;
  collapse: boolean;
  /** Marked nodes of the drawn graph (search or highlight). */
  nodeMatch?: Uint8Array;
  width: number;
  height: number;
  minBarWidth: number;
  textAlign: TextAlign;
  dark: boolean;
  /** See FlameContextMenuProps. */
  tableOffered: boolean;
  tableElsewhere: boolean;
  /** What the zoom path's row says of a call site fetched at full resolution. */
  notice?: FocusNoticeText;
  /** The graph's paths do not start at the root (inverted, or a diff): no "Show over time". */
  noCallPaths?: boolean;
  act: (a: ViewAction) => void;
}

/**
 * The flame graph with what acts on its bars: the zoom path (over the graph while zoomed, a row of
 * fixed height so a zoom sizes the graph in the same render), the canvas, the tooltip and the
 * context menu.
 */
export function FlameGraphPane(props: FlameGraphPaneProps) {
  const { graph, state, collapse, nodeMatch, width, height, dark, act } = props;
  const { shown, collapsed, toShown, toOrig, colors, baseColors, chainNamesOf } = graph;
  const styles = useStyles2(getStyles);
  const size = useSizeClass(width);
  const crumbRow = crumbRowHeight(useTheme2());
  const focus = toShown(state.focus);
  const selected = toShown(state.selected);
  const crumbs = focus > 0;
  // the whole graph as the frame's columns, drawn from them until the index is made (not with a
  // chain expanded, nor with marks, which are by the index's nodes)
  const data = graph.index.data;
  const columns = useMemo<DrawnColumns | undefined>(
    () => (state.expanded.size === 0 && !nodeMatch ? { data, collapsed: collapse, colors: baseColors } : undefined),
    [state.expanded, nodeMatch, data, collapse, baseColors]
  );
  const crumbLabel = useMemo(
    () => (chainNamesOf ? (s: number) => chainNamesOf(s).join(' › ') : undefined),
    [chainNamesOf]
  );
  const zoom = useCallback((node: number) => act({ type: 'zoom', node: toOrig(node) }), [act, toOrig]);
  const reset = useCallback(() => act({ type: 'reset' }), [act]);
  const onHover = useCallback((node: number, x: number, y: number) => act({ type: 'hover', node, x, y }), [act]);
  const onContextMenu = useCallback(
    (node: number, x: number, y: number) => act({ type: 'openMenu', node, orig: toOrig(node), x, y }),
    [act, toOrig]
  );
  const hoverExtra = (node: number): Array<[string, string]> | undefined => {
    if (!collapsed || !chainNamesOf || collapsed.frames[node] <= 1) {
      return undefined;
    }
    const names = chainNamesOf(node);
    return [['Collapsed', `${names.length} frames: ${names.join(' → ')}`]];
  };
  const { hover, menu } = state;
  return (
    <div className={cx(styles.pane, size)}>
      {crumbs && (
        <div className={styles.crumbs}>
          <Breadcrumbs index={shown} focus={focus} onZoom={zoom} onReset={reset} labelOf={crumbLabel} />
          {props.notice && <FocusNotice notice={props.notice} />}
        </div>
      )}
      <FlameCanvas
        index={shown}
        colors={colors}
        focus={focus}
        selected={selected}
        hovered={hover.node}
        nodeMatch={nodeMatch}
        width={width}
        height={height - (crumbs ? crumbRow : 0)}
        minBarWidth={props.minBarWidth}
        textAlign={props.textAlign}
        darkTheme={dark}
        chains={collapsed}
        columns={columns}
        probeNames={chainNamesOf}
        onHover={onHover}
        onClick={zoom}
        onContextMenu={onContextMenu}
      />
      {hover.node >= 0 && !menu && (
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
        <OverTimeOff off={props.noCallPaths ?? false}>
          <FlameContextMenu
            graph={graph}
            menu={menu}
            expanded={state.expanded}
            collapse={collapse}
            tableOffered={props.tableOffered}
            tableElsewhere={props.tableElsewhere}
            act={act}
          />
        </OverTimeOff>
      )}
    </div>
  );
}
