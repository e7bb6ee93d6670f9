// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { DataQuery } from '@grafana/schema';

/** What a template variable of this datasource lists. */
export type VariableQueryType = 'profileTypes' | 'labelNames' | 'labelValues';

/** A template variable's query. */
export interface VariableQuery extends DataQuery {
  type: VariableQueryType;
  /** For labelValues: the label whose values to list. */
  label?: string;
  /** Narrows label names/values to matching series; template variables are interpolated. */
  labelSelector?: string;
  /** Narrows label names/values to one profile type. */
  profileTypeId?: string;
}

/**
 * Reads a variable query written as text, in the Prometheus style: `profile_types()`,
 * `label_names()`, `label_names({service_name="api"})`, `label_values(region)`,
 * `label_values({service_name="api"}, region)`. Throws an error naming what is wrong.
 */
export function parseVariableQuery(text: string): VariableQuery {
  const s = text.trim();
  const m = /^([a-z_]+)\s*\((.*)\)$/s.exec(s);
  if (!m) {
    throw new Error(
      `variable query ${JSON.stringify(text)}: expected profile_types(), label_names({…}) or label_values({…}, label)`
    );
  }
  const [, fn, rawArgs] = m;
  const args = rawArgs.trim();
  let selector = '';
  let rest = args;
  if (args.startsWith('{')) {
    const close = args.lastIndexOf('}');
    if (close < 0) {
      throw new Error(`variable query ${JSON.stringify(text)}: the selector's "}" is missing`);
    }
    selector = args.slice(0, close + 1);
    rest = args
      .slice(close + 1)
      .replace(/^\s*,/, '')
      .trim();
  }
  switch (fn) {
    case 'profile_types':
      return { refId: 'variable', type: 'profileTypes' };
    case 'label_names':
      return { refId: 'variable', type: 'labelNames', labelSelector: selector };
    case 'label_values':
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(rest)) {
        throw new Error(
          `variable query ${JSON.stringify(text)}: label_values needs a label name, found ${JSON.stringify(rest)}`
        );
      }
      return { refId: 'variable', type: 'labelValues', label: rest, labelSelector: selector };
    default:
      throw new Error(
        `variable query ${JSON.stringify(text)}: unknown function ${JSON.stringify(fn)}; use profile_types, label_names or label_values`
      );
  }
}
