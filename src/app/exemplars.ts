// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { TimeRange, urlUtil } from '@grafana/data';
import type { EmberscopeQuery } from '../datasource/types';
import { Exemplar, exemplarsOf } from '../shared/exemplars';

/** One exemplar of an answer: the profile (or span) behind a heatmap cell or a point. */
export type AppExemplar = Exemplar;
export { exemplarsOf };

/** The view parameter of a picked exemplar: `span:<id>` or `profile:<id>`. */
export const pickOf = (e: { kind: 'profile' | 'span'; id: string }) => `${e.kind}:${e.id}`;

/** Reads a `pick` parameter back; undefined when it names neither a span nor a profile. */
export function parsePick(pick?: string): { kind: 'profile' | 'span'; id: string } | undefined {
  const m = /^(span|profile):(.+)$/.exec(pick ?? '');
  return m ? { kind: m[1] as 'span' | 'profile', id: m[2] } : undefined;
}

/**
 * The profile query of a picked exemplar: the flame graph of that span's samples
 * (spanSelector) or of that one profile (profileIdSelector), within the selection.
 */
export function pickQuery(
  pick: { kind: 'profile' | 'span'; id: string },
  profileTypeId: string,
  labelSelector: string
): EmberscopeQuery {
  return {
    refId: 'pick',
    queryType: 'profile',
    profileTypeId,
    labelSelector,
    groupBy: [],
    ...(pick.kind === 'span' ? { spanSelector: [pick.id] } : { profileIdSelector: [pick.id] }),
  };
}

/**
 * Grafana Explore's address of a trace in the tracing datasource uid (Tempo reads the query as
 * a TraceQL trace-id query, Jaeger and Zipkin as a trace id), over range.
 */
export function traceUrl(uid: string, traceId: string, range: TimeRange): string {
  const panes = {
    trace: {
      datasource: uid,
      queries: [{ refId: 'A', datasource: { uid }, queryType: 'traceql', query: traceId }],
      range: { from: String(range.from.valueOf()), to: String(range.to.valueOf()) },
    },
  };
  return urlUtil.renderUrl('/explore', { schemaVersion: 1, panes: JSON.stringify(panes) });
}
