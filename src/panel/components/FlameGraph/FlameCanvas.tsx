// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { css, cx } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';
import { FlameIndex, indexReady } from '../../model/flameIndex';
import { NodeColors } from '../../model/colors';
import { TextAlign } from '../../types';
import { chainsOf } from '../../model/chains';
import { FlameData } from '../../../shared/flameData';
import { hitTest, LayoutParams, nodeX, rowY, subtreeDepth } from '../../model/layout';
import { drawFlame } from '../../render/draw';
import { giveCanvas, prepareCanvas, takeCanvas } from '../../render/canvasPool';

/** Height of one flamegraph row in CSS px. */
export const ROW_HEIGHT = 20;
/** Font of bar text (monospace, so text fits by counting characters). */
export const FONT =
  '12px ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace';

export interface FlameCanvasProps {
  index: FlameIndex;
  colors: NodeColors;
  focus: number;
  selected: number;
  hovered: number;
  nodeMatch?: Uint8Array;
  width: number;
  height: number;
  minBarWidth: number;
  textAlign: TextAlign;
  darkTheme: boolean;
  /** Collapsed chains: frames per bar (read when drawn from the index). */
  chains?: { readonly frames: Int32Array };
  /**
   * The graph's own columns, drawn straight (focus on the root, nothing searched) while the
   * index is not made yet: the first draw reads no index, so it is on screen before one is made
   * (in idle time after the paint, or at the first input that needs it). `collapsed` says the
   * index is the columns' graph with its chains collapsed; `colors` are by the columns' rows.
   */
  columns?: DrawnColumns;
  /** Collapsed chains: the names a bar holds, so the probe finds a frame merged into a bar. */
  probeNames?: (node: number) => string[];
  /** Grown upward: level 0 in the bottom row, each row above it one level further (a sandwich's callers). */
  inverted?: boolean;
  /** Test id of the drawing canvas (the sandwich view has two graphs). */
  testId?: string;
  onHover: (node: number, clientX: number, clientY: number) => void;
  onClick: (node: number) => void;
  onContextMenu: (node: number, clientX: number, clientY: number) => void;
}

/** See FlameCanvasProps.columns. */
export interface DrawnColumns {
  data: FlameData;
  collapsed: boolean;
  colors: NodeColors;
}

/** Whether the graph is drawn from its columns now (see FlameCanvasProps.columns). */
function fromColumns(p: FlameCanvasProps): DrawnColumns | undefined {
  return p.columns && p.focus === 0 && !p.inverted && p.nodeMatch === undefined && !indexReady(p.index)
    ? p.columns
    : undefined;
}

/** Test/automation hook set on the canvas element: where a node is drawn, in CSS px relative to the canvas. */
export interface CanvasProbe {
  rectOf: (name: string) => { x: number; y: number; width: number; height: number } | undefined;
}

let measuredCharWidth = 0;
function charWidth(ctx: CanvasRenderingContext2D): number {
  if (!measuredCharWidth) {
    ctx.font = FONT;
    const w = ctx.measureText('MMMMMMMMMM').width / 10;
    measuredCharWidth = w > 0 ? w : 7.2;
  }
  return measuredCharWidth;
}

/**
 * The flamegraph drawing area: a viewport-sized, HiDPI canvas for the bars and a second one for
 * hover/selection outlines, inside a scroller whose spacer is as tall as the whole graph. Only
 * the rows inside the viewport are drawn, so 5,000-level graphs scroll without huge canvases.
 */
export const FlameCanvas = React.memo(function FlameCanvas(props: FlameCanvasProps) {
  const { index, focus, width, height, onHover, onClick, onContextMenu } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const stickyRef = useRef<HTMLDivElement>(null);
  const baseRef = useRef<HTMLCanvasElement | null>(null);
  const scrollTop = useRef(0);
  const frame = useRef(0);
  const propsRef = useRef(props);
  // the draw callbacks read the latest props; updated before the drawing effects below run
  useLayoutEffect(() => {
    propsRef.current = props;
  });

  const columns = fromColumns(props);
  const depth = useMemo(
    () =>
      columns
        ? columns.collapsed
          ? chainsOf(columns.data).collapsedDepth
          : columns.data.maxLevel
        : subtreeDepth(index, focus),
    [index, focus, columns]
  );
  const contentHeight = (depth + 1) * ROW_HEIGHT;
  const viewHeight = Math.max(0, Math.min(height, contentHeight));
  // grown upward, a graph shorter than the view sits on the view's bottom edge
  const marginTop = props.inverted === true ? Math.max(0, height - contentHeight) : 0;
  const styles = useStyles2(getStyles, width, height, contentHeight, viewHeight, marginTop);
  // the bitmap is as tall as the box, whatever part of it the graph fills: a zoom, a collapse
  // switch or a reset that makes the graph shorter or taller then draws into the same bitmap
  // instead of allocating a new one (the first draw into a new bitmap and its upload cost 8–14
  // ms, two frames for a collapse switch on a shallow graph); prepareCanvas never shrinks it, and
  // the sticky box, as tall and wide as the graph, clips the rest
  const bitmapHeight = Math.max(0, height);
  const inverted = props.inverted === true;
  const layout: LayoutParams = useMemo(
    () => ({ focus, width, rowHeight: ROW_HEIGHT, flipAt: inverted ? depth : undefined }),
    [focus, width, inverted, depth]
  );
  // where the scroller starts: the top of the graph, or its bottom row when it grows upward
  const startTop = inverted ? Math.max(0, contentHeight - viewHeight) : 0;

  const drawBase = useCallback(() => {
    const p = propsRef.current;
    const canvas = baseRef.current;
    if (!canvas || p.width <= 0) {
      return;
    }
    const ctx = prepareCanvas(canvas, p.width, bitmapHeight);
    if (!ctx) {
      return;
    }
    const cols = fromColumns(p);
    drawFlame(ctx, {
      ...layout,
      index: p.index,
      columns: cols && { data: cols.data, chains: cols.collapsed ? chainsOf(cols.data) : undefined },
      colors: cols ? cols.colors : p.colors,
      height: viewHeight,
      scrollTop: scrollTop.current,
      minBarWidth: p.minBarWidth,
      textAlign: p.textAlign,
      nodeMatch: p.nodeMatch,
      darkTheme: p.darkTheme,
      font: FONT,
      charWidth: charWidth(ctx),
      frames: cols ? undefined : p.chains?.frames,
    });
  }, [layout, viewHeight, bitmapHeight]);

  // a new zoom starts at the top (at the bottom when grown upward). scrollTop.current follows the
  // scroller (onScroll), so nothing is written when the scroller is there already. The bars are
  // drawn at scrollTop.current into the sticky canvas, which sits at the scroller's top wherever the
  // scroller is, so the scroller itself is moved in the next frame: writing scrollTop now would lay
  // the page out at once, inside the commit (the whole page's layout on a first draw; 14 ms of a
  // sandwich's switch at 500k)
  useLayoutEffect(() => {
    if (scrollTop.current === startTop) {
      return;
    }
    scrollTop.current = startTop;
    const el = scrollRef.current;
    if (!el) {
      return;
    }
    if (typeof requestAnimationFrame !== 'function') {
      el.scrollTop = startTop;
      return;
    }
    const raf = requestAnimationFrame(() => {
      el.scrollTop = startTop;
    });
    return () => cancelAnimationFrame(raf);
  }, [focus, index, startTop]);

  // the drawing canvas comes from the pool (a graph unmounted just before, as the main graph when
  // a sandwich opens, or one made ahead in idle time) and goes back to it on unmount
  const testId = props.testId ?? 'flamegraph-canvas';
  useLayoutEffect(() => {
    const box = stickyRef.current;
    if (!box) {
      return;
    }
    const canvas = takeCanvas();
    canvas.setAttribute('data-testid', testId);
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', 'Flame graph');
    Object.assign(canvas.style, { position: 'absolute', left: '0px', top: '0px', display: 'block' });
    box.insertBefore(canvas, box.firstChild);
    baseRef.current = canvas;
    return () => {
      baseRef.current = null;
      giveCanvas(canvas);
    };
  }, [testId]);

  useLayoutEffect(drawBase, [
    testId,
    drawBase,
    props.colors,
    props.nodeMatch,
    props.minBarWidth,
    props.textAlign,
    props.darkTheme,
    props.chains,
    props.columns,
    index,
  ]);
  // redraw when the device pixel ratio changes (browser zoom, moving to another screen)
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') {
      return;
    }
    const mq = window.matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
    mq.addEventListener?.('change', drawBase);
    return () => mq.removeEventListener?.('change', drawBase);
  }, [drawBase]);

  // keep the selected node in view when the keyboard moves the selection
  useEffect(() => {
    const el = scrollRef.current;
    if (!el || props.selected < 0) {
      return;
    }
    const y = rowY(layout, index.data.level[props.selected]);
    if (y < el.scrollTop) {
      el.scrollTop = y;
    } else if (y + ROW_HEIGHT > el.scrollTop + el.clientHeight) {
      el.scrollTop = y + ROW_HEIGHT - el.clientHeight;
    }
  }, [props.selected, index, layout]);

  const onScroll = () => {
    const top = scrollRef.current?.scrollTop ?? 0;
    // the scroll event of the position set above (a new zoom) finds the graph drawn there already
    if (top === scrollTop.current) {
      return;
    }
    scrollTop.current = top;
    if (!frame.current) {
      frame.current = requestAnimationFrame(() => {
        frame.current = 0;
        drawBase();
      });
    }
  };
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  const nodeAt = (e: React.MouseEvent) => {
    const canvas = baseRef.current;
    if (!canvas) {
      return -1;
    }
    const r = canvas.getBoundingClientRect();
    return hitTest(index, layout, e.clientX - r.left, e.clientY - r.top + scrollTop.current);
  };

  // expose where nodes are drawn, for browser tests and benchmarks
  useEffect(() => {
    const canvas = baseRef.current as (HTMLCanvasElement & { emberscope?: CanvasProbe }) | null;
    if (!canvas) {
      return;
    }
    canvas.emberscope = {
      rectOf: (name) => {
        const k = index.data.names.indexOf(name);
        const held = propsRef.current.probeNames;
        let best = -1;
        for (let i = focus; k >= 0 && i < index.end[focus]; i++) {
          const has = index.data.nameIdx[i] === k || (held !== undefined && held(i).includes(name));
          if (has && (best < 0 || index.data.value[i] > index.data.value[best])) {
            best = i;
          }
        }
        if (best < 0) {
          return undefined;
        }
        const { x, width: w } = nodeX(index, layout, best);
        return { x, y: rowY(layout, index.data.level[best]) - scrollTop.current, width: w, height: ROW_HEIGHT };
      },
    };
  }, [index, focus, layout, testId]);

  // the hovered and the selected bar are outlined by a box over the graph, placed where the bar
  // is in the scrolled content (so the scroller moves it with the bars): an outline costs no
  // bitmap of its own (a second viewport-sized canvas allocated on the first hover or zoom was
  // 10 ms of that input and a larger compositor commit at 500k nodes)
  const outline = (i: number, lw: number, color: string) => {
    if (i < 0 || i >= index.data.count) {
      return null;
    }
    const { x, width: w } = nodeX(index, layout, i);
    if (w <= 0) {
      return null;
    }
    return (
      <div
        data-testid={lw === 2 ? 'flamegraph-selected' : 'flamegraph-hovered'}
        className={cx(
          styles.outline,
          // the bar's own place and the outline's colour: a class per outlined bar (emotion keeps them)
          css({
            left: x,
            top: rowY(layout, index.data.level[i]),
            width: Math.max(lw, w - 1),
            border: `${lw}px solid ${color}`,
          })
        )}
      />
    );
  };

  return (
    <div ref={scrollRef} data-testid="flamegraph-scroll" onScroll={onScroll} className={styles.scroll}>
      <div className={styles.content}>
        <div ref={stickyRef} className={styles.sticky}>
          <div
            data-testid={testId.replace(/-canvas$/, '-hit')}
            className={cx(styles.hit, props.hovered >= 0 && styles.onBar)}
            onMouseMove={(e) => onHover(nodeAt(e), e.clientX, e.clientY)}
            onMouseLeave={(e) => onHover(-1, e.clientX, e.clientY)}
            onClick={(e) => {
              const n = nodeAt(e);
              if (n >= 0) {
                onClick(n);
              }
            }}
            onContextMenu={(e) => {
              const n = nodeAt(e);
              if (n >= 0) {
                e.preventDefault();
                onContextMenu(n, e.clientX, e.clientY);
              }
            }}
          />
        </div>
        {outline(props.selected, 2, props.darkTheme ? '#ffffff' : '#111111')}
        {props.hovered !== props.selected &&
          outline(props.hovered, 1, props.darkTheme ? 'rgba(255,255,255,0.8)' : 'rgba(0,0,0,0.7)')}
      </div>
    </div>
  );
});

/** The scroller's, the graph's and the sticky view's sizes (each remade only when it changes). */
const getStyles = (
  _theme: GrafanaTheme2,
  width: number,
  height: number,
  contentHeight: number,
  viewHeight: number,
  marginTop: number
) => ({
  scroll: css({ width, height, overflowY: 'auto', overflowX: 'hidden', position: 'relative' }),
  content: css({ height: contentHeight, position: 'relative', marginTop }),
  sticky: css({ position: 'sticky', top: 0, height: viewHeight, width, overflow: 'hidden' }),
  hit: css({ position: 'absolute', left: 0, top: 0, width, height: viewHeight, cursor: 'default' }),
  onBar: css({ cursor: 'pointer' }),
  outline: css({ position: 'absolute', height: ROW_HEIGHT - 1, boxSizing: 'border-box', pointerEvents: 'none' }),
});
