// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import type { EmberscopeQuery } from '../datasource/types';
import { readExploreUrl } from './grafana';
import { readUrl, restoredQuery } from './url';
import { addressText } from './views';

/** What the page opens with, read from its address. */
export interface StartView {
  query: EmberscopeQuery;
  from: number;
  to: number;
  /** What was wrong with the address (a bad Explore address or `json` parameter). */
  error?: string;
  /** Whether the address holds a query to run at once. */
  runAtOnce: boolean;
}

/**
 * The view an address opens: an Explore address (a data link's) opens its pane's query over
 * its range; the playground's own address its query text, stored query and range.
 */
export function startViewOf(pathname: string, search: string): StartView {
  let explore;
  let exploreError: string | undefined;
  try {
    explore = readExploreUrl(pathname, search);
  } catch (e) {
    exploreError = e instanceof Error ? e.message : String(e);
  }
  if (explore) {
    return {
      query: { queryType: 'both', labelSelector: '{}', groupBy: [], ...explore.query, refId: 'A' },
      from: explore.from,
      to: explore.to,
      runAtOnce: true,
    };
  }
  const u = readUrl(search);
  return {
    query: restoredQuery(u, addressText),
    from: u.from,
    to: u.to,
    error: exploreError ?? u.error,
    runAtOnce: Boolean(u.query || u.full),
  };
}
