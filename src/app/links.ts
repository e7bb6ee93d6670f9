// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { TimeRange, urlUtil } from '@grafana/data';
import type { EmberscopeQuery } from '../datasource/types';

/** Grafana Explore's address for query on datasource uid over range (one pane). */
export function exploreUrl(uid: string, query: EmberscopeQuery, range: TimeRange): string {
  const panes = {
    emb: {
      datasource: uid,
      queries: [{ ...query, datasource: { uid, type: 'emberscope-datasource' } }],
      range: { from: String(range.from.valueOf()), to: String(range.to.valueOf()) },
    },
  };
  return urlUtil.renderUrl('/explore', { schemaVersion: 1, panes: JSON.stringify(panes) });
}

/** A new dashboard holding the query as a series panel and a flamegraph panel, over range. */
export function dashboardOf(title: string, uid: string, query: EmberscopeQuery, range: TimeRange) {
  const datasource = { uid, type: 'emberscope-datasource' };
  return {
    title,
    time: { from: range.from.toISOString(), to: range.to.toISOString() },
    panels: [
      {
        id: 1,
        type: 'timeseries',
        title: `${title}: series`,
        datasource,
        gridPos: { x: 0, y: 0, w: 24, h: 7 },
        targets: [{ ...query, refId: 'A', datasource, queryType: 'metrics' }],
      },
      {
        id: 2,
        type: 'emberscope-flamegraph-panel',
        title: `${title}: flame graph`,
        datasource,
        gridPos: { x: 0, y: 7, w: 24, h: 16 },
        targets: [{ ...query, refId: 'A', datasource, queryType: 'profile' }],
      },
    ],
    schemaVersion: 41,
  };
}
