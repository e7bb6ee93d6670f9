// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { DataSourceJsonData, SelectableValue } from '@grafana/data';
import { DataQuery } from '@grafana/schema';

/** What a query asks the backend for; the same names as the `queryType` the Go backend reads. */
export type QueryType =
  | 'profile'
  | 'metrics'
  | 'both'
  | 'labels'
  | 'topTable'
  | 'histogram'
  | 'diff'
  | 'novelty'
  | 'callSiteSeries'
  | 'functionShare';

/** The right-hand side of a `diff` query: a second selector and a time range in epoch milliseconds. */
export interface Comparison {
  labelSelector: string;
  from: number;
  to: number;
  /** Focuses the right side on one call path, as the query's `callSite` does the left. */
  callSite?: string[];
}

/**
 * One query of the datasource. A superset of Grafana's built-in Pyroscope datasource model
 * (`queryType`, `profileTypeId`, `labelSelector`, `groupBy`, `maxNodes`) with the same field
 * names, so that queries move between the two datasources unchanged.
 */
export interface EmberscopeQuery extends DataQuery {
  queryType?: QueryType;
  /** `name:sample_type:sample_unit:period_type:period_unit` */
  profileTypeId?: string;
  /** Prometheus matchers, `{service_name="api"}`; empty means `{}`. */
  labelSelector?: string;
  groupBy?: string[];
  /** The text form of the query; when set it wins over the structured fields. */
  expr?: string;
  maxNodes?: number;
  limit?: number;
  comparison?: Comparison;
  /** Live mode: the query covers the last `liveWindow` and is re-run every `liveInterval`. */
  live?: boolean;
  /** A duration such as `15m`; empty means the backend's default. */
  liveWindow?: string;
  /** A duration such as `10s`; empty means the backend's default. */
  liveInterval?: string;
  /** What a flamegraph frame stands for, as pprof's granularity; empty means `functions`. */
  granularity?: Granularity;
  /** Grafana's Pyroscope field: the flamegraph of these spans' samples only (16 hex digit span ids). */
  spanSelector?: string[];
  /** Grafana's Pyroscope field: the flamegraph of these profiles only (the ids exemplars carry). */
  profileIdSelector?: string[];
  /** Grafana's Pyroscope field: metrics and histogram queries return the profiles behind each point. */
  includeExemplars?: boolean;
  /** A histogram of whole profiles (`individual`, the default) or of single spans (`span`). */
  heatmapType?: HeatmapType;
  /**
   * Focuses the flamegraph (a diff's left side) on one call path: frame names from the root's first
   * child down, the virtual frames of `by (label)` first, collapsed chains expanded to their frames.
   * The backend merges only the samples under it, at full resolution; the frame's
   * `meta.custom.callSite` says `selectedBy` (`server` or `datasource`) and the `wholeTotal`.
   */
  callSite?: string[];
  /**
   * A profile query's sandwich: the function's callers and callees merged over every call site of
   * the range's full-resolution profile, each half cut at `maxNodes` (two frames, `meta.custom.sandwich`
   * says which half). The panel asks it when a sandwich opens on a graph cut at `maxNodes`.
   */
  sandwich?: string;
  /** A `functionShare` query's function, by its exact name (`encoding/json.Marshal`). */
  function?: string;
  /** A `functionShare` query's functions, by a regular expression of whole names (instead of `function`). */
  functionRegex?: string;
  /**
   * The flamegraph panel's view to open (what its "Copy link" writes: the zoomed call path, view,
   * search, sandwich, collapse, colours), kept with the query so Explore's address reopens it; the
   * backend does not read it.
   */
  view?: Record<string, unknown>;
}

/**
 * What one flamegraph frame stands for, as pprof's `-functions`, `-lines` and `-files`: a function,
 * a function's line (`pkg.Func file.go:123`) or a source file.
 */
export type Granularity = 'functions' | 'lines' | 'files';

/** The granularities offered by the editor, in the order shown. */
export const GRANULARITY_OPTIONS: Array<SelectableValue<Granularity>> = [
  { value: 'functions', label: 'Functions', description: 'One frame per function' },
  { value: 'lines', label: 'Lines', description: 'One frame per function and source line: pkg.Func file.go:123' },
  { value: 'files', label: 'Files', description: 'One frame per source file' },
];

/** What a histogram counts, as Grafana's Pyroscope datasource names it. */
export type HeatmapType = 'individual' | 'span';

/** How the datasource authenticates to the profile server. */
export type AuthMethod = 'none' | 'basic' | 'bearer';

/** The datasource's jsonData, as `pkg/datasource/settings` reads it. */
/** The API the profile server speaks; `auto` detects it at the first query. */
export type ServerKind = 'auto' | 'pyroscope' | 'parca';

export interface EmberscopeOptions extends DataSourceJsonData {
  authMethod?: AuthMethod;
  serverKind?: ServerKind;
  tenantId?: string;
  /** Seconds. */
  timeout?: number;
  /** A duration such as `15s`. */
  minStep?: string;
  /** The server's longest query range (Pyroscope's max_query_length, e.g. `1d`); empty learns it. */
  maxQueryLength?: string;
  tlsSkipVerify?: boolean;
  /** The tracing datasource (Tempo, Jaeger, Zipkin) span exemplars link their trace ids to. */
  tracingDatasourceUid?: string;
  /** The source view's local folders of source code (on the Grafana server). */
  sourceRoots?: string[];
  /** The source view asks the profile server's VCS service (Pyroscope); default on. */
  sourceServerVcs?: boolean;
  /** GitHub's or a GitHub Enterprise server's API base; empty leaves GitHub out. */
  githubApiUrl?: string;
  /** A Go module proxy's base; empty leaves it out. */
  goProxyUrl?: string;
  /** The Go release (go1.22.4) of the standard library shown when a profile has no go_version label. */
  goVersion?: string;
  /** The platform (<goos>-<goarch>) whose toolchain module holds the standard library when a profile has no go_platform label. */
  goPlatform?: string;
}

/** The datasource's secureJsonData. */
export interface EmberscopeSecureOptions {
  basicAuthPassword?: string;
  bearerToken?: string;
  /** Sent to githubApiUrl only. */
  githubToken?: string;
}

/** A flamegraph's node budget when the query sets none (the backend's default). */
export const DEFAULT_MAX_NODES = 16384;

/** The query types offered by the editor, in the order shown. */
export const QUERY_TYPE_OPTIONS: Array<SelectableValue<QueryType>> = [
  { value: 'metrics', label: 'Metric', description: 'Series of the profile totals' },
  { value: 'profile', label: 'Profile', description: 'A flamegraph of the range' },
  { value: 'both', label: 'Both', description: 'Series and flamegraph' },
  { value: 'topTable', label: 'Top table', description: 'Functions by self and total' },
  { value: 'histogram', label: 'Histogram', description: 'Distribution of per-profile totals' },
  { value: 'labels', label: 'Labels', description: 'Contribution of each value of the group-by label' },
  { value: 'diff', label: 'Diff', description: 'Flamegraph of the range against a comparison' },
  {
    value: 'novelty',
    label: 'Novelty',
    description: 'How new each profile looks against the recent profiles of its series',
  },
  {
    value: 'functionShare',
    label: 'Function share',
    description: 'The share of the samples whose stack holds a function, per step',
  },
];

/**
 * The query types an alert rule may use, those that answer numbers over time; the backend answers
 * Grafana's alert engine with data plane `timeseries-multi` frames for them and refuses the others.
 */
export const ALERT_QUERY_TYPE_OPTIONS: Array<SelectableValue<QueryType>> = [
  { value: 'metrics', label: 'Metric', description: 'Series of the profile totals' },
  {
    value: 'functionShare',
    label: 'Function share',
    description: 'The share of the samples whose stack holds a function, per step (0 to 1)',
  },
  { value: 'callSiteSeries', label: 'Call path', description: "A call path's value per step" },
  { value: 'novelty', label: 'Novelty', description: 'How new each profile looks against its recent history' },
];

/** The backend's live window when the query sets none. */
export const DEFAULT_LIVE_WINDOW = '15m';
/** The backend's live re-run interval when the query sets none. */
export const DEFAULT_LIVE_INTERVAL = '10s';

/**
 * Reads a live-mode duration (`30s`, `15m`, `1h`, `1h30m`, `500ms`) into milliseconds;
 * undefined when it is not one. The backend checks the bounds and says which were broken.
 */
export function parseDuration(text: string): number | undefined {
  const s = text.trim();
  if (!/^(\d+(ms|s|m|h|d|w|y))+$/.test(s)) {
    return undefined;
  }
  const unit: Record<string, number> = {
    ms: 1,
    s: 1000,
    m: 60_000,
    h: 3_600_000,
    d: 86_400_000,
    w: 7 * 86_400_000,
    y: 365 * 86_400_000,
  };
  let total = 0;
  for (const [, n, u] of s.matchAll(/(\d+)(ms|s|m|h|d|w|y)/g)) {
    total += Number(n) * unit[u];
  }
  return total;
}
