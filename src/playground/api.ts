// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { DataFrame, DataFrameJSON, dataFrameFromJSON } from '@grafana/data';
import type { EmberscopeQuery } from '../datasource/types';

/** The datasource uid the playground serves. */
export const DATASOURCE_UID = 'emberscope';

/** A profile type offered by the datasource. */
export interface ProfileType {
  id: string;
  name: string;
}

/** Raised when the playground answers with an error; the message is the server's. */
export class ApiError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ApiError';
  }
}

async function request<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(path, init);
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    throw new ApiError(`${init?.method ?? 'GET'} ${path}: HTTP ${res.status}, not JSON: ${text.slice(0, 200)}`);
  }
  if (!res.ok) {
    const msg =
      (body as { message?: string; error?: string } | undefined)?.message ??
      (body as { error?: string })?.error ??
      text;
    throw new ApiError(`${init?.method ?? 'GET'} ${path}: HTTP ${res.status}: ${msg}`);
  }
  return body as T;
}

const resource = (p: string) => `/api/datasources/uid/${DATASOURCE_UID}/resources/${p}`;

/** Profile types the datasource knows (accepts a bare array or `{profileTypes: [...]}`). */
export async function fetchProfileTypes(): Promise<ProfileType[]> {
  const body = await request<unknown>(resource('profileTypes'));
  const list = Array.isArray(body) ? body : ((body as { profileTypes?: unknown[] })?.profileTypes ?? []);
  return (list as Array<Record<string, unknown>>)
    .map((t) => ({ id: String(t.id ?? t.ID ?? ''), name: String(t.label ?? t.name ?? t.id ?? '') }))
    .filter((t) => t.id);
}

function stringList(body: unknown, key: string): string[] {
  const list = Array.isArray(body) ? body : ((body as Record<string, unknown> | undefined)?.[key] ?? []);
  return (list as unknown[]).map(String);
}

/** Label names (accepts a bare array or `{names: [...]}`). */
export async function fetchLabelNames(): Promise<string[]> {
  return stringList(await request<unknown>(resource('labelNames')), 'names');
}

/** Values of one label (accepts a bare array or `{values: [...]}`). */
export async function fetchLabelValues(label: string): Promise<string[]> {
  return stringList(await request<unknown>(resource(`labelValues?label=${encodeURIComponent(label)}`)), 'values');
}

/** The frames of one answer, sorted by what the page draws with them. */
export interface QueryAnswer {
  /** The flamegraph (nested-set frame), if any. */
  flame?: DataFrame;
  /** Time series (metrics, novelty scores). */
  series: DataFrame[];
  /** Annotation frames (meta.dataTopic "annotations"), e.g. novel windows. */
  annotations: DataFrame[];
  /** Everything else: top table, label contribution, histogram. */
  tables: DataFrame[];
  /** All frames as answered. */
  frames: DataFrame[];
}

interface QueryResponse {
  results?: Record<string, { frames?: DataFrameJSON[]; error?: string; status?: number }>;
  message?: string;
}

/** A nested-set flamegraph frame: it has `level` and `label` fields. */
export const isFlame = (f: DataFrame) =>
  f.fields.some((x) => x.name === 'level') && f.fields.some((x) => x.name === 'label');

/** An annotations frame (drawn as markers, not as a series). */
export const isAnnotations = (f: DataFrame) => f.meta?.dataTopic === 'annotations';

/** Sorts frames into flamegraph, series, annotations and tables. */
export function splitFrames(frames: DataFrame[]): QueryAnswer {
  const series: DataFrame[] = [];
  const annotations: DataFrame[] = [];
  const tables: DataFrame[] = [];
  let flame: DataFrame | undefined;
  for (const f of frames) {
    if (isAnnotations(f)) {
      annotations.push(f);
    } else if (isFlame(f)) {
      flame = flame ?? f;
    } else if (f.fields.some((x) => x.type === 'time') && f.fields.some((x) => x.type === 'number')) {
      series.push(f);
    } else if (f.fields.length > 0) {
      tables.push(f);
    }
  }
  return { flame, series, annotations, tables, frames };
}

/**
 * Runs one editor query through `POST /api/ds/query` over [from, to] (ms), sending the whole
 * query as the editor built it; the per-refId error becomes an ApiError with the backend's text.
 */
export async function runQuery(q: EmberscopeQuery, from: number, to: number): Promise<QueryAnswer> {
  const body = {
    from: String(from),
    to: String(to),
    queries: [{ ...q, datasource: { uid: DATASOURCE_UID } }],
  };
  const res = await request<QueryResponse>('/api/ds/query', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const a = res.results?.[q.refId];
  if (!a) {
    throw new ApiError(`POST /api/ds/query: the answer has no result for refId ${q.refId}`);
  }
  if (a.error) {
    throw new ApiError(a.error);
  }
  return splitFrames((a.frames ?? []).map((f) => dataFrameFromJSON(f)));
}
