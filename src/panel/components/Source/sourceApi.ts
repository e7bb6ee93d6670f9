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
  /** A diff query's right side; the source view then shows both sides per line. */
  comparison?: { labelSelector: string; from: number; to: number };
  /** A diff query's left range when it is not the panel's. */
  baseline?: { from: number; to: number };
}

/** One side of a line on a diff. */
export interface SideCost {
  self: number;
  total: number;
}

export interface SourceLine {
  line: number;
  text: string;
  self: number;
  total: number;
  /** On a diff: each side's; self and total are then the comparison's less the baseline's. */
  baseline?: SideCost;
  comparison?: SideCost;
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
  /** Set when the lines carry a diff's two sides; total is then the baseline's. */
  diff?: boolean;
  baselineTotal?: number;
  comparisonTotal?: number;
}

/** The query fields of a panel's first target, as the datasource's query carries them. */
interface TargetLike {
  datasource?: { uid?: string } | null;
  profileTypeId?: string;
  labelSelector?: string;
  expr?: string;
  queryType?: string;
  comparison?: { labelSelector?: string; from?: number; to?: number };
  baseline?: { from?: number; to?: number };
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
  const out: SourceTarget = { datasourceUid: t.datasource.uid, profileTypeId, labelSelector, expr, ...range };
  const c = t.comparison;
  if (t.queryType === 'diff' && c?.from && c.to) {
    out.comparison = { labelSelector: c.labelSelector ?? '', from: c.from, to: c.to };
    if (t.baseline?.from && t.baseline.to) {
      out.baseline = { from: t.baseline.from, to: t.baseline.to };
    }
  }
  return out;
}

/** The resource's address: Grafana's datasource resource route, which the playground serves too. */
export function sourceUrl(target: SourceTarget, fn: string): string {
  const q = new URLSearchParams({ function: fn, from: String(target.from), to: String(target.to) });
  for (const [k, v] of [
    ['profileTypeId', target.profileTypeId],
    ['labelSelector', target.labelSelector],
    ['expr', target.expr],
    ['comparison.labelSelector', target.comparison?.labelSelector || (target.comparison ? '{}' : undefined)],
    ['comparison.from', target.comparison && String(target.comparison.from)],
    ['comparison.to', target.comparison && String(target.comparison.to)],
    ['baseline.from', target.baseline && String(target.baseline.from)],
    ['baseline.to', target.baseline && String(target.baseline.to)],
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

/**
 * The lines to mark: the three with the largest total (ties included), hottest first; on a diff,
 * the three whose total changed most either way.
 */
export function hottestLines(file: SourceFile, count = 3): number[] {
  const size = (l: SourceLine) => Math.abs(l.total);
  const totals = [...new Set(file.lines.filter((l) => size(l) > 0).map(size))].sort((a, b) => b - a);
  const cut = totals[Math.min(count, totals.length) - 1];
  return file.lines
    .filter((l) => size(l) > 0 && size(l) >= cut)
    .sort((a, b) => size(b) - size(a) || a.line - b.line)
    .map((l) => l.line);
}
