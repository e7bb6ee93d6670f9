// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import {
  DataFrame,
  FieldConfigSource,
  LinkModel,
  applyFieldOverrides,
  createTheme,
  dateMath,
  dateTime,
} from '@grafana/data';
import type { EmberscopeQuery } from '../datasource/types';
import { addSeriesLinks } from '../datasource/links';
import { interpolateQuery } from '../datasource/interpolate';
import { DashboardState, grafanaReplaceVariables, standardFieldConfigRegistry } from '../shared/grafanaTemplate';
import { DATASOURCE_UID } from './api';

/**
 * What makes the playground as strict as Grafana where plugins broke in Grafana 12.4:
 * - dashboard variables in the address (`var-<name>=<value>`, as Grafana's dashboard URLs) and
 *   the dashboard's range (`from`/`to`), replaced in the query before it runs, as Grafana's
 *   template service does;
 * - the series' data links built by the datasource's own code (addSeriesLinks) and configured
 *   and interpolated by @grafana/data's code (applyFieldOverrides with the panel's field
 *   config, getLinksSupplier), with a model of Grafana's template service;
 * - Explore's addresses (`/explore?schemaVersion=1&panes=…` and the internal links'
 *   `/explore?left=…`) opened as Grafana opens them.
 */

/** The datasource the playground serves, as links name it. */
export const PLAYGROUND_DS = { uid: DATASOURCE_UID, name: 'Emberscope', type: 'emberscope-datasource' };

/**
 * The field config Explore's graph gives every field of a series frame: its numbers in the
 * unit "short" (which formatted a text field holding Unix ms as "1.80 Tri").
 */
export const EXPLORE_FIELD_CONFIG: FieldConfigSource = { defaults: { unit: 'short' }, overrides: [] };

/** The dashboard variables of an address: every `var-<name>` (repeated for several values). */
export function readVariables(search: string): Record<string, string | string[]> {
  const p = new URLSearchParams(search);
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(p.keys())) {
    if (key.startsWith('var-') && key.length > 4) {
      const all = p.getAll(key);
      out[key.slice(4)] = all.length === 1 ? all[0] : all;
    }
  }
  return out;
}

/** A range end as Explore's URL gives it: Unix ms, or relative (`now-6h`). */
function rangeEnd(v: unknown, roundUp: boolean, now: number): number | undefined {
  if (typeof v === 'number') {
    return v;
  }
  if (typeof v !== 'string' || v === '') {
    return undefined;
  }
  if (/^\d+$/.test(v)) {
    return Number(v);
  }
  const d = dateMath.toDateTime(v, { roundUp, now: dateTime(now) });
  if (!d?.isValid()) {
    throw new Error(`the Explore address's range end ${JSON.stringify(v)} is neither Unix ms nor a time such as now-6h`);
  }
  return d.valueOf();
}

/** What an Explore address opens: the first query of its pane, over its range. */
export interface ExploreView {
  query: EmberscopeQuery;
  from: number;
  to: number;
}

/**
 * Reads an Explore address (`/explore?schemaVersion=1&panes={"id":{datasource, queries,
 * range}}` or the older `/explore?left={datasource, queries, range}` of internal links).
 * Throws with what is wrong for an Explore address the playground cannot open.
 */
export function readExploreUrl(pathname: string, search: string, now = Date.now()): ExploreView | undefined {
  if (!pathname.replace(/\/+$/, '').endsWith('/explore')) {
    return undefined;
  }
  const p = new URLSearchParams(search);
  let pane: { queries?: EmberscopeQuery[]; range?: { from?: unknown; to?: unknown } } | undefined;
  try {
    if (p.get('panes')) {
      const panes = JSON.parse(p.get('panes')!);
      pane = panes[Object.keys(panes)[0]];
    } else if (p.get('left')) {
      pane = JSON.parse(p.get('left')!);
    }
  } catch (e) {
    throw new Error(`the Explore address does not parse: ${e instanceof Error ? e.message : String(e)}`);
  }
  const q = pane?.queries?.[0];
  if (!q) {
    throw new Error('the Explore address has no query (panes=… or left=… with queries)');
  }
  const to = rangeEnd(pane?.range?.to, true, now) ?? now;
  const from = rangeEnd(pane?.range?.from, false, now) ?? to - 3_600_000;
  if (!Number.isFinite(from) || !Number.isFinite(to) || from >= to) {
    throw new Error(`the Explore address's range ${JSON.stringify(pane?.range)} is not a range`);
  }
  return { query: { ...q, refId: q.refId || 'A' }, from, to };
}

/** The query with the dashboard's variables replaced, as Grafana's datasource runs it. */
export function asRun(q: EmberscopeQuery, state: DashboardState): EmberscopeQuery {
  const replace = grafanaReplaceVariables(state);
  return interpolateQuery(q, { replace: (t, sv, f) => replace(t ?? '', sv, f) });
}

/**
 * The series as a Grafana panel holds them: the datasource's links added to the query as run,
 * configured by @grafana/data (field config, display processors, getLinks).
 */
export function linkedSeries(
  series: DataFrame[],
  q: EmberscopeQuery,
  state: DashboardState,
  raw: { from: string; to: string },
  fieldConfig: FieldConfigSource = EXPLORE_FIELD_CONFIG
): DataFrame[] {
  const range = { from: dateTime(state.from), to: dateTime(state.to), raw };
  const res = addSeriesLinks(
    { data: series.map((f) => ({ ...f, refId: f.refId ?? q.refId })) },
    [q],
    PLAYGROUND_DS,
    range
  );
  return applyFieldOverrides({
    data: res.data,
    fieldConfig,
    fieldConfigRegistry: standardFieldConfigRegistry(),
    replaceVariables: grafanaReplaceVariables(state),
    theme: createTheme(),
    timeZone: 'browser',
  });
}

/** The links of a series point (a frame's number field, a row), as Grafana's tooltip lists them. */
export function pointLinks(frame: DataFrame, row: number): Array<LinkModel<unknown>> {
  const field = frame.fields.find((f) => f.getLinks && (f.config.links?.length ?? 0) > 0);
  return field?.getLinks ? field.getLinks({ valueRowIndex: row }) : [];
}
