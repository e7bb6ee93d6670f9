// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';
import { ViewMode } from '../types';

/** Narrowest the graph and the drawer may get side by side; below their sum the view switch shows one at a time. */
export const MIN_GRAPH_WIDTH = 320;
export const MIN_TABLE_WIDTH = 260;
export const HANDLE_WIDTH = 8;

/** What the body shows at a width: which views, and the drawer's width beside the graph. */
export interface BodyLayout {
  showGraph: boolean;
  showCallGraph: boolean;
  showTable: boolean;
  showTree: boolean;
  /** The drawer (top table or call tree) is beside the graph, with a handle between. */
  split: boolean;
  drawer?: 'table' | 'tree';
  /** The graph and the drawer fit side by side at this width. */
  fits: boolean;
  drawerWidth: number;
  maxDrawerWidth: number;
  graphWidth: number;
}

/**
 * The body's layout for `view` at `width`. An open sandwich takes the graph's place, with the top
 * table beside it where both fit (not when opened from the table alone).
 */
export function bodyLayout(view: ViewMode, sandwich: boolean, width: number, draggedWidth?: number): BodyLayout {
  const fits = width >= MIN_GRAPH_WIDTH + MIN_TABLE_WIDTH + HANDLE_WIDTH;
  const drawer = sandwich
    ? fits
      ? 'table'
      : undefined
    : view === 'both'
      ? 'table'
      : view === 'tree'
        ? 'tree'
        : undefined;
  const split = drawer !== undefined && fits && view !== 'table';
  const maxDrawerWidth = width - MIN_GRAPH_WIDTH - HANDLE_WIDTH;
  const drawerWidth = split
    ? Math.round(Math.max(MIN_TABLE_WIDTH, Math.min(maxDrawerWidth, draggedWidth ?? width * 0.36)))
    : 0;
  return {
    showGraph: (view !== 'table' && view !== 'callgraph') || sandwich,
    showCallGraph: view === 'callgraph' && !sandwich,
    showTable: (view === 'table' && !sandwich) || (split && drawer === 'table'),
    showTree: split && drawer === 'tree',
    split,
    drawer,
    fits,
    drawerWidth,
    maxDrawerWidth,
    graphWidth: split ? width - drawerWidth - HANDLE_WIDTH : width,
  };
}

const getStyles = (theme: GrafanaTheme2) => ({
  handle: css({
    width: HANDLE_WIDTH,
    cursor: 'col-resize',
    flex: 'none',
    display: 'flex',
    justifyContent: 'center',
    touchAction: 'none',
  }),
  line: css({ width: 2, height: '100%', background: theme.colors.border.medium }),
  kept: css({ display: 'contents' }),
  hidden: css({ position: 'absolute', visibility: 'hidden', contentVisibility: 'hidden', left: 0, top: 0 }),
});

/**
 * The handle between the graph and the drawer: dragging it sets the drawer's width (between
 * `MIN_TABLE_WIDTH` and `max`), and `onDone` gets the last width when the pointer is let go.
 */
export function DrawerHandle(props: {
  width: number;
  max: number;
  onResize: (width: number) => void;
  onDone: (width: number) => void;
}) {
  const styles = useStyles2(getStyles);
  const startDrag = (e: React.PointerEvent<HTMLDivElement>) => {
    const { width: startW, max, onResize, onDone } = props;
    const startX = e.clientX;
    const target = e.currentTarget;
    target.setPointerCapture?.(e.pointerId);
    let last = startW;
    const move = (ev: PointerEvent) => {
      last = Math.max(MIN_TABLE_WIDTH, Math.min(max, startW - (ev.clientX - startX)));
      onResize(last);
    };
    const up = () => {
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', up);
      target.removeEventListener('pointercancel', up);
      onDone(last);
    };
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', up);
    target.addEventListener('pointercancel', up);
    e.preventDefault();
  };
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize top table"
      data-testid="drawer-handle"
      onPointerDown={startDrag}
      className={styles.handle}
    >
      <div className={styles.line} />
    </div>
  );
}

/**
 * A drawer kept mounted while another is shown: out of the flow and invisible (so out of the
 * accessibility tree and of pointer events), but with its layout and scroll position kept, which
 * `display: none` would drop. Shown, it is a plain flex item of the body (`display: contents`).
 */
export function Kept({ hidden, children }: { hidden: boolean; children: React.ReactNode }) {
  const styles = useStyles2(getStyles);
  return (
    <div aria-hidden={hidden || undefined} className={hidden ? styles.hidden : styles.kept}>
      {children}
    </div>
  );
}
