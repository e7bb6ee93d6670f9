// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { DataFrame, dataFrameToJSON } from '@grafana/data';
import { EmberscopeQuery } from './types';
import { TimeRangeMs } from './resources/client';

/** What to export: a query over a range. */
export interface ExportRequest {
  query: EmberscopeQuery;
  range: TimeRangeMs;
}

/** Something that can fetch a query's merged profile as pprof (the datasource, or the playground). */
export interface PprofExporter {
  exportPprof(req: ExportRequest): Promise<Blob>;
  /** The query's CPU profile cut for `go build -pgo` (the backend's `pgo` resource). */
  exportGoPgo?(req: ExportRequest): Promise<Blob>;
}

/** The file name `go build -pgo=auto` looks for in a main package's directory. */
export const GO_PGO_FILE_NAME = 'default.pgo';

/** Whether the Go compiler reads a profile type's samples as CPU time (cpu:nanoseconds or samples:count). */
export function isGoPgoProfileType(profileTypeId?: string): boolean {
  const parts = (profileTypeId ?? '').split(':');
  if (parts.length !== 5) {
    return false;
  }
  const sample = `${parts[1]}:${parts[2]}`;
  return sample === 'cpu:nanoseconds' || sample === 'samples:count';
}

/** The frames of a response as pretty JSON, in Grafana's data frame JSON shape. */
export function framesToJSON(frames: DataFrame[]): string {
  return JSON.stringify(
    frames.map((f) => dataFrameToJSON(f)),
    null,
    2
  );
}

/** Makes the browser save a blob under a file name. */
export function saveBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** A file name for an export: `emberscope-<profile name>-<from>-<to>.<ext>` (times in UTC, to the second). */
export function exportFileName(query: EmberscopeQuery, range: TimeRangeMs, ext: string): string {
  const name = (query.profileTypeId || query.expr || 'query').split(/[:{(\s]/)[0] || 'query';
  const t = (ms: number) =>
    new Date(ms)
      .toISOString()
      .replace(/\.\d+Z$/, 'Z')
      .replace(/[-:]/g, '');
  return `emberscope-${name.replace(/[^A-Za-z0-9_.-]/g, '_')}-${t(range.from)}-${t(range.to)}.${ext}`;
}

/**
 * A readable message from an error of a resource call: the backend's `error`/`message`, and
 * for 404 a plain statement that the backend has no export.
 */
export async function describeExportError(e: unknown): Promise<string> {
  const err = e as { status?: number; data?: unknown; message?: string; statusText?: string };
  let detail = '';
  const data = err?.data;
  if (typeof Blob !== 'undefined' && data instanceof Blob) {
    const text = await blobText(data);
    try {
      const o = JSON.parse(text);
      detail = o.error ?? o.message ?? text;
    } catch {
      detail = text;
    }
  } else if (data && typeof data === 'object') {
    const o = data as { error?: string; message?: string };
    detail = o.error ?? o.message ?? '';
  }
  detail = detail || err?.message || err?.statusText || String(e);
  if (err?.status === 404) {
    return `The datasource's backend has no pprof export (HTTP 404 on resource "export"): ${detail}`;
  }
  return err?.status ? `Export failed (HTTP ${err.status}): ${detail}` : `Export failed: ${detail}`;
}

/** A blob's text (FileReader where Blob.text is missing, as in older engines and jsdom). */
function blobText(b: Blob): Promise<string> {
  if (typeof b.text === 'function') {
    return b.text();
  }
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error);
    r.readAsText(b);
  });
}
