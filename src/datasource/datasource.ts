// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import {
  AdHocVariableFilter,
  CoreApp,
  DataQueryRequest,
  DataQueryResponse,
  DataSourceGetTagKeysOptions,
  DataSourceGetTagValuesOptions,
  DataSourceInstanceSettings,
  LegacyMetricFindQueryOptions,
  MetricFindValue,
  ScopedVars,
  StreamingFrameAction,
  StreamingFrameOptions,
  TimeRange,
} from '@grafana/data';
import { DataSourceWithBackend, StreamOptionsProvider, TemplateSrv, getTemplateSrv } from '@grafana/runtime';
import { Observable, map } from 'rxjs';
import { EmberscopeOptions, EmberscopeQuery } from './types';
import { CachingResourceClient } from './resources/cache';
import { ProfileTypeInfo, ResourceClient, TimeRangeMs, toProfileTypes, toStrings } from './resources/client';
import { rangeParams } from './resources/fetchClient';
import { filterToMatcher, interpolateQuery, matcherValueFormat } from './interpolate';
import { addSeriesLinks } from './links';
import { loadLastProfileType } from './storage';
import { VariableQuery, parseVariableQuery } from './variables';
import { EmberscopeVariableSupport } from './components/VariableQueryEditor';
import { formatSelector, scopeToProfileType } from './language/selector';
import { ExportRequest, PprofExporter } from './export';

/** Epoch-millisecond range of a Grafana time range. */
export function toRangeMs(r?: TimeRange): TimeRangeMs | undefined {
  return r ? { from: r.from.valueOf(), to: r.to.valueOf() } : undefined;
}

/** Rows a streamed frame may hold: the backend's largest flamegraph (1,048,576 nodes) and then some. */
export const LIVE_MAX_ROWS = 1 << 21;

/**
 * How Grafana Live applies a live query's updates: the backend re-sends the whole window on
 * every update (series, flamegraph and tables alike), so each message replaces the frame
 * instead of being appended to it.
 */
export const liveStreamOptions: StreamOptionsProvider<EmberscopeQuery> = (
  _request,
  frame
): Partial<StreamingFrameOptions> => ({
  action: StreamingFrameAction.Replace,
  maxLength: Math.max(LIVE_MAX_ROWS, frame.length),
});

/**
 * The Emberscope datasource. Queries go to the Go backend; the editor's profile types, label
 * names and label values come from its resources, cached by (matchers, range).
 */
export class DataSource
  extends DataSourceWithBackend<EmberscopeQuery, EmberscopeOptions>
  implements ResourceClient, PprofExporter
{
  /** The editor's resource calls, cached. */
  readonly resources: CachingResourceClient;

  constructor(
    instanceSettings: DataSourceInstanceSettings<EmberscopeOptions>,
    private readonly templateSrv: TemplateSrv = getTemplateSrv()
  ) {
    super(instanceSettings);
    this.resources = new CachingResourceClient({
      profileTypes: async (range) => toProfileTypes(await this.getResource('profileTypes', rangeParams(range))),
      labelNames: async (matchers, range) =>
        toStrings(await this.getResource('labelNames', { matchers, ...rangeParams(range) })),
      labelValues: async (label, matchers, range) =>
        toStrings(await this.getResource('labelValues', { label, matchers, ...rangeParams(range) })),
    });
    this.variables = new EmberscopeVariableSupport(this);
    this.streamOptionsProvider = liveStreamOptions;
  }

  profileTypes(range?: TimeRangeMs): Promise<ProfileTypeInfo[]> {
    return this.resources.profileTypes(range);
  }

  labelNames(matchers: string, range?: TimeRangeMs): Promise<string[]> {
    return this.resources.labelNames(matchers, range);
  }

  labelValues(label: string, matchers: string, range?: TimeRangeMs): Promise<string[]> {
    return this.resources.labelValues(label, matchers, range);
  }

  /** `both` (series and flamegraph) in Explore, a flamegraph on dashboards. */
  getDefaultQuery(app: CoreApp): Partial<EmberscopeQuery> {
    return {
      queryType: app === CoreApp.Explore ? 'both' : 'profile',
      profileTypeId: loadLastProfileType() ?? '',
      labelSelector: '{}',
      groupBy: [],
    };
  }

  /** Queries without a profile type (and without a query text naming one) are not sent. */
  filterQuery(q: EmberscopeQuery): boolean {
    return !q.hide && Boolean(q.profileTypeId?.trim() || q.expr?.trim());
  }

  applyTemplateVariables(q: EmberscopeQuery, scopedVars: ScopedVars, filters?: AdHocVariableFilter[]): EmberscopeQuery {
    return interpolateQuery(q, this.templateSrv, scopedVars, filters);
  }

  /**
   * Runs the queries on the backend and adds the series' links ("Flamegraph of this step",
   * "Add … to the selector"), built from the queries as run (variables replaced) over the
   * request's range.
   */
  query(request: DataQueryRequest<EmberscopeQuery>): Observable<DataQueryResponse> {
    const ran = request.targets.map((q) => this.applyTemplateVariables(q, request.scopedVars ?? {}, request.filters));
    return super.query(request).pipe(map((res) => addSeriesLinks(res, ran, this, request.range)));
  }

  /**
   * Lists profile types, label names or label values for a template variable. Takes a
   * VariableQuery or its text form (`label_values({service_name="api"}, region)`).
   */
  async metricFindQuery(
    query: VariableQuery | string,
    options?: LegacyMetricFindQueryOptions
  ): Promise<MetricFindValue[]> {
    const q = typeof query === 'string' ? parseVariableQuery(query) : query;
    const range = toRangeMs(options?.range);
    const scoped = scopeToProfileType(
      this.templateSrv.replace(q.labelSelector || '{}', options?.scopedVars, matcherValueFormat),
      this.templateSrv.replace(q.profileTypeId ?? '', options?.scopedVars)
    );
    switch (q.type) {
      case 'profileTypes':
        return (await this.profileTypes(range)).map((t) => ({ text: t.label || t.id, value: t.id }));
      case 'labelNames':
        return (await this.labelNames(scoped, range)).filter((n) => !n.startsWith('__')).map((n) => ({ text: n }));
      case 'labelValues': {
        const label = this.templateSrv.replace(q.label ?? '', options?.scopedVars);
        if (!label) {
          throw new Error('label values variable: choose the label whose values to list');
        }
        return (await this.labelValues(label, scoped, range)).map((v) => ({ text: v }));
      }
      default:
        throw new Error(`unknown variable query type ${JSON.stringify((q as VariableQuery).type)}`);
    }
  }

  /** Ad-hoc filter keys: the label names of the series the other filters select. */
  async getTagKeys(options?: DataSourceGetTagKeysOptions<EmberscopeQuery>): Promise<MetricFindValue[]> {
    const sel = formatSelector((options?.filters ?? []).map(filterToMatcher));
    const names = await this.labelNames(sel, toRangeMs(options?.timeRange));
    return names.filter((n) => !n.startsWith('__')).map((n) => ({ text: n }));
  }

  /** Ad-hoc filter values of a key among the series the other filters select. */
  async getTagValues(options: DataSourceGetTagValuesOptions<EmberscopeQuery>): Promise<MetricFindValue[]> {
    const sel = formatSelector(options.filters.filter((f) => f.key !== options.key).map(filterToMatcher));
    const values = await this.labelValues(options.key, sel, toRangeMs(options.timeRange));
    return values.map((v) => ({ text: v }));
  }

  /** Downloads the pprof of a query from the backend's `export` resource. */
  async exportPprof(req: ExportRequest): Promise<Blob> {
    const q = this.applyTemplateVariables(req.query, {});
    return this.getResource<Blob>(
      'export',
      {
        format: 'pprof',
        profileTypeId: q.profileTypeId ?? '',
        labelSelector: q.labelSelector || '{}',
        expr: q.expr ?? '',
        ...rangeParams(req.range),
      },
      { responseType: 'blob', showErrorAlert: false }
    );
  }

  /** The query's CPU profile cut for `go build -pgo`, from the `pgo` resource (the server's defaults). */
  async exportGoPgo(req: ExportRequest): Promise<Blob> {
    const q = this.applyTemplateVariables(req.query, {});
    return this.getResource<Blob>(
      'pgo',
      { profileTypeId: q.profileTypeId ?? '', labelSelector: q.labelSelector || '{}', ...rangeParams(req.range) },
      { responseType: 'blob', showErrorAlert: false }
    );
  }
}
