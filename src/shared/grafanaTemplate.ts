// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import {
  DataFrame,
  Field,
  FieldConfigOptionsRegistry,
  FieldConfigPropertyItem,
  FieldType,
  InterpolateFunction,
  ScopedVars,
  formattedValueToString,
  getDisplayProcessor,
  getFieldDisplayValuesProxy,
  displayNameOverrideProcessor,
  numberOverrideProcessor,
  stringOverrideProcessor,
  valueMappingsOverrideProcessor,
} from '@grafana/data';

/**
 * A model of Grafana's template service (`templateSrv.replace`, which lives in Grafana itself,
 * not in @grafana/data) as far as data links use it, so that a playground and tests interpolate
 * links as Grafana 12.4 does:
 * - `$name`, `${name}`, `${name:format}` and `[[name]]` of dashboard variables (formats raw,
 *   text, csv, pipe, regex, percentencode/uriencode, queryparam; a custom format function);
 * - `${__from}`/`${__to}` (Unix ms of the dashboard's range; `:date` gives ISO 8601);
 * - the macros of the link's data context: `${__data.fields.<name>[.<prop>]}` reads the
 *   *display value* of that field in the clicked row (its text unless a property such as
 *   `numeric` is named: @grafana/data's getFieldDisplayValuesProxy, the field's own display
 *   processor, as Grafana's dataMacro does; no format is applied),
 *   `${__value.raw|numeric|text|time}` and `${__field.name}` / `${__field.labels.<name>}`.
 * Unknown variables are left as they are, as Grafana leaves them.
 */
export interface DashboardState {
  /** Dashboard variables: name to value (several values for multi-value variables). */
  variables: Record<string, string | string[]>;
  /** The dashboard's range, Unix ms. */
  from: number;
  to: number;
}

// Grafana's variable syntax: $name, [[name(:format)]], ${name(.path)(:format)}
const VARIABLE = /\$(\w+)|\[\[(\w+?)(?::(\w+))?\]\]|\${(\w+)(?:\.([^:^}]+))?(?::([^}]+))?}/g;

type Format = string | ((value: string | string[]) => string) | undefined;

function regexEscape(s: string): string {
  return s.replace(/[\\^$*+?.()|[\]{}/]/g, '\\$&');
}

/** Grafana's encodeURIComponentAsAngularJS (the `percentencode`/`uriencode` formats). */
function uriEncode(s: string): string {
  return encodeURIComponent(s)
    .replace(/%40/gi, '@')
    .replace(/%3A/gi, ':')
    .replace(/%24/g, '$')
    .replace(/%2C/gi, ',')
    .replace(/%3B/gi, ';');
}

function applyFormat(value: string | string[], format: Format, name: string): string {
  if (typeof format === 'function') {
    return format(value);
  }
  const list = Array.isArray(value) ? value : [value];
  switch (format) {
    case undefined:
    case 'glob':
      return list.length > 1 ? `{${list.join(',')}}` : list[0];
    case 'raw':
    case 'text':
    case 'csv':
      return list.join(',');
    case 'pipe':
      return list.join('|');
    case 'regex':
      return list.length > 1 ? `(${list.map(regexEscape).join('|')})` : regexEscape(list[0]);
    case 'percentencode':
    case 'uriencode':
      return list.length > 1 ? uriEncode(`{${list.join(',')}}`) : uriEncode(list[0]);
    case 'queryparam':
      return list.map((v) => `var-${name}=${uriEncode(v)}`).join('&');
    case 'date':
    case 'date:iso':
      return new Date(Number(list[0])).toISOString();
    default:
      return list.join(',');
  }
}

/** lodash `property` paths as Grafana's getFieldAccessor reads them: `a.b`, `a[0]`, `a["b"]`. */
function readPath(obj: unknown, path: string): unknown {
  const parts: string[] = [];
  path.replace(/[^.[\]"']+|\[(?:"([^"]*)"|'([^']*)'|(\d+))\]/g, (m, dq?: string, sq?: string, n?: string) => {
    parts.push(dq ?? sq ?? n ?? m);
    return m;
  });
  let cur: unknown = obj;
  for (const p of parts) {
    if (cur === null || cur === undefined) {
      return undefined;
    }
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

interface DataContext {
  frame?: DataFrame;
  field?: Field;
  rowIndex?: number;
}

function dataContextOf(scopedVars?: ScopedVars): DataContext | undefined {
  return scopedVars?.__dataContext?.value as DataContext | undefined;
}

/** `${__data.<path>}`: the row's display values (getFieldDisplayValuesProxy), as Grafana's dataMacro. */
function dataMacro(match: string, path: string | undefined, scopedVars?: ScopedVars): string {
  const ctx = dataContextOf(scopedVars);
  if (!ctx?.frame || ctx.rowIndex === undefined || !path) {
    return match;
  }
  const obj = {
    name: ctx.frame.name,
    refId: ctx.frame.refId,
    fields: getFieldDisplayValuesProxy({ frame: ctx.frame, rowIndex: ctx.rowIndex }),
  };
  const v = readPath(obj, path);
  return v === undefined || v === null ? '' : String(v);
}

/** `${__value.<raw|numeric|text|time>}` of the clicked row, as Grafana's valueMacro. */
function valueMacro(match: string, path: string | undefined, scopedVars: ScopedVars | undefined, format: Format) {
  const ctx = dataContextOf(scopedVars);
  if (!ctx?.frame || !ctx.field || ctx.rowIndex === undefined) {
    return match;
  }
  let v: unknown;
  if (path === 'time') {
    v = ctx.frame.fields.find((f) => f.type === FieldType.time)?.values[ctx.rowIndex];
  } else {
    const raw = ctx.field.values[ctx.rowIndex];
    if (path === 'raw') {
      v = raw;
    } else {
      const d = (ctx.field.display ?? getDisplayProcessor())(raw);
      v = path === 'numeric' ? d.numeric : path === 'text' ? d.text : formattedValueToString(d);
    }
  }
  return applyFormat(String(v ?? ''), format, '__value');
}

/** `${__field.name}` and `${__field.labels.<name>}`. */
function fieldMacro(match: string, path: string | undefined, scopedVars?: ScopedVars): string {
  const field = dataContextOf(scopedVars)?.field;
  if (!field || !path) {
    return match;
  }
  const v = readPath({ name: field.name, labels: field.labels ?? {} }, path);
  return v === undefined ? '' : String(v);
}

/** Grafana's `replaceVariables` for a dashboard in the given state. */
export function grafanaReplaceVariables(state: DashboardState): InterpolateFunction {
  const replace = (target: string, scopedVars?: ScopedVars, format?: string | Function): string =>
    (target ?? '').replace(
      VARIABLE,
      (match, v1?: string, v2?: string, f2?: string, v3?: string, path?: string, f3?: string) => {
        const name = v1 ?? v2 ?? v3 ?? '';
        const fmt = (f2 ?? f3 ?? format) as Format;
        switch (name) {
          case '__data':
            return dataMacro(match, path, scopedVars);
          case '__value':
            return valueMacro(match, path, scopedVars, fmt);
          case '__field':
            return fieldMacro(match, path, scopedVars);
          case '__from':
            return applyFormat(String(state.from), f2 ?? f3, name);
          case '__to':
            return applyFormat(String(state.to), f2 ?? f3, name);
        }
        const scoped = scopedVars?.[name];
        if (scoped && !name.startsWith('__')) {
          return applyFormat(String(scoped.value), fmt, name);
        }
        if (!(name in state.variables)) {
          return match;
        }
        return applyFormat(state.variables[name], fmt, name);
      }
    );
  return replace as InterpolateFunction;
}

/**
 * The standard field options Grafana 12.4 applies to every field of a panel (the panel's
 * defaults are merged into each field by applyFieldOverrides through this registry; Grafana's
 * own is built in public/app/core/components/OptionsUI/registry.tsx): unit, decimals and
 * display name to every field, value mappings to all but time fields. Without a registry
 * applyFieldOverrides applies no defaults, which would hide what a panel's unit does to a link.
 */
export function standardFieldConfigRegistry(): FieldConfigOptionsRegistry {
  const item = (id: string, process: FieldConfigPropertyItem['process'], shouldApply: (f: Field) => boolean) =>
    ({
      id,
      path: id,
      name: id,
      process,
      shouldApply,
      override: () => null,
      editor: () => null,
    }) as FieldConfigPropertyItem;
  return new FieldConfigOptionsRegistry(() => [
    item('unit', stringOverrideProcessor, () => true),
    item('decimals', numberOverrideProcessor, () => true),
    item('displayName', displayNameOverrideProcessor, () => true),
    item('mappings', valueMappingsOverrideProcessor, (f) => f.type !== FieldType.time),
  ]);
}
