// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useEffect, useMemo, useRef, useState } from 'react';
import { css, cx } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { Button, useStyles2, useTheme2 } from '@grafana/ui';
import { FlameData } from '../../../shared/flameData';
import { CallGraph } from '../../model/callGraph';
import { ARROW_FONT, percent, PlacedGraph, pprofColor } from '../../model/callGraphLayout';
import { Matcher } from '../../model/search';
import { arrowHead, arrowPath, FONT_FAMILY } from './svg';
import { useSizeClass } from '../sizeStyles';

export interface CallGraphViewProps {
  data: FlameData;
  width: number;
  height: number;
  /** The header's search: matching functions stand out, the others are dimmed. */
  matcher?: Matcher;
  /** How many functions the graph keeps at most (pprof's -nodecount; 1 to MAX_CALL_GRAPH_NODES). */
  nodeCount?: number;
  /** Opens the sandwich of a function (by its index in data.names). */
  onSandwich: (nameIdx: number) => void;
  /** A diff in the colour-blind palette (orange grew, blue shrank) instead of pprof's red and green. */
  colorBlind?: boolean;
  /** Tells which function is picked (its index in data.names; -1: none), for the header's Sandwich. */
  onPick?: (nameIdx: number) => void;
}

/** The legend row's height, in CSS px. */
const LEGEND = 28;
const MIN_SCALE = 0.05;
/** Graphviz draws pprof's point sizes at 96 px per 72 pt. */
const NATIVE = 96 / 72;
const MAX_SCALE = 8;

export function CallGraphPicture({
  data,
  width,
  height,
  matcher,
  onSandwich,
  onPick,
  colorBlind = false,
  graph,
  placed,
  format,
}: CallGraphViewProps & { graph: CallGraph; placed: PlacedGraph; format: (v: number) => string }) {
  const theme = useTheme2();
  const styles = useStyles2(getStyles);
  const size = useSizeClass(width, height);
  const dark = theme.isDark;
  const diff = data.valueRight !== undefined;
  // a picked function's index in data.names, looked up at the pick (a map of every name would
  // cost a pass over the frame's names in the render that shows the graph)
  const nameIdx = (name: string) => {
    const k = data.names.indexOf(name);
    return k >= 0 ? k : undefined;
  };

  const viewH = Math.max(0, height - LEGEND);
  // first as wide as the panel (at most pprof's own size, its 8 pt text), callers at the top;
  // "Fit" (or a double-click) shows it whole
  const initial = useMemo(() => {
    const s = Math.max(MIN_SCALE, Math.min(NATIVE, width / (placed.width || 1)));
    const whole = placed.height * s <= viewH;
    return { placed, s, x: (width - placed.width * s) / 2, y: whole ? (viewH - placed.height * s) / 2 : 0 };
  }, [placed, width, viewH]);
  const fitAll = () => {
    const s = Math.max(MIN_SCALE, Math.min(NATIVE, width / (placed.width || 1), viewH / (placed.height || 1)));
    setView({ placed, s, x: (width - placed.width * s) / 2, y: (viewH - placed.height * s) / 2 });
  };
  const [view, setView] = useState<{ placed: typeof placed; s: number; x: number; y: number } | undefined>();
  const t = view && view.placed === placed ? view : initial;
  const [picked, setPicked] = useState<number>(-1);
  const [seen, setSeen] = useState(graph);
  if (seen !== graph) {
    setSeen(graph);
    setPicked(-1);
  }

  const [dragging, setDragging] = useState(false);
  const drag = useRef<{ x: number; y: number; tx: number; ty: number; moved: boolean } | undefined>();
  const onPointerDown = (e: React.PointerEvent<SVGSVGElement>) => {
    if (e.button !== 0) {
      return;
    }
    // the pointer is captured only once it drags (a capture from the press would take the click from a box)
    drag.current = { x: e.clientX, y: e.clientY, tx: t.x, ty: t.y, moved: false };
  };
  const onPointerMove = (e: React.PointerEvent<SVGSVGElement>) => {
    const d = drag.current;
    if (!d) {
      return;
    }
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    if (!d.moved && Math.abs(dx) + Math.abs(dy) < 3) {
      return;
    }
    if (!d.moved) {
      d.moved = true;
      setDragging(true);
      e.currentTarget.setPointerCapture?.(e.pointerId);
    }
    setView({ placed, s: t.s, x: d.tx + dx, y: d.ty + dy });
  };
  const onPointerUp = () => {
    drag.current = undefined;
    setDragging(false);
  };
  const onWheel = (e: React.WheelEvent<SVGSVGElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const px = e.clientX - r.left;
    const py = e.clientY - r.top;
    const s = Math.max(MIN_SCALE, Math.min(MAX_SCALE, t.s * Math.exp(-e.deltaY * 0.0015)));
    setView({ placed, s, x: px - ((px - t.x) * s) / t.s, y: py - ((py - t.y) * s) / t.s });
  };
  // a new graph, or the view gone, leaves nothing picked for the header's Sandwich either
  useEffect(() => {
    onPick?.(-1);
    return () => onPick?.(-1);
  }, [graph, onPick]);
  const pick = (k: number) => {
    if (drag.current?.moved) {
      return;
    }
    const next = picked === k ? -1 : k;
    setPicked(next);
    onPick?.(next >= 0 ? (nameIdx(graph.nodes[next].name) ?? -1) : -1);
  };

  const total = graph.total;
  const matched = useMemo(() => (matcher ? graph.nodes.map((n) => matcher.test(n.name)) : undefined), [matcher, graph]);
  const lit = (k: number) => (picked >= 0 ? k === picked : matched ? matched[k] : true);
  const arrowLit = (from: number, to: number) =>
    picked >= 0 ? from === picked || to === picked : matched ? matched[from] || matched[to] : true;
  const textColor = theme.colors.text.primary;
  const dimmed = 0.25;

  const legend: string[] = [
    `Showing nodes accounting for ${format(graph.shown)}, ${percent(graph.shown, total)} of ${format(total)} total`,
  ];
  if (graph.droppedNodes > 0) {
    legend.push(`Dropped ${graph.droppedNodes} nodes (cum <= ${format(graph.nodeCutoff)})`);
  }
  if (graph.droppedEdges > 0) {
    legend.push(`Dropped ${graph.droppedEdges} edges (freq <= ${format(graph.edgeCutoff)})`);
  }
  if (graph.nodeCount > 0 && graph.nodeCount < graph.beforeTop) {
    legend.push(`Showing top ${graph.nodeCount} nodes out of ${graph.beforeTop}`);
  }
  if (placed.hidden > 0) {
    legend.push(`${placed.hidden} lighter arrows not drawn`);
  }
  const pickedNode = picked >= 0 ? graph.nodes[picked] : undefined;

  return (
    <div data-testid="callgraph" data-state="ready" className={cx(styles.root, size)}>
      <div className={styles.legend}>
        <Button size="sm" variant="secondary" fill="text" onClick={fitAll} tooltip="See it whole">
          Fit
        </Button>
        {pickedNode ? (
          <>
            <span data-testid="callgraph-picked" className={styles.picked}>
              {pickedNode.name}: flat {format(pickedNode.flat)} ({percent(pickedNode.flat, total)}), cum{' '}
              {format(pickedNode.cum)} ({percent(pickedNode.cum, total)})
            </span>
            <Button
              size="sm"
              variant="secondary"
              icon="gf-layout-simple"
              onClick={() => {
                const k = nameIdx(pickedNode.name);
                if (k !== undefined) {
                  onSandwich(k);
                }
              }}
            >
              Sandwich
            </Button>
          </>
        ) : (
          <span data-testid="callgraph-legend" className={styles.ellipsis}>
            {diff
              ? `Comparison less baseline (pprof -diff_base): ${colorBlind ? 'orange grew, blue shrank' : 'red grew, green shrank'}; shares of the baseline. `
              : ''}
            {legend.join('. ')}
          </span>
        )}
      </div>
      <svg
        data-testid="callgraph-svg"
        role="img"
        aria-label="Call graph"
        width={width}
        height={viewH}
        className={cx(styles.svg, dragging && styles.dragging)}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onWheel={onWheel}
        onDoubleClick={fitAll}
      >
        <g transform={`translate(${t.x},${t.y}) scale(${t.s})`} className={styles.picture}>
          {graph.edges.map((e, k) => {
            const a = placed.arrows[k];
            if (!a.drawn) {
              return null;
            }
            const on = arrowLit(e.from, e.to);
            const color = pprofColor(e.weight / (Math.abs(total) || 1), false, dark, colorBlind);
            const from = graph.nodes[e.from].name;
            const to = graph.nodes[e.to].name;
            const head = arrowHead(a.points, a.width);
            const line = head ? [...a.points.slice(0, -1), head.end] : a.points;
            return (
              <g
                key={k}
                data-testid="callgraph-edge"
                data-from={from}
                data-to={to}
                data-weight={e.weight}
                data-residual={e.residual || undefined}
                opacity={on ? 1 : dimmed}
              >
                <title>{`${from} ${e.residual ? '...' : '->'} ${to} (${format(e.weight)})`}</title>
                <path
                  d={arrowPath(line)}
                  fill="none"
                  stroke={color}
                  strokeWidth={a.width}
                  strokeDasharray={e.residual ? '2 3' : undefined}
                />
                {head && <path d={head.head} fill={color} />}
                <text
                  x={a.labelX}
                  y={a.labelY}
                  fontSize={ARROW_FONT}
                  textAnchor="middle"
                  dominantBaseline="middle"
                  fill={textColor}
                >
                  {a.label}
                </text>
              </g>
            );
          })}
          {graph.nodes.map((n, k) => {
            const b = placed.boxes[k];
            const score = n.cum / (Math.abs(total) || 1);
            const on = lit(k);
            return (
              <g
                key={k}
                data-testid="callgraph-node"
                data-name={n.name}
                data-flat={n.flat}
                data-cum={n.cum}
                data-picked={k === picked || undefined}
                opacity={on ? 1 : dimmed}
                className={styles.box}
                role="button"
                tabIndex={0}
                aria-pressed={k === picked}
                aria-label={`${n.name}: flat ${format(n.flat)}, cum ${format(n.cum)}`}
                onClick={() => pick(k)}
                onKeyDown={(e) => {
                  // Enter or Space picks (Escape stays with the view: it leaves a sandwich)
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    e.stopPropagation();
                    pick(k);
                  }
                }}
              >
                <title>{`${n.name}\nflat ${format(n.flat)} (${percent(n.flat, total)})\ncum ${format(n.cum)} (${percent(n.cum, total)})`}</title>
                <rect
                  x={b.x - b.width / 2}
                  y={b.y - b.height / 2}
                  width={b.width}
                  height={b.height}
                  fill={pprofColor(score, true, dark, colorBlind)}
                  stroke={pprofColor(score, false, dark, colorBlind)}
                  strokeWidth={k === picked ? 3 : 1}
                />
                <text
                  x={b.x}
                  y={b.y - ((b.lines.length - 1) * b.fontSize * 1.2) / 2}
                  fontSize={b.fontSize}
                  textAnchor="middle"
                  fill={textColor}
                >
                  {b.lines.map((l, j) => (
                    <tspan key={j} x={b.x} dy={j === 0 ? 0 : b.fontSize * 1.2} dominantBaseline="middle">
                      {l}
                    </tspan>
                  ))}
                </text>
              </g>
            );
          })}
        </g>
      </svg>
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  root: css({ display: 'flex', flexDirection: 'column', minWidth: 0 }),
  legend: css({
    height: LEGEND,
    flex: 'none',
    display: 'flex',
    alignItems: 'center',
    gap: 8,
    fontSize: theme.typography.bodySmall.fontSize,
    color: theme.colors.text.secondary,
    whiteSpace: 'nowrap',
    overflow: 'hidden',
  }),
  ellipsis: css({ overflow: 'hidden', textOverflow: 'ellipsis' }),
  picked: css({ color: theme.colors.text.primary, overflow: 'hidden', textOverflow: 'ellipsis' }),
  svg: css({ display: 'block', cursor: 'grab', touchAction: 'none' }),
  dragging: css({ cursor: 'grabbing' }),
  picture: css({ fontFamily: FONT_FAMILY }),
  box: css({ cursor: 'pointer', outline: 'none' }),
});
