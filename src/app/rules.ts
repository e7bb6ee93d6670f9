// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { lastValueFrom } from 'rxjs';
import { locationUtil, urlUtil } from '@grafana/data';
import { getBackendSrv } from '@grafana/runtime';
import type { Line } from './query';
import { APP_BASE } from './state';

/**
 * Recording rules as the datasource's `rules` resources carry them
 * (pkg/datasource/plugin/resource_rules*.go, Pyroscope's settings.v1.RecordingRule in our terms),
 * the form's fields and their checks, and the links to a rule's series.
 */

export interface RuleLabel {
  name: string;
  value: string;
}

export interface RecordingRule {
  id?: string;
  metricName: string;
  profileType?: string;
  matchers: string[];
  groupBy: string[];
  externalLabels: RuleLabel[];
  functionName?: string;
  generation?: number | string;
  provisioned?: boolean;
}

/** What the form edits: text fields, turned into a rule by ruleOfForm. */
export interface RuleForm {
  id?: string;
  generation?: number | string;
  metricName: string;
  profileType: string;
  /** The matchers besides the profile type: `{service_name="api"}`. */
  selector: string;
  /** Comma-separated label names. */
  groupBy: string;
  functionName: string;
  /** `name=value` pairs, comma-separated. */
  externalLabels: string;
}

export const METRIC_PREFIX = 'profiles_recorded_';
const PROFILE_TYPE = '__profile_type__';
const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const LABEL_NAME_TEXT = '^[a-zA-Z_][a-zA-Z0-9_]*$';
const MATCHER = /^\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"\s*$/;

/** Splits `a, b` into trimmed non-empty parts. */
const parts = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** Splits a selector's inside at the commas outside quotes. */
function matcherTexts(inside: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < inside.length; i++) {
    const c = inside[i];
    if (c === '\\' && quoted) {
      cur += c + (inside[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '"') {
      quoted = !quoted;
    }
    if (c === ',' && !quoted) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  if (cur.trim()) {
    out.push(cur);
  }
  return out;
}

/** The matchers of a selector (`{a="x", b=~"y"}`), or the reason it is not one. */
export function parseSelector(
  selector: string
): { matchers: Array<{ name: string; op: string; value: string }> } | { error: string } {
  const s = selector.trim() || '{}';
  if (!s.startsWith('{') || !s.endsWith('}')) {
    return { error: 'write the matchers in braces: {service_name="api"}' };
  }
  const matchers = [];
  for (const m of matcherTexts(s.slice(1, -1))) {
    const x = MATCHER.exec(m);
    if (!x) {
      return { error: `${m.trim()} is not a matcher such as name="value"` };
    }
    matchers.push({ name: x[1], op: x[2], value: x[3] });
  }
  return { matchers };
}

/**
 * The form's problems, one a field, in the words the server uses for them (Pyroscope's texts,
 * recordings 91–96), so that the form says what saving would say; empty when there are none.
 */
export function validateForm(f: RuleForm): Partial<Record<keyof RuleForm, string>> {
  const out: Partial<Record<keyof RuleForm, string>> = {};
  const name = f.metricName.trim();
  if (!name) {
    out.metricName = 'metric_name is required';
  } else if (!METRIC_NAME.test(name)) {
    out.metricName = `metric_name "${name}" is invalid: invalid metric name: ${name}`;
  } else if (!name.startsWith(METRIC_PREFIX)) {
    out.metricName = `metric_name "${name}" is invalid: metric name must start with ${METRIC_PREFIX}`;
  }
  if (!f.profileType.trim()) {
    out.profileType = `matchers must contain a "${PROFILE_TYPE}" matcher`;
  }
  const sel = parseSelector(f.selector);
  if ('error' in sel) {
    out.selector = `matcher "${f.selector.trim()}" is invalid: ${sel.error}`;
  } else if (sel.matchers.some((m) => m.name === PROFILE_TYPE)) {
    out.selector = `pick the profile type above instead of a "${PROFILE_TYPE}" matcher`;
  }
  const badGroup = parts(f.groupBy).find((l) => !LABEL_NAME.test(l));
  if (badGroup !== undefined) {
    out.groupBy = `group_by label "${badGroup}" must match ${LABEL_NAME_TEXT}`;
  }
  for (const pair of parts(f.externalLabels)) {
    const i = pair.indexOf('=');
    const label = i < 0 ? pair : pair.slice(0, i).trim();
    if (i < 0) {
      out.externalLabels = `"${pair}" is not name=value`;
      break;
    }
    if (!LABEL_NAME.test(label)) {
      out.externalLabels = `external_labels name "${label}" must match ${LABEL_NAME_TEXT}`;
      break;
    }
  }
  return out;
}

/** The rule a form stands for: the profile type joins the selector's matchers as one selector. */
export function ruleOfForm(f: RuleForm): RecordingRule {
  const sel = parseSelector(f.selector);
  const rest = 'matchers' in sel ? sel.matchers.map((m) => `${m.name}${m.op}"${m.value}"`) : [];
  const matchers = [`${PROFILE_TYPE}="${f.profileType.trim()}"`, ...rest];
  return {
    ...(f.id ? { id: f.id, generation: Number(f.generation ?? 0) } : {}),
    metricName: f.metricName.trim(),
    matchers: [`{${matchers.join(', ')}}`],
    groupBy: parts(f.groupBy),
    externalLabels: parts(f.externalLabels).map((p) => {
      const i = p.indexOf('=');
      return { name: p.slice(0, i).trim(), value: p.slice(i + 1).trim() };
    }),
    ...(f.functionName.trim() ? { functionName: f.functionName.trim() } : {}),
  };
}

/** The form of a stored rule: its profile type apart, the other matchers as one selector. */
export function formOfRule(r: RecordingRule): RuleForm {
  const others: string[] = [];
  let profileType = r.profileType ?? '';
  for (const m of r.matchers) {
    const sel = parseSelector(m);
    if (!('matchers' in sel)) {
      continue;
    }
    for (const x of sel.matchers) {
      if (x.name === PROFILE_TYPE && x.op === '=') {
        profileType = x.value;
      } else {
        others.push(`${x.name}${x.op}"${x.value}"`);
      }
    }
  }
  return {
    id: r.id,
    generation: r.generation,
    metricName: r.metricName,
    profileType,
    selector: `{${others.join(', ')}}`,
    groupBy: r.groupBy.join(', '),
    functionName: r.functionName ?? '',
    externalLabels: r.externalLabels.map((l) => `${l.name}=${l.value}`).join(', '),
  };
}

/** A metric name from a function's name: `profiles_recorded_` and its last part in snake case. */
export function suggestedMetricName(fn: string): string {
  const last = fn.split(/[./]/).filter(Boolean).pop() ?? '';
  const snake = last
    .replace(/[^a-zA-Z0-9]+/g, '_')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  return `${METRIC_PREFIX}${snake || 'total'}`;
}

/** The app's address of a new rule's form, prefilled (the flame graph's "Track as a metric"). */
export function trackUrl(p: { ds?: string; profileType?: string; selector?: string; fn: string }): string {
  const q: Record<string, string> = { new: '1', fn: p.fn };
  if (p.ds) {
    q.ds = p.ds;
  }
  if (p.profileType) {
    q.type = p.profileType;
  }
  if (p.selector) {
    q.sel = p.selector;
  }
  return locationUtil.assureBaseUrl(urlUtil.renderUrl(`${APP_BASE}/rules`, q));
}

/** The form a rules address asks for (`new=1` with `fn`, `type`, `sel`), or undefined. */
export function formOfSearch(search: string): RuleForm | undefined {
  const p = new URLSearchParams(search);
  if (p.get('new') !== '1') {
    return undefined;
  }
  const fn = p.get('fn') ?? '';
  return {
    metricName: fn ? suggestedMetricName(fn) : METRIC_PREFIX,
    profileType: p.get('type') ?? '',
    selector: p.get('sel') || '{}',
    groupBy: '',
    functionName: fn,
    externalLabels: '',
  };
}

/** Explore on a Prometheus datasource with the rule's metric as the query. */
export function exploreUrl(prometheusUid: string, metricName: string): string {
  const panes = {
    rule: {
      datasource: prometheusUid,
      queries: [{ refId: 'A', datasource: { type: 'prometheus', uid: prometheusUid }, expr: metricName }],
      range: { from: 'now-1h', to: 'now' },
    },
  };
  return locationUtil.assureBaseUrl(urlUtil.renderUrl('/explore', { schemaVersion: 1, panes: JSON.stringify(panes) }));
}

/** The message of a failed resource call: the datasource's `error`, else Grafana's `message`. */
export function errorText(e: unknown): string {
  const x = e as { data?: { error?: string; message?: string }; message?: string } | undefined;
  return x?.data?.error ?? x?.data?.message ?? x?.message ?? String(e);
}

async function call<T>(uid: string, path: string, method: 'GET' | 'POST', data?: unknown): Promise<T> {
  const res = await lastValueFrom(
    getBackendSrv().fetch<T>({
      url: `/api/datasources/uid/${encodeURIComponent(uid)}/resources/${path}`,
      method,
      data,
      showErrorAlert: false,
    })
  );
  return res.data;
}

export const listRules = async (uid: string) => (await call<{ rules: RecordingRule[] }>(uid, 'rules', 'GET')).rules;
export const saveRule = (uid: string, r: RecordingRule) => call<RecordingRule>(uid, 'rules/upsert', 'POST', r);
export const deleteRule = (uid: string, id: string) => call<unknown>(uid, 'rules/delete', 'POST', { id });

/** The preview resource's answer: per group_by value set, the points of the last hour. */
export interface Preview {
  from: number;
  to: number;
  stepMs: number;
  series: Array<{ labels: Record<string, string>; times: number[]; values: number[] }>;
}

export const previewRule = (uid: string, r: RecordingRule) => call<Preview>(uid, 'rules/preview', 'POST', r);

/** A preview's series as the app's chart draws them. */
export function linesOfPreview(p: Preview): Line[] {
  return p.series.map((s) => ({
    labels: s.labels,
    name: Object.keys(s.labels).length
      ? Object.entries(s.labels)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ')
      : 'total',
    times: s.times,
    values: s.values,
    total: s.values.reduce((a, b) => a + b, 0),
  }));
}
