// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { EmberscopeQuery, QueryType, buildExpr } from '../datasource';
import { DEFAULT_LIVE_INTERVAL, DEFAULT_LIVE_WINDOW, parseDuration } from '../datasource/types';

/** What the page draws for each query type. */
export function viewsOf(type: QueryType): { series: boolean; flame: boolean; table: boolean } {
  return {
    series: type === 'both' || type === 'metrics' || type === 'novelty',
    flame: type === 'both' || type === 'profile' || type === 'diff',
    table: type === 'topTable' || type === 'labels' || type === 'histogram',
  };
}

/** The query text the address holds: the editor's text, else the structured fields written as text. */
export function addressText(q: EmberscopeQuery): string {
  const expr = q.expr?.trim();
  if (expr) {
    return expr;
  }
  return q.profileTypeId ? buildExpr(q.profileTypeId, q.labelSelector, q.groupBy) : '';
}

/** How often (ms) and over how long (ms) a live query is polled; defaults for empty or bad durations. */
export function livePolling(q: EmberscopeQuery): { every: number; window: number } {
  return {
    every: parseDuration(q.liveInterval || DEFAULT_LIVE_INTERVAL) ?? parseDuration(DEFAULT_LIVE_INTERVAL)!,
    window: parseDuration(q.liveWindow || DEFAULT_LIVE_WINDOW) ?? parseDuration(DEFAULT_LIVE_WINDOW)!,
  };
}
