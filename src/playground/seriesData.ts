// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { DataFrame, FieldType } from '@grafana/data';

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

/** One series as the graph draws it. */
export interface Line {
  /** Index of the frame in the series. */
  frame: number;
  name: string;
  times: number[];
  values: number[];
  unit?: string;
}

const PALETTE = ['#7eb26d', '#eab839', '#6ed0e0', '#ef843c', '#e24d42', '#1f78c1', '#ba43a9', '#705da0'];

/** Room around the plot for the value axis (left) and the time axis (bottom). */
export const PLOT_PAD = { left: 64, right: 12, top: 8, bottom: 22 };

/** The colour of the i-th series. */
export const colourOf = (i: number) => PALETTE[i % PALETTE.length];

/** The lines of time series frames: each frame's time and first number field, named by its labels. */
export function linesOf(series: DataFrame[]): Line[] {
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
export function stepOf(times: number[], from: number, to: number): number {
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
