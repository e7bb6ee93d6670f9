// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import type { ExportRequest, PprofExporter } from '../export';
import { ProfileTypeInfo, ResourceClient, TimeRangeMs, toProfileTypes, toStrings } from './client';

/**
 * A ResourceClient over `fetch`, for pages without a Grafana runtime (the playground). `base` is
 * the datasource's resource root, e.g. `/api/datasources/uid/emberscope/resources`.
 */
export class FetchResourceClient implements ResourceClient, PprofExporter {
  constructor(
    private readonly base: string,
    private readonly fetchFn: typeof fetch = (...a) => fetch(...a)
  ) {}

  async profileTypes(range?: TimeRangeMs): Promise<ProfileTypeInfo[]> {
    return toProfileTypes(await this.get('profileTypes', rangeParams(range)));
  }

  async labelNames(matchers: string, range?: TimeRangeMs): Promise<string[]> {
    return toStrings(await this.get('labelNames', { matchers, ...rangeParams(range) }));
  }

  async labelValues(label: string, matchers: string, range?: TimeRangeMs): Promise<string[]> {
    return toStrings(await this.get('labelValues', { label, matchers, ...rangeParams(range) }));
  }

  /** The merged profile of a query as pprof, from the `export` resource. */
  async exportPprof(req: ExportRequest): Promise<Blob> {
    const q = req.query;
    const params = new URLSearchParams({
      format: 'pprof',
      profileTypeId: q.profileTypeId ?? '',
      labelSelector: q.labelSelector || '{}',
      expr: q.expr ?? '',
      ...rangeParams(req.range),
    });
    return this.download('export', params);
  }

  /** The query's CPU profile cut for `go build -pgo`, from the `pgo` resource. */
  async exportGoPgo(req: ExportRequest): Promise<Blob> {
    const q = req.query;
    const params = new URLSearchParams({
      profileTypeId: q.profileTypeId ?? '',
      labelSelector: q.labelSelector || '{}',
      ...rangeParams(req.range),
    });
    return this.download('pgo', params);
  }

  /** GETs a file resource as a blob; errors carry the server's `error`/`message` and status. */
  private async download(path: string, params: URLSearchParams): Promise<Blob> {
    const res = await this.fetchFn(`${this.base.replace(/\/$/, '')}/${path}?${params}`);
    if (!res.ok) {
      const text = await res.text();
      let detail = text.slice(0, 200);
      try {
        const o = JSON.parse(text);
        detail = o.error ?? o.message ?? detail;
      } catch {
        // not JSON: keep the text
      }
      throw Object.assign(new Error(detail || res.statusText), { status: res.status });
    }
    return res.blob();
  }

  /** GETs a resource; errors carry the server's `error`/`message`. */
  async get(path: string, params: Record<string, string>): Promise<unknown> {
    const url = `${this.base.replace(/\/$/, '')}/${path}?${new URLSearchParams(params)}`;
    const res = await this.fetchFn(url);
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (!res.ok) {
      const o = body as { error?: string; message?: string } | undefined;
      throw new Error(`${path}: HTTP ${res.status}: ${o?.error ?? o?.message ?? text.slice(0, 200)}`);
    }
    return body;
  }
}

/** start/end query parameters in epoch milliseconds, as the backend's resources read them. */
export function rangeParams(range?: TimeRangeMs): Record<string, string> {
  return range ? { start: String(Math.floor(range.from)), end: String(Math.ceil(range.to)) } : {};
}
