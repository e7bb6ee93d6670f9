import { DataFrame, DataLink, DataQueryResponse, FieldType } from '@grafana/data';
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

/**
 * Adds to every series' value field a data link that opens the same query narrowed to that
 * series (its labels added to the selector). Links the backend set are kept. Series without
 * labels, and frames of other kinds, are left alone.
 */
export function addSeriesLinks(
  res: DataQueryResponse,
  queries: EmberscopeQuery[],
  ds: { uid: string; name: string }
): DataQueryResponse {
  const byRef = new Map(queries.map((q) => [q.refId, q]));
  const data = (res.data as DataFrame[]).map((frame) => {
    const q = frame.refId ? byRef.get(frame.refId) : undefined;
    if (!q || !frame.fields?.some((f) => f.type === FieldType.time)) {
      return frame;
    }
    return {
      ...frame,
      fields: frame.fields.map((field) => {
        const labels = field.labels ?? {};
        const usable = Object.entries(labels).filter(([n, v]) => !n.startsWith('__') && v !== OTHER_SERIES);
        if (field.type !== FieldType.number || usable.length === 0) {
          return field;
        }
        const link: DataLink<EmberscopeQuery> = {
          title: `Add ${usable.map(([n, v]) => `${n}="${v}"`).join(', ')} to the selector`,
          url: '',
          internal: { datasourceUid: ds.uid, datasourceName: ds.name, query: narrowToSeries(q, labels) },
        };
        const links = field.config?.links ?? [];
        return { ...field, config: { ...field.config, links: [...links, link] } };
      }),
    };
  });
  return { ...res, data };
}
