// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useMemo, useRef, useState } from 'react';
import { DataFrame, FieldType, formattedValueToString, getValueFormat, dateTimeFormat } from '@grafana/data';
import { useTheme2 } from '@grafana/ui';
import { Exemplar, exemplarsOf } from '../shared/exemplars';

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

export type { Exemplar };
export { exemplarsOf };

/** A marked window of time. */
export interface Marker {
  from: number;
  to: number;
  title: string;
}

/** The markers of annotation frames: `time` (and `timeEnd`) with a `title` (or `text`). */
export function markersOf(frames: DataFrame[]): Marker[] {
  const out: Marker[] = [];
  for (const f of frames) {
    const t = f.fields.find((x) => x.name === 'time');
    const end = f.fields.find((x) => x.name === 'timeEnd');
    const title = f.fields.find((x) => x.name === 'title') ?? f.fields.find((x) => x.name === 'text');
    if (!t) {
      continue;
    }
    for (let i = 0; i < f.length; i++) {
      const from = Number(t.values[i]);
      out.push({ from, to: end ? Number(end.values[i]) : from, title: title ? String(title.values[i]) : '' });
    }
  }
  return out;
}

interface Line {
  /** Index of the frame in the series. */
  frame: number;
  name: string;
  times: number[];
  values: number[];
  unit?: string;
}

const PALETTE = ['#7eb26d', '#eab839', '#6ed0e0', '#ef843c', '#e24d42', '#1f78c1', '#ba43a9', '#705da0'];
/** The colour of the i-th series. */
const colourOf = (i: number) => PALETTE[i % PALETTE.length];
const PAD = { left: 64, right: 12, top: 8, bottom: 22 };

function linesOf(series: DataFrame[]): Line[] {
  const out: Line[] = [];
  for (const [fi, f] of series.entries()) {
    const t = f.fields.find((x) => x.type === FieldType.time);
    const v = f.fields.find((x) => x.type === FieldType.number);
    if (!t || !v) {
      continue;
    }
    const labels = v.labels ? Object.entries(v.labels).map(([k, x]) => `${k}="${x}"`) : [];
    const name =
      v.config?.displayNameFromDS ??
      v.config?.displayName ??
      (labels.length ? `{${labels.join(', ')}}` : (f.name ?? v.name));
    out.push({
      frame: fi,
      name,
      times: Array.from(t.values as number[]),
      values: Array.from(v.values as number[]),
      unit: v.config?.unit,
    });
  }
  return out;
}

/** Median spacing of a line's points (a sixtieth of the range for a lone point): the width of one point's range. */
function stepOf(times: number[], from: number, to: number): number {
  const fallback = Math.max(10_000, (to - from) / 60);
  if (times.length < 2) {
    return fallback;
  }
  const d = times
    .slice(1)
    .map((t, i) => t - times[i])
    .sort((a, b) => a - b);
  return d[Math.floor(d.length / 2)] || fallback;
}

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
  const localX = (e: React.MouseEvent) => e.clientX - (svg.current?.getBoundingClientRect().left ?? 0);

  const localY = (e: React.MouseEvent) => e.clientY - (svg.current?.getBoundingClientRect().top ?? 0);
  // the point nearest in time (within 24 px), and among points of that time the nearest in value
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
    return best && best.d < 24 ? best : undefined;
  };

  const ticks = 5;
  const grid = theme.colors.border.weak;
  return (
    <div style={{ position: 'relative', width }}>
      <svg
        ref={svg}
        width={width}
        height={height}
        data-testid="series-graph"
        role="img"
        aria-label="Series"
        style={{ display: 'block', cursor: 'crosshair', userSelect: 'none' }}
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
        onMouseUp={(e) => {
          const x = localX(e);
          const d = drag;
          setDrag(undefined);
          if (d && Math.abs(x - d.x0) > 4) {
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
        }}
      >
        {lines.length > 0 &&
          Array.from({ length: ticks + 1 }, (_, i) => {
            const v = (max * i) / ticks;
            return (
              <g key={i}>
                <line x1={PAD.left} x2={PAD.left + plotW} y1={yOf(v)} y2={yOf(v)} stroke={grid} />
                <text
                  x={PAD.left - 6}
                  y={yOf(v)}
                  textAnchor="end"
                  dominantBaseline="middle"
                  fontSize={10}
                  fill={theme.colors.text.secondary}
                >
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
              fontSize={10}
              fill={theme.colors.text.secondary}
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
        {(markers ?? []).map((m, i) => (
          <g key={`m${i}`} data-testid="series-marker">
            <title>{m.title}</title>
            <rect
              x={xOf(m.from)}
              y={PAD.top}
              width={Math.max(2, xOf(m.to) - xOf(m.from))}
              height={plotH}
              fill={theme.colors.warning.transparent}
            />
            <path
              d={`M${xOf(m.from)},${PAD.top} l5,0 l-5,7 z`}
              fill={theme.colors.warning.main}
              transform={`translate(${Math.max(0, (xOf(m.to) - xOf(m.from)) / 2 - 2.5)},0)`}
            />
          </g>
        ))}
        {lines.length > 0 &&
          (exemplars ?? []).map((e, i) => {
            const x = xOf(e.time);
            const y = yOf(e.value);
            return (
              <g
                key={`e${i}`}
                data-testid="series-exemplar"
                data-id={e.id}
                data-kind={e.kind}
                role="button"
                aria-label={`${e.kind === 'span' ? 'Span' : 'Profile'} ${e.id}`}
                style={{ cursor: 'pointer' }}
                // a click on an exemplar opens it, not the step under it
                onMouseDown={(ev) => ev.stopPropagation()}
                onMouseUp={(ev) => {
                  ev.stopPropagation();
                  onExemplar?.(e);
                }}
              >
                <title>
                  {`${e.kind === 'span' ? 'Span' : 'Profile'} ${e.id}${e.traceId ? ` (trace ${e.traceId})` : ''}: ${fmt(e.value)} at ${dateTimeFormat(e.time, { format: 'HH:mm:ss' })}`}
                </title>
                <rect
                  x={x - 5}
                  y={y - 5}
                  width={10}
                  height={10}
                  transform={`rotate(45 ${x} ${y})`}
                  fill={theme.colors.primary.main}
                  stroke={theme.colors.background.primary}
                  strokeWidth={1}
                />
              </g>
            );
          })}
        {drag && Math.abs(drag.x1 - drag.x0) > 4 && (
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
        <div
          style={{
            position: 'absolute',
            left: Math.min(hover.x + 10, Math.max(0, width - 220)),
            top: 4,
            background: theme.colors.background.secondary,
            border: `1px solid ${theme.colors.border.medium}`,
            padding: '2px 6px',
            fontSize: 11,
            pointerEvents: 'none',
            maxWidth: 220,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
          }}
        >
          {dateTimeFormat(lines[hover.line].times[hover.k], { format: 'HH:mm:ss' })} · {lines[hover.line].name}:{' '}
          {fmt(lines[hover.line].values[hover.k])}
        </div>
      )}
      {all.length > 0 && (
        <div
          data-testid="series-legend"
          style={{
            display: 'flex',
            flexWrap: 'wrap',
            gap: '2px 12px',
            fontSize: 11,
            padding: `2px ${PAD.right}px 0 ${PAD.left}px`,
          }}
        >
          {all.map((l, i) => {
            const off = hidden.has(l.name);
            return (
              <button
                key={l.name}
                type="button"
                data-testid="series-legend-item"
                aria-pressed={!off}
                title={off ? 'Show this series' : 'Hide this series'}
                onClick={() => toggle(l.name)}
                style={{
                  display: 'inline-flex',
                  alignItems: 'center',
                  gap: 4,
                  border: 'none',
                  background: 'none',
                  padding: 0,
                  cursor: 'pointer',
                  color: theme.colors.text.primary,
                  opacity: off ? 0.45 : 1,
                  font: 'inherit',
                }}
              >
                <span style={{ width: 12, height: 3, background: colourOf(i), display: 'inline-block' }} />
                <span style={{ textDecoration: off ? 'line-through' : 'none' }}>{l.name}</span>
              </button>
            );
          })}
        </div>
      )}
      {all.length === 0 && (
        <div
          style={{
            position: 'absolute',
            left: 0,
            top: 0,
            width,
            height,
            display: 'grid',
            placeItems: 'center',
            fontSize: 12,
            opacity: 0.7,
          }}
        >
          No series in this range
        </div>
      )}
    </div>
  );
}
