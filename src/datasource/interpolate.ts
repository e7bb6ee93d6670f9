// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { AdHocVariableFilter, ScopedVars } from '@grafana/data';
import { TemplateSrv } from '@grafana/runtime';
import { EmberscopeQuery } from './types';
import { Matcher, MatchOp, mapExprSelectors, withMatchers } from './language/selector';

const escapeRegex = (s: string) => s.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
const escapeString = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');

/**
 * Formats a variable's value inside a quoted matcher value: one value as is (escaped for the
 * string), several (a multi-value or "All" variable) as an alternation of regex-escaped values
 * for use with `=~`.
 */
export function matcherValueFormat(value: string | string[]): string {
  if (Array.isArray(value)) {
    return value.length === 1 ? escapeString(value[0]) : escapeString(value.map(escapeRegex).join('|'));
  }
  return escapeString(String(value));
}

/** The matcher an ad-hoc filter stands for; throws for operators label matchers cannot express. */
export function filterToMatcher(f: AdHocVariableFilter): Matcher {
  const simple: Record<string, MatchOp> = { '=': '=', '!=': '!=', '=~': '=~', '!~': '!~' };
  if (simple[f.operator]) {
    return { name: f.key, op: simple[f.operator], value: f.value };
  }
  if ((f.operator === '=|' || f.operator === '!=|') && f.values?.length) {
    return { name: f.key, op: f.operator === '=|' ? '=~' : '!~', value: f.values.map(escapeRegex).join('|') };
  }
  throw new Error(
    `ad-hoc filter ${f.key} ${f.operator} ${JSON.stringify(f.value)}: operator ${JSON.stringify(f.operator)} is not supported, use =, !=, =~ or !~`
  );
}

/**
 * The query with template variables replaced in the profile type, selector, expr, group-by and
 * a diff's comparison (its selector, and its range when a dashboard gives it as variables such
 * as `$__from`/`$__to`), and ad-hoc filters added to the selector (and to every selector of the
 * expr) as matchers.
 */
export function interpolateQuery(
  q: EmberscopeQuery,
  templateSrv: Pick<TemplateSrv, 'replace'>,
  scopedVars: ScopedVars = {},
  filters: AdHocVariableFilter[] = []
): EmberscopeQuery {
  const out: EmberscopeQuery = { ...q };
  if (q.profileTypeId) {
    out.profileTypeId = templateSrv.replace(q.profileTypeId, scopedVars);
  }
  if (q.labelSelector !== undefined) {
    out.labelSelector = templateSrv.replace(q.labelSelector, scopedVars, matcherValueFormat);
  }
  if (q.expr) {
    out.expr = templateSrv.replace(q.expr, scopedVars, matcherValueFormat);
  }
  if (q.groupBy) {
    out.groupBy = q.groupBy
      .flatMap((g) => templateSrv.replace(g, scopedVars, 'csv').split(','))
      .map((g) => g.trim())
      .filter(Boolean);
  }
  for (const field of ['spanSelector', 'profileIdSelector'] as const) {
    const ids = q[field];
    if (ids) {
      // a multi-value variable (a trace's span ids) gives several ids
      out[field] = ids
        .flatMap((id) => templateSrv.replace(id, scopedVars, 'csv').split(','))
        .map((id) => id.trim())
        .filter(Boolean);
    }
  }
  if (q.comparison) {
    const time = (v: unknown) => (typeof v === 'string' ? Number(templateSrv.replace(v, scopedVars)) : (v as number));
    // the rest of the comparison (its call site) passes as it is
    out.comparison = {
      ...q.comparison,
      labelSelector: templateSrv.replace(q.comparison.labelSelector ?? '{}', scopedVars, matcherValueFormat),
      from: time(q.comparison.from),
      to: time(q.comparison.to),
    };
  }
  if (filters.length) {
    const add = filters.map(filterToMatcher);
    out.labelSelector = withMatchers(out.labelSelector?.trim() || '{}', add);
    if (out.expr?.trim()) {
      out.expr = mapExprSelectors(out.expr, (sel) => withMatchers(sel, add));
    }
  }
  return out;
}
