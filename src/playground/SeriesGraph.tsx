// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useMemo, useRef, useState } from 'react';
import { css } from '@emotion/css';
import { DataFrame, GrafanaTheme2, formattedValueToString, getValueFormat, dateTimeFormat } from '@grafana/data';
import { useStyles2, useTheme2 } from '@grafana/ui';
import type { Exemplar } from '../shared/exemplars';
import { colourOf, linesOf, Marker, PLOT_PAD as PAD, stepOf } from './seriesData';
import { ExemplarPoints, Markers, PlotScale } from './SeriesMarks';
import { SeriesLegend } from './SeriesLegend';

export interface SeriesGraphProps {
  series: DataFrame[];
  from: number;
  to: number;
  width: number;
  height: number;
  /** The range whose flamegraph is shown, drawn as a band. */
  selection?: { from: number; to: number };
  /** Called with the range of a clicked point or of a drag. */
  onSelect: (from: number, to: number) => void;
  /** Windows to mark over the series (e.g. novel profiles), each with a title shown on hover. */
  markers?: Marker[];
  /**
   * Called with a clicked point (the index of its frame in `series`, its row) and the cursor;
   * when it returns true the click opens nothing else (a Grafana panel shows the point's links).
   */
  onPoint?: (frame: number, row: number, clientX: number, clientY: number) => boolean;
  /** Exemplars drawn as points at their time and value; a click opens that profile or span. */
  exemplars?: Exemplar[];
  onExemplar?: (e: Exemplar) => void;
}

/** Value ticks on the axis, above zero. */
const TICKS = 5;
/** How far (px) from a point a click still hits it. */
const HIT_PX = 24;
/** How far (px) the mouse moves before a press becomes a drag. */
const DRAG_PX = 4;
/** The hover tooltip's widest (px). */
const TOOLTIP_WIDTH = 220;

/**
 * A small SVG line chart of the series. Clicking a point selects that point's step;
 * dragging selects a range; either loads the flamegraph of that range.
 */
export function SeriesGraph({
  series,
  from,
  to,
  width,
  height,
  selection,
  onSelect,
  markers,
  exemplars,
  onExemplar,
  onPoint,
}: SeriesGraphProps) {
  const theme = useTheme2();
  const styles = useStyles2(getStyles);
  const all = useMemo(() => linesOf(series), [series]);
  const [hidden, setHidden] = useState<Set<string>>(() => new Set());
  // colours stay with their series when others are hidden
  const lines = useMemo(
    () => all.map((l, i) => ({ ...l, colour: colourOf(i) })).filter((l) => !hidden.has(l.name)),
    [all, hidden]
  );
  const toggle = (name: string) =>
    setHidden((h) => {
      const n = new Set(h);
      if (!n.delete(name)) {
        n.add(name);
      }
      return n;
    });
  const svg = useRef<SVGSVGElement>(null);
  const [drag, setDrag] = useState<{ x0: number; x1: number } | undefined>();
  const [hover, setHover] = useState<{ x: number; line: number; k: number } | undefined>();
  const plotW = Math.max(10, width - PAD.left - PAD.right);
  const plotH = Math.max(10, height - PAD.top - PAD.bottom);
  const peak = Math.max(
    0,
    ...lines.flatMap((l) => l.values.filter(Number.isFinite)),
    ...(lines.length ? (exemplars ?? []).map((e) => e.value).filter(Number.isFinite) : [])
  );
  // all-zero series (e.g. novelty scores without history) get a 0..1 axis rather than ticks of 0
  const max = peak > 0 ? peak : 1;
  const unit = lines[0]?.unit;
  const fmt = (v: number) => formattedValueToString(getValueFormat(unit || 'short')(v, 1));
  const xOf = (t: number) => PAD.left + ((t - from) / (to - from || 1)) * plotW;
  const tOf = (x: number) => from + ((x - PAD.left) / plotW) * (to - from);
  const yOf = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const scale: PlotScale = { xOf, yOf, top: PAD.top, height: plotH };
  const localX = (e: React.MouseEvent) => e.clientX - (svg.current?.getBoundingClientRect().left ?? 0);
  const localY = (e: React.MouseEvent) => e.clientY - (svg.current?.getBoundingClientRect().top ?? 0);

  // the point nearest in time (within HIT_PX), and among points of that time the nearest in value
  const nearest = (x: number, y?: number) => {
    let best: { line: number; k: number; d: number; dy: number } | undefined;
    lines.forEach((l, li) =>
      l.times.forEach((t, k) => {
        const d = Math.round(Math.abs(xOf(t) - x));
        const dy = y === undefined ? 0 : Math.abs(yOf(l.values[k]) - y);
        if (!best || d < best.d || (d === best.d && dy < best.dy)) {
          best = { line: li, k, d, dy };
        }
      })
    );
    return best && best.d < HIT_PX ? best : undefined;
  };

  const onMouseUp = (e: React.MouseEvent) => {
    const x = localX(e);
    const d = drag;
    setDrag(undefined);
    if (d && Math.abs(x - d.x0) > DRAG_PX) {
      const a = tOf(Math.min(d.x0, x));
      const b = tOf(Math.max(d.x0, x));
      onSelect(Math.max(from, Math.round(a)), Math.min(to, Math.round(b)));
      return;
    }
    const n = nearest(x, localY(e));
    if (n && onPoint?.(lines[n.line].frame, n.k, e.clientX, e.clientY)) {
      return;
    }
    if (n) {
      const l = lines[n.line];
      // a point sums the profiles of one step; whether its time opens or centres the step
      // depends on the server, so take a step on either side
      const step = stepOf(l.times, from, to);
      const t = l.times[n.k];
      onSelect(Math.max(from, Math.round(t - step)), Math.min(to, Math.round(t + step)));
    }
  };

  const axisText = { fontSize: 10, fill: theme.colors.text.secondary };
  return (
    <div className={styles.root} style={{ width }}>
      <svg
        ref={svg}
        width={width}
        height={height}
        data-testid="series-graph"
        role="img"
        aria-label="Series"
        className={styles.plot}
        onMouseDown={(e) => setDrag({ x0: localX(e), x1: localX(e) })}
        onMouseMove={(e) => {
          const x = localX(e);
          if (drag) {
            setDrag({ ...drag, x1: x });
          }
          const n = nearest(x);
          setHover(n ? { x, line: n.line, k: n.k } : undefined);
        }}
        onMouseLeave={() => setHover(undefined)}
        onMouseUp={onMouseUp}
      >
        {lines.length > 0 &&
          Array.from({ length: TICKS + 1 }, (_, i) => {
            const v = (max * i) / TICKS;
            return (
              <g key={i}>
                <line x1={PAD.left} x2={PAD.left + plotW} y1={yOf(v)} y2={yOf(v)} stroke={theme.colors.border.weak} />
                <text x={PAD.left - 6} y={yOf(v)} textAnchor="end" dominantBaseline="middle" {...axisText}>
                  {fmt(v)}
                </text>
              </g>
            );
          })}
        {[0, 0.5, 1].map((q) => {
          const t = from + q * (to - from);
          return (
            <text
              key={q}
              x={xOf(t)}
              y={height - 6}
              textAnchor={q === 0 ? 'start' : q === 1 ? 'end' : 'middle'}
              {...axisText}
            >
              {dateTimeFormat(t, { format: 'HH:mm:ss' })}
            </text>
          );
        })}
        {selection && (
          <rect
            data-testid="series-selection"
            x={xOf(selection.from)}
            y={PAD.top}
            width={Math.max(2, xOf(selection.to) - xOf(selection.from))}
            height={plotH}
            fill={theme.colors.primary.transparent}
          />
        )}
        {lines.map((l, li) => (
          <g key={li}>
            <polyline
              fill="none"
              stroke={l.colour}
              strokeWidth={1.5}
              points={l.times.map((t, k) => `${xOf(t).toFixed(1)},${yOf(l.values[k]).toFixed(1)}`).join(' ')}
            />
            {l.times.map((t, k) => (
              <circle key={k} cx={xOf(t)} cy={yOf(l.values[k])} r={2.5} fill={l.colour} />
            ))}
          </g>
        ))}
        <Markers markers={markers ?? []} scale={scale} />
        {lines.length > 0 && (
          <ExemplarPoints exemplars={exemplars ?? []} scale={scale} format={fmt} onOpen={onExemplar} />
        )}
        {drag && Math.abs(drag.x1 - drag.x0) > DRAG_PX && (
          <rect
            x={Math.min(drag.x0, drag.x1)}
            y={PAD.top}
            width={Math.abs(drag.x1 - drag.x0)}
            height={plotH}
            fill="rgba(120,150,255,0.25)"
          />
        )}
      </svg>
      {hover && lines[hover.line] && (
        // follows the cursor, kept inside the graph
        <div className={styles.tooltip} style={{ left: Math.min(hover.x + 10, Math.max(0, width - TOOLTIP_WIDTH)) }}>
          {dateTimeFormat(lines[hover.line].times[hover.k], { format: 'HH:mm:ss' })} · {lines[hover.line].name}:{' '}
          {fmt(lines[hover.line].values[hover.k])}
        </div>
      )}
      {all.length > 0 && <SeriesLegend lines={all} hidden={hidden} onToggle={toggle} />}
      {all.length === 0 && (
        <div className={styles.empty} style={{ width, height }}>
          No series in this range
        </div>
      )}
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  root: css({ position: 'relative' }),
  plot: css({ display: 'block', cursor: 'crosshair', userSelect: 'none' }),
  tooltip: css({
    position: 'absolute',
    top: 4,
    background: theme.colors.background.secondary,
    border: `1px solid ${theme.colors.border.medium}`,
    padding: '2px 6px',
    fontSize: 11,
    pointerEvents: 'none',
    maxWidth: TOOLTIP_WIDTH,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  }),
  empty: css({
    position: 'absolute',
    left: 0,
    top: 0,
    display: 'grid',
    placeItems: 'center',
    fontSize: 12,
    opacity: 0.7,
  }),
});
