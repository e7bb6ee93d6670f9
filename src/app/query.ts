// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import {
  CoreApp,
  DataFrame,
  DataQueryRequest,
  DataQueryResponse,
  DataSourceApi,
  FieldType,
  LoadingState,
  TimeRange,
  dateTime,
  getValueFormat,
  formattedValueToString,
  rangeUtil,
} from '@grafana/data';
import { getDataSourceSrv } from '@grafana/runtime';
import { isObservable, lastValueFrom } from 'rxjs';
import type { EmberscopeQuery } from '../datasource/types';
import type { ResourceClient } from '../datasource/resources/client';

/** The Emberscope datasource's plugin id. */
export const DATASOURCE_TYPE = 'emberscope-datasource';

/** A datasource of ours: Grafana's DataSourceApi with the editor's resource calls. */
export type EmberscopeDs = DataSourceApi<EmberscopeQuery> & ResourceClient;

/** The Emberscope datasources Grafana knows, and the one to use for uid (the first when uid is empty). */
export function emberscopeDatasources() {
  return getDataSourceSrv().getList({ pluginId: DATASOURCE_TYPE });
}

/** Loads the datasource uid names (or the first Emberscope one) through Grafana's datasource service. */
export async function loadDatasource(uid: string): Promise<EmberscopeDs> {
  const chosen = uid || emberscopeDatasources()[0]?.uid;
  if (!chosen) {
    throw new Error('No Emberscope data source: add one under Connections → Data sources');
  }
  const ds = (await getDataSourceSrv().get({ uid: chosen, type: DATASOURCE_TYPE })) as EmberscopeDs;
  if (typeof ds.labelNames !== 'function') {
    throw new Error(`Data source ${chosen} is not an Emberscope data source (type ${ds.type})`);
  }
  return ds;
}

let requestSeq = 0;

/** One answer: the frames of each refId, and the first error. */
export interface Answer {
  frames: DataFrame[];
  byRef: (refId: string) => DataFrame[];
  error?: string;
  /** The request the answer is of (a panel re-runs one of its targets from it, e.g. for a call site). */
  request?: DataQueryRequest<EmberscopeQuery>;
}

/**
 * Runs queries through the datasource's own query path (`ds.query`, which POSTs Grafana's
 * `/api/ds/query`), as a panel or Explore would, over range.
 */
export async function runQueries(
  ds: EmberscopeDs,
  targets: EmberscopeQuery[],
  range: TimeRange,
  maxDataPoints = 200
): Promise<Answer> {
  const intervalMs = Math.max(1000, Math.floor((range.to.valueOf() - range.from.valueOf()) / maxDataPoints));
  const request: DataQueryRequest<EmberscopeQuery> = {
    app: CoreApp.Unknown,
    requestId: `emberscope-app-${++requestSeq}`,
    interval: rangeUtil.secondsToHms(intervalMs / 1000),
    intervalMs,
    maxDataPoints,
    range,
    scopedVars: {},
    targets: targets.map((t) => ({ ...t, datasource: { uid: ds.uid, type: ds.type } })),
    timezone: 'browser',
    startTime: Date.now(),
  };
  const out = ds.query(request);
  const res: DataQueryResponse = isObservable(out) ? await lastValueFrom(out) : await out;
  const frames = (res.data ?? []) as DataFrame[];
  const err = res.errors?.[0] ?? res.error;
  return {
    frames,
    byRef: (refId) => frames.filter((f) => f.refId === refId),
    request,
    error: res.state === LoadingState.Error || err ? (err?.message ?? 'query failed') : undefined,
  };
}

/** A Grafana time range for epoch milliseconds. */
export function msRange(from: number, to: number): TimeRange {
  return { from: dateTime(from), to: dateTime(to), raw: { from: dateTime(from), to: dateTime(to) } };
}

/** One series of a metrics answer: its labels, times and values, and the sum of its values. */
export interface Line {
  labels: Record<string, string>;
  name: string;
  times: number[];
  values: number[];
  total: number;
}

/** The series of metrics frames (a time field and a number field each). */
export function linesOf(frames: DataFrame[]): Line[] {
  const out: Line[] = [];
  for (const f of frames) {
    const time = f.fields.find((x) => x.type === FieldType.time);
    for (const v of f.fields.filter((x) => x.type === FieldType.number)) {
      if (!time) {
        continue;
      }
      const values = v.values.map(Number);
      const labels = { ...(v.labels ?? {}) };
      out.push({
        labels,
        // a series without labels is the selection's total
        name: Object.keys(labels).length ? (v.config.displayNameFromDS ?? Object.values(labels).join(', ')) : 'total',
        times: time.values.map(Number),
        values,
        total: values.reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0),
      });
    }
  }
  return out;
}

/** A label contribution frame's rows: value, total and share. */
export interface Contribution {
  value: string;
  total: number;
  share: number;
}

/** Reads a `labels` answer's frame for label (its first field is named after the label). */
export function contributionsOf(frames: DataFrame[], label: string): Contribution[] {
  const f = frames.find((x) => x.fields[0]?.name === label && x.fields.some((y) => y.name === 'share'));
  if (!f) {
    return [];
  }
  const total = f.fields.find((x) => x.name === 'total')!;
  const share = f.fields.find((x) => x.name === 'share')!;
  return f.fields[0].values.map((v, i) => ({
    value: String(v),
    total: Number(total.values[i]),
    share: Number(share.values[i]),
  }));
}

/** A nested-set flame graph frame (has `level` and `label`). */
export const isFlame = (f: DataFrame) =>
  f.fields.some((x) => x.name === 'level') && f.fields.some((x) => x.name === 'label');

/** The total (root value) of a flame frame: the baseline's, and for a diff the comparison's. */
export function flameTotals(f: DataFrame): { total: number; right?: number } {
  const value = f.fields.find((x) => x.name === 'value');
  const right = f.fields.find((x) => x.name === 'valueRight');
  return {
    total: value ? Number(value.values[0] ?? 0) : 0,
    right: right ? Number(right.values[0] ?? 0) : undefined,
  };
}

/** Formats v in unit as Grafana does (`3.77 s`, `12.5 MiB`). */
export function formatValue(v: number, unit: string): string {
  return formattedValueToString(getValueFormat(unit)(v, 2));
}

/** Formats a share (0..1) as a percentage. */
export function formatShare(s: number): string {
  const p = s * 100;
  return p >= 99.95 ? '100%' : `${p.toFixed(p < 10 ? 2 : 1)}%`;
}
