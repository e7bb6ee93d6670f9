// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { DataFrame } from '@grafana/data';

/** One exemplar of an answer: the profile (or span) behind a heatmap cell or a point. */
export interface Exemplar {
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
export function exemplarsOf(frames: DataFrame[]): Exemplar[] {
  const out: Exemplar[] = [];
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
