// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { DataFrame, DataQueryRequest, DataQueryResponse } from '@grafana/data';
import { DataQuery } from '@grafana/schema';
import { getDataSourceSrv } from '@grafana/runtime';
import { isObservable, lastValueFrom } from 'rxjs';
import { findFlameFrame } from '../../../shared/flameData';
import type { CallSiteFetcher } from './useFocusFetch';
import type { SandwichFetcher } from '../Sandwich/fetchedSandwich';

/** The query fields a call site is asked with (the datasource's `callSite`); other fields pass as they are. */
type CallSiteQuery = DataQuery & {
  queryType?: string;
  callSite?: string[];
  comparison?: Record<string, unknown>;
  sandwich?: string;
};

/** Runs one target changed by ask through the target's datasource, with the request it came in; its frames. */
type TargetRunner = (ask: (target: CallSiteQuery) => CallSiteQuery) => Promise<DataFrame[]>;

let seq = 0;

/**
 * A CallSiteFetcher that re-runs the target of request that made the frame (by refId), with
 * `callSite` set, through the target's datasource as Grafana's runtime gives it: what a panel in
 * a dashboard, the app and the playground all have. Undefined when the request has no such
 * target, or it is a metrics query (no flamegraph to re-ask).
 */
export function requestFetcher(
  request: DataQueryRequest<DataQuery> | undefined,
  refId: string | undefined
): CallSiteFetcher | undefined {
  const run = targetRunner(request, refId)?.run;
  if (!run) {
    return undefined;
  }
  return async (path) => {
    const frame = findFlameFrame(await run((target) => callSiteQuery(target, path)));
    if (!frame) {
      throw new Error('the answer holds no flamegraph');
    }
    return frame;
  };
}

/**
 * A SandwichFetcher from the same target: the profile query with `sandwich` set (and no call
 * site: the sandwich is of the whole graph). Undefined where requestFetcher is, and for a diff.
 */
export function requestSandwichFetcher(
  request: DataQueryRequest<DataQuery> | undefined,
  refId: string | undefined
): SandwichFetcher | undefined {
  const runner = targetRunner(request, refId);
  if (!runner || runner.target.queryType === 'diff') {
    return undefined;
  }
  const { run } = runner;
  return (name) => run((target) => sandwichQuery(target, name));
}

/** The target of request that made the frame (by refId), re-run as ask changes it. */
function targetRunner(request: DataQueryRequest<DataQuery> | undefined, refId: string | undefined) {
  const targets = (request?.targets ?? []) as CallSiteQuery[];
  const target = targets.find((t) => t.refId === refId) ?? (targets.length === 1 ? targets[0] : undefined);
  if (
    !request ||
    !target ||
    (target.queryType !== undefined && !['profile', 'both', 'diff'].includes(target.queryType))
  ) {
    return undefined;
  }
  const run: TargetRunner = async (ask) => {
    const ds = await getDataSourceSrv().get(target.datasource ?? request.targets[0]?.datasource);
    const out = ds.query({ ...request, requestId: `emberscope-callsite-${++seq}`, targets: [ask(target)] });
    const res: DataQueryResponse = isObservable(out) ? await lastValueFrom(out) : await out;
    const err = res.errors?.[0];
    if (err) {
      throw new Error(err.message ?? 'the query failed');
    }
    return (res.data ?? []) as DataFrame[];
  };
  return { target, run };
}

/** The target asking for the sandwich of function name, over the whole graph. */
export function sandwichQuery(target: CallSiteQuery, name: string): CallSiteQuery {
  return { ...target, queryType: 'profile', callSite: undefined, sandwich: name };
}

/**
 * The target asking for path: a flamegraph's as a profile query with `callSite`; a diff's with the
 * call site on both sides (`callSite` and `comparison.callSite`), so both are drawn below the cut.
 */
export function callSiteQuery(target: CallSiteQuery, path: string[]): CallSiteQuery {
  if (target.queryType === 'diff') {
    return { ...target, callSite: path, comparison: { ...target.comparison, callSite: path } };
  }
  return { ...target, queryType: 'profile', callSite: path };
}
