// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { DataFrame, DataLink, DataQueryResponse, DataTopic, FieldType, TimeRange } from '@grafana/data';
import { EmberscopeQuery } from './types';
import { Matcher, mapExprSelectors, withMatchers } from './language/selector';

/** The label value the backend gives the series folded from those beyond the limit. */
export const OTHER_SERIES = 'other';

/** The query narrowed to one series: its labels become `=` matchers of the selector (and the expr's). */
export function narrowToSeries(q: EmberscopeQuery, labels: Record<string, string>): EmberscopeQuery {
  const add: Matcher[] = Object.entries(labels)
    .filter(([name, value]) => !name.startsWith('__') && value !== OTHER_SERIES)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => ({ name, op: '=', value }));
  const out: EmberscopeQuery = { ...q, labelSelector: withMatchers(q.labelSelector || '{}', add, true) };
  if (q.expr?.trim()) {
    out.expr = mapExprSelectors(q.expr, (sel) => withMatchers(sel, add, true));
  }
  // the series' own labels are now fixed: grouping by them would give one series again
  out.groupBy = (q.groupBy ?? []).filter((g) => !(g in labels));
  return out;
}

/** Names of the time fields in which the backend gives each series point's step window. */
export const STEP_START_FIELD = 'stepStart';
export const STEP_END_FIELD = 'stepEnd';

/**
 * Grafana's data-link variables for the clicked point's step window, in Unix ms. Grafana's
 * `${__data.fields.<name>}` is the field's *display text* in the clicked row, which its display
 * processor formats (a text field "1796184272866" becomes "1.80 Tri", a time field a date, and
 * the panel's unit applies to every field); `.numeric` is the display value's number, which
 * no unit, decimals or value mapping changes: the time field's Unix ms.
 */
export const STEP_START_VAR = `\${__data.fields.${STEP_START_FIELD}.numeric}`;
export const STEP_END_VAR = `\${__data.fields.${STEP_END_FIELD}.numeric}`;

// stand-ins for the variables while the URL is encoded (encodeURIComponent leaves them as they are)
const START_TOKEN = '__emberscope_step_start__';
const END_TOKEN = '__emberscope_step_end__';

/**
 * The Explore URL (schema 1, one pane) of the flamegraph of a series point's step: query
 * narrowed to the series' labels as a profile query, over the range [STEP_START_VAR,
 * STEP_END_VAR], which Grafana fills in from the clicked point's row when the link is used.
 */
export function stepFlamegraphUrl(
  q: EmberscopeQuery,
  labels: Record<string, string>,
  ds: { uid: string; type?: string }
): string {
  const { live: _live, ...rest } = narrowToSeries(q, labels);
  const query = { ...rest, refId: 'A', queryType: 'profile', datasource: { type: ds.type, uid: ds.uid } };
  const panes = { flame: { datasource: ds.uid, queries: [query], range: { from: START_TOKEN, to: END_TOKEN } } };
  const encoded = encodeURIComponent(JSON.stringify(panes))
    .replace(START_TOKEN, STEP_START_VAR)
    .replace(END_TOKEN, STEP_END_VAR);
  return `/explore?schemaVersion=1&panes=${encoded}`;
}

/**
 * Adds to every series' value field data links:
 * - "Flamegraph of this step" (when the frame carries its points' step windows): the
 *   flamegraph of the clicked point's step, with the query's selector and the series' labels,
 *   opened in Explore; Grafana interpolates the step from the point's row;
 * - "Add … to the selector" (for labelled series): the same query narrowed to that series,
 *   over `range` (the request's range: the dashboard's, relative ranges kept relative).
 * `queries` must be the queries as run, template variables replaced: a link's URL is encoded,
 * so Grafana's link interpolation would no longer see a `$variable` inside it.
 * Links the backend set are kept. Frames of other kinds are left alone.
 */
export function addSeriesLinks(
  res: DataQueryResponse,
  queries: EmberscopeQuery[],
  ds: { uid: string; name: string; type?: string },
  range?: TimeRange
): DataQueryResponse {
  const byRef = new Map(queries.map((q) => [q.refId, q]));
  const data = (res.data as DataFrame[]).map((frame) => {
    const q = frame.refId ? byRef.get(frame.refId) : undefined;
    // exemplars carry the backend's own links (to one profile, one span, one trace)
    if (
      !q ||
      frame.meta?.dataTopic === DataTopic.Annotations ||
      !frame.fields?.some((f) => f.type === FieldType.time)
    ) {
      return frame;
    }
    const names = new Set(frame.fields.map((f) => f.name));
    const hasSteps = names.has(STEP_START_FIELD) && names.has(STEP_END_FIELD);
    return {
      ...frame,
      fields: frame.fields.map((field) => {
        const labels = field.labels ?? {};
        const usable = Object.entries(labels).filter(([n, v]) => !n.startsWith('__') && v !== OTHER_SERIES);
        // the series folded from those beyond the limit has no selector of its own
        const stepLink = hasSteps && !Object.values(labels).includes(OTHER_SERIES);
        if (field.type !== FieldType.number || (usable.length === 0 && !stepLink)) {
          return field;
        }
        const added: Array<DataLink<EmberscopeQuery>> = [];
        if (stepLink) {
          added.push({ title: 'Flamegraph of this step', url: stepFlamegraphUrl(q, labels, ds) });
        }
        if (usable.length > 0) {
          added.push({
            title: `Add ${usable.map(([n, v]) => `${n}="${v}"`).join(', ')} to the selector`,
            url: '',
            internal: {
              datasourceUid: ds.uid,
              datasourceName: ds.name,
              query: narrowToSeries(q, labels),
              ...(range ? { range } : {}),
            },
          });
        }
        const links = field.config?.links ?? [];
        return { ...field, config: { ...field.config, links: [...links, ...added] } };
      }),
    };
  });
  return { ...res, data };
}
