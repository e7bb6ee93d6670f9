// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { lastValueFrom } from 'rxjs';
import { getBackendSrv } from '@grafana/runtime';

/** What the source resource needs besides the function: the panel's query and range. */
export interface SourceTarget {
  datasourceUid: string;
  profileTypeId?: string;
  labelSelector?: string;
  expr?: string;
  from: number;
  to: number;
}

export interface SourceLine {
  line: number;
  text: string;
  self: number;
  total: number;
}

export interface SourceFile {
  path: string;
  origin?: string;
  provider?: string;
  link?: string;
  goVersion?: string;
  startLine?: number;
  message?: string;
  warning?: string;
  lines: SourceLine[];
}

/** The answer of GET …/resources/source (pkg/datasource/plugin/resource_source.go). */
export interface SourceAnswer {
  function: string;
  unit: string;
  total: number;
  files: SourceFile[];
  truncated?: boolean;
  warnings?: string[];
}

/** The query fields of a panel's first target, as the datasource's query carries them. */
interface TargetLike {
  datasource?: { uid?: string } | null;
  profileTypeId?: string;
  labelSelector?: string;
  expr?: string;
}

/** The source target of a panel request, or undefined when the panel's query names no datasource. */
export function sourceTargetOf(
  targets: TargetLike[] | undefined,
  range: { from: number; to: number }
): SourceTarget | undefined {
  const t = targets?.find((x) => x.datasource?.uid && (x.profileTypeId || x.expr));
  if (!t?.datasource?.uid) {
    return undefined;
  }
  const { profileTypeId, labelSelector, expr } = t;
  return { datasourceUid: t.datasource.uid, profileTypeId, labelSelector, expr, ...range };
}

/** The resource's address: Grafana's datasource resource route, which the playground serves too. */
export function sourceUrl(target: SourceTarget, fn: string): string {
  const q = new URLSearchParams({ function: fn, from: String(target.from), to: String(target.to) });
  for (const [k, v] of [
    ['profileTypeId', target.profileTypeId],
    ['labelSelector', target.labelSelector],
    ['expr', target.expr],
  ] as const) {
    if (v) {
      q.set(k, v);
    }
  }
  return `/api/datasources/uid/${encodeURIComponent(target.datasourceUid)}/resources/source?${q.toString()}`;
}

/**
 * Asks the datasource for a function's source: through Grafana's backend service in Grafana,
 * through the page's own fetch where no backend service is installed (the playground).
 */
export async function loadSource(target: SourceTarget, fn: string): Promise<SourceAnswer> {
  const url = sourceUrl(target, fn);
  const srv = backendSrv();
  if (srv) {
    try {
      const res = await lastValueFrom(srv.fetch<SourceAnswer>({ url, showErrorAlert: false }));
      return res.data;
    } catch (e) {
      throw new Error(errorText(e));
    }
  }
  const res = await fetch(url);
  const body = await res.json().catch(() => undefined);
  if (!res.ok) {
    throw new Error(errorText({ data: body, status: res.status }));
  }
  return body as SourceAnswer;
}

function backendSrv() {
  try {
    return getBackendSrv() ?? undefined;
  } catch {
    return undefined;
  }
}

function errorText(e: unknown): string {
  const x = e as { data?: { error?: string; message?: string }; status?: number; message?: string };
  return x?.data?.error ?? x?.data?.message ?? x?.message ?? `HTTP ${x?.status ?? 'error'}`;
}

/** The lines to mark: the three with the largest total (ties included), hottest first. */
export function hottestLines(file: SourceFile, count = 3): number[] {
  const totals = [...new Set(file.lines.filter((l) => l.total > 0).map((l) => l.total))].sort((a, b) => b - a);
  const cut = totals[Math.min(count, totals.length) - 1];
  return file.lines
    .filter((l) => l.total > 0 && l.total >= cut)
    .sort((a, b) => b.total - a.total || a.line - b.line)
    .map((l) => l.line);
}
