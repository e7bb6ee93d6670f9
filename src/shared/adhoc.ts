// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { DataFrame, DataFrameJSON, dataFrameFromJSON } from '@grafana/data';
import { getBackendSrv } from '@grafana/runtime';
import { lastValueFrom } from 'rxjs';

/**
 * The client of the datasource's ad hoc profiles API (pkg/datasource/plugin/resource_adhoc*.go,
 * shaped as Pyroscope's adhocprofiles.v1): files are uploaded in chunks that fit one resource
 * call (Grafana passes at most 16 MiB), kept by the backend under an id bound to the user, and
 * read back as the frames the panel draws.
 */

/** One chunk: well under Grafana's 16 MiB resource body. */
export const CHUNK_BYTES = 8 << 20;

/** An open file, as the backend describes it. */
export interface OpenedFile {
  id: string;
  name: string;
  uploadedAt: number;
  format: string;
  profileTypes: string[];
  samples: number;
  truncatedStacks?: number;
}

/** How a comparison is drawn: pprof's -diff_base (a diff) or -base (comparison minus baseline). */
export type DiffMode = 'diff_base' | 'base';

interface FetchError {
  data?: { error?: string; message?: string };
  message?: string;
  status?: number;
}

/** The message of a failed resource call: the backend's own words. */
export function errorText(e: unknown): string {
  const f = e as FetchError;
  return f?.data?.error ?? f?.data?.message ?? f?.message ?? String(e);
}

async function call<T>(uid: string, path: string, data: unknown, params?: Record<string, string>, binary = false): Promise<T> {
  try {
    return await send<T>(uid, path, data, params, binary);
  } catch (e) {
    throw new Error(errorText(e));
  }
}

async function send<T>(uid: string, path: string, data: unknown, params: Record<string, string> | undefined, binary: boolean): Promise<T> {
  const res = await lastValueFrom(
    getBackendSrv().fetch<T>({
      url: `/api/datasources/uid/${encodeURIComponent(uid)}/resources/adhoc/${path}`,
      method: 'POST',
      params,
      data,
      headers: binary ? { 'Content-Type': 'application/octet-stream' } : undefined,
      showErrorAlert: false,
    })
  );
  return res.data;
}

/** Uploads one file in chunks and returns it opened; the error names the file and what was wrong. */
export async function uploadFile(uid: string, file: Blob & { name: string }): Promise<OpenedFile> {
  let uploadId = '';
  if (file.size === 0) {
    throw new Error(`${file.name}: the file is empty`);
  }
  for (let offset = 0; offset < file.size; offset += CHUNK_BYTES) {
    const chunk = file.slice(offset, Math.min(file.size, offset + CHUNK_BYTES));
    const params: Record<string, string> = { name: file.name, size: String(file.size), offset: String(offset) };
    if (uploadId) {
      params.uploadId = uploadId;
    }
    const ans = await call<{ uploadId: string; profile?: OpenedFile }>(uid, 'upload', chunk, params, true);
    uploadId = ans.uploadId;
    if (ans.profile) {
      return ans.profile;
    }
  }
  throw new Error(`${file.name}: the upload ended without the file being opened`);
}

/** The answer of get and diff: frames, and every profile type of the files. */
export interface FilesAnswer {
  profileTypes: string[];
  frames: DataFrame[];
}

function framesOf(ans: { profileTypes?: string[]; frames?: DataFrameJSON[] }): FilesAnswer {
  return { profileTypes: ans.profileTypes ?? [], frames: (ans.frames ?? []).map((f) => dataFrameFromJSON(f)) };
}

/** The files merged (as pprof merges them) under a query of the panel's shape. */
export async function queryFiles(uid: string, ids: string[], query: Record<string, unknown>): Promise<FilesAnswer> {
  return framesOf(await call(uid, 'get', { ids, query }));
}

/** A live query as one side of a comparison: the datasource's profile type, a selector, a range (epoch ms). */
export interface LiveQuery {
  profileTypeId: string;
  labelSelector: string;
  from: number;
  to: number;
}

/** One side of a comparison: open files, or a live query of the datasource. */
export type Side = { ids: string[] } | { live: LiveQuery };

/** The diff request's fields for a baseline (left) and a comparison (right). */
function sidesBody(left: Side, right: Side): Record<string, unknown> {
  const of = (s: Side, key: 'left' | 'right') => ('ids' in s ? { [`${key}Ids`]: s.ids } : { [`${key}Live`]: s.live });
  return { ...of(left, 'left'), ...of(right, 'right') };
}

/** A baseline against a comparison (files or live queries), with pprof's -diff_base/-base and -normalize. */
export async function diffSides(
  uid: string,
  left: Side,
  right: Side,
  query: Record<string, unknown>,
  mode: DiffMode,
  normalize: boolean
): Promise<FilesAnswer> {
  return framesOf(await call(uid, 'diff', { ...sidesBody(left, right), query, mode, normalize }));
}

/** What the page shows: files merged under a query, or a comparison. */
export type Shown =
  | { ids: string[]; query: Record<string, unknown> }
  | { left: Side; right: Side; query: Record<string, unknown>; mode: DiffMode; normalize: boolean };

/** What is shown as a gzipped pprof file (the backend's adhoc/export), for `go tool pprof`. */
export async function exportShown(uid: string, shown: Shown): Promise<Blob> {
  const body =
    'ids' in shown
      ? shown
      : { ...sidesBody(shown.left, shown.right), query: shown.query, mode: shown.mode, normalize: shown.normalize };
  const res = await lastValueFrom(
    getBackendSrv().fetch<Blob>({
      url: `/api/datasources/uid/${encodeURIComponent(uid)}/resources/adhoc/export`,
      method: 'POST',
      data: body,
      responseType: 'blob',
      showErrorAlert: false,
    })
  );
  return res.data;
}
