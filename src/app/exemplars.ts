// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { DataFrame, TimeRange, urlUtil } from '@grafana/data';
import type { EmberscopeQuery } from '../datasource/types';

/** One exemplar of an answer: the profile (or span) behind a heatmap cell or a point. */
export interface AppExemplar {
  time: number;
  value: number;
  /** A profile id, or a span id when kind is `span`. */
  id: string;
  kind: 'profile' | 'span';
  traceId?: string;
}

/**
 * The exemplars of an answer's "exemplar" frames, as the datasource returns them (Grafana's
 * Pyroscope shape): Time, Value, Id (display name "Span ID" for spans, "Profile ID" otherwise)
 * and, for spans, traceId.
 */
export function exemplarsOf(frames: DataFrame[]): AppExemplar[] {
  const out: AppExemplar[] = [];
  for (const f of frames) {
    if (f.name !== 'exemplar') {
      continue;
    }
    const t = f.fields.find((x) => x.name === 'Time');
    const v = f.fields.find((x) => x.name === 'Value');
    const id = f.fields.find((x) => x.name === 'Id');
    const trace = f.fields.find((x) => x.name === 'traceId');
    if (!t || !v || !id) {
      continue;
    }
    const kind = id.config?.displayName === 'Span ID' ? 'span' : 'profile';
    for (let i = 0; i < id.values.length; i++) {
      out.push({
        time: Number(t.values[i]),
        value: Number(v.values[i]),
        id: String(id.values[i]),
        kind,
        traceId: trace ? String(trace.values[i] ?? '') || undefined : undefined,
      });
    }
  }
  return out;
}

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
