// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { DataFrame, DataQueryRequest, DataQueryResponse, FieldType } from '@grafana/data';
import { DataQuery } from '@grafana/schema';
import { getDataSourceSrv } from '@grafana/runtime';
import { isObservable, lastValueFrom } from 'rxjs';

/** The query fields a call path series is asked with (the datasource's `callSiteSeries`). */
type SeriesQuery = DataQuery & { queryType?: string; callSite?: string[] };

/** A call path's value per step and its share of the step's whole, as the `callSiteSeries` query answers. */
export interface OverTimeSeries {
  /** Each step's start, epoch ms. */
  times: number[];
  values: number[];
  /** 0 to 1: the value over the step's whole total (0 where the step has no samples). */
  shares: number[];
  /** The value's unit, as the backend sets it (ns, bytes, short...). */
  unit?: string;
}

/** What "Show over time" asks for: the series of one call path, and the query that gives it. */
export interface OverTimeSource {
  fetch: (path: string[]) => Promise<OverTimeSeries>;
  /** The `callSiteSeries` query of path, as a dashboard panel or an alert rule would hold it. */
  queryOf: (path: string[]) => SeriesQuery;
}

let seq = 0;

/**
 * The call path series of request's target that made the frame (by refId): the target re-run as a
 * `callSiteSeries` query with the path, through its datasource as Grafana's runtime gives it.
 * Undefined when the request has no such target, or it is not a flamegraph of one range (a diff
 * or a metrics query).
 */
export function overTimeSource(
  request: DataQueryRequest<DataQuery> | undefined,
  refId: string | undefined
): OverTimeSource | undefined {
  const targets = (request?.targets ?? []) as SeriesQuery[];
  const target = targets.find((t) => t.refId === refId) ?? (targets.length === 1 ? targets[0] : undefined);
  if (!request || !target || (target.queryType !== undefined && !['profile', 'both'].includes(target.queryType))) {
    return undefined;
  }
  const queryOf = (path: string[]): SeriesQuery => seriesQuery(target, path);
  return {
    queryOf,
    fetch: async (path) => {
      const ds = await getDataSourceSrv().get(target.datasource ?? request.targets[0]?.datasource);
      const out = ds.query({ ...request, requestId: `emberscope-overtime-${++seq}`, targets: [queryOf(path)] });
      const res: DataQueryResponse = isObservable(out) ? await lastValueFrom(out) : await out;
      const err = res.errors?.[0];
      if (err) {
        throw new Error(err.message ?? 'the query failed');
      }
      const frame = (res.data ?? [])[0] as DataFrame | undefined;
      if (!frame) {
        throw new Error('the answer holds no series');
      }
      return readOverTime(frame);
    },
  };
}

/** The target as a `callSiteSeries` query of path: the selection kept, the flamegraph's own fields left out. */
export function seriesQuery(target: SeriesQuery, path: string[]): SeriesQuery {
  const { maxNodes, groupBy, spanSelector, ...kept } = target as SeriesQuery & Record<string, unknown>;
  void maxNodes;
  void groupBy;
  void spanSelector;
  return { ...kept, queryType: 'callSiteSeries', callSite: path } as SeriesQuery;
}

/** The query as text for a dashboard: its JSON without the refId, which the dashboard gives. */
export function queryText(q: SeriesQuery): string {
  const { refId, ...rest } = q;
  void refId;
  return JSON.stringify(rest, null, 2);
}

/** Reads the `callSiteSeries` frame: time, value and share fields, in that order of kinds. */
export function readOverTime(frame: DataFrame): OverTimeSeries {
  const time = frame.fields.find((f) => f.type === FieldType.time);
  const value = frame.fields.find((f) => f.name === 'value');
  const share = frame.fields.find((f) => f.name === 'share');
  if (!time || !value || !share) {
    const names = frame.fields.map((f) => f.name).join(', ') || 'none';
    throw new Error(`the call path series needs time, value and share fields; the answer has ${names}`);
  }
  const times = [...time.values].map((t) => (typeof t === 'number' ? t : new Date(t as string).getTime()));
  return {
    times,
    values: [...value.values].map(Number),
    shares: [...share.values].map(Number),
    unit: value.config?.unit,
  };
}
