import { DataFrame, DataFrameJSON, dataFrameFromJSON } from '@grafana/data';

/** The datasource uid the playground serves. */
export const DATASOURCE_UID = 'emberscope';

/** What the query row asks for. */
export interface PlaygroundQuery {
  profileTypeId: string;
  labelSelector: string;
  groupBy: string[];
  expr: string;
  maxNodes?: number;
}

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

/** Frames of one query answer, split into the flamegraph and the series. */
export interface QueryAnswer {
  flame?: DataFrame;
  series: DataFrame[];
}

interface QueryResponse {
  results?: Record<string, { frames?: DataFrameJSON[]; error?: string; status?: number }>;
  message?: string;
}

/** Runs one query through `POST /api/ds/query` over [from, to] (ms). */
export async function runQuery(
  q: PlaygroundQuery,
  from: number,
  to: number,
  queryType: 'both' | 'profile' | 'metrics'
): Promise<QueryAnswer> {
  const body = {
    from: String(from),
    to: String(to),
    queries: [
      {
        refId: 'A',
        datasource: { uid: DATASOURCE_UID },
        queryType,
        profileTypeId: q.profileTypeId,
        labelSelector: q.labelSelector || '{}',
        groupBy: q.groupBy,
        maxNodes: q.maxNodes ?? 16384,
        expr: q.expr,
      },
    ],
  };
  const res = await request<QueryResponse>('/api/ds/query', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const a = res.results?.A;
  if (!a) {
    throw new ApiError('POST /api/ds/query: the answer has no result for refId A');
  }
  if (a.error) {
    throw new ApiError(a.error);
  }
  const frames = (a.frames ?? []).map((f) => dataFrameFromJSON(f));
  const isFlame = (f: DataFrame) =>
    f.fields.some((x) => x.name === 'level') && f.fields.some((x) => x.name === 'label');
  return {
    flame: frames.find(isFlame),
    series: frames.filter((f) => !isFlame(f) && f.fields.some((x) => x.type === 'time')),
  };
}
