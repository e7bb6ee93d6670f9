// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useState } from 'react';
import { from, map, Observable } from 'rxjs';
import {
  CustomVariableSupport,
  DataQueryRequest,
  DataQueryResponse,
  DataSourceApi,
  LegacyMetricFindQueryOptions,
  MetricFindValue,
  QueryEditorProps,
  SelectableValue,
} from '@grafana/data';
import { InlineField, InlineFieldRow, Input, Select } from '@grafana/ui';
import { EmberscopeOptions, EmberscopeQuery } from '../types';
import { VariableQuery, VariableQueryType, parseVariableQuery } from '../variables';

const TYPES: Array<SelectableValue<VariableQueryType>> = [
  { value: 'profileTypes', label: 'Profile types' },
  { value: 'labelNames', label: 'Label names' },
  { value: 'labelValues', label: 'Label values' },
];

/** Reads a stored variable query: the object form, or the text form of older dashboards. */
export function toVariableQuery(q: VariableQuery | string | undefined): VariableQuery {
  if (typeof q === 'string') {
    return q.trim() ? parseVariableQuery(q) : { refId: 'variable', type: 'profileTypes' };
  }
  return q && q.type ? q : { refId: q?.refId ?? 'variable', type: 'profileTypes' };
}

/**
 * What the variable support needs of the datasource: the values of a variable
 * query. The datasource implements it; naming it here keeps this module free
 * of an import of the datasource (which imports this module).
 */
export interface VariableValues extends DataSourceApi<EmberscopeQuery, EmberscopeOptions> {
  metricFindQuery(query: VariableQuery, options?: LegacyMetricFindQueryOptions): Promise<MetricFindValue[]>;
}

type Props = QueryEditorProps<VariableValues, EmberscopeQuery, EmberscopeOptions, VariableQuery>;

/** The editor of a template variable: what to list, and for labels, which label and series. */
export function VariableQueryEditor({ query, onChange }: Props) {
  const q = toVariableQuery(query);
  const [label, setLabel] = useState(q.label ?? '');
  const [selector, setSelector] = useState(q.labelSelector ?? '');
  const [profileType, setProfileType] = useState(q.profileTypeId ?? '');
  const commit = (patch: Partial<VariableQuery>) => onChange({ ...q, ...patch });
  return (
    <>
      <InlineFieldRow>
        <InlineField label="List" labelWidth={20}>
          <Select
            aria-label="Variable lists"
            width={24}
            options={TYPES}
            value={q.type}
            onChange={(v) => commit({ type: v.value! })}
          />
        </InlineField>
      </InlineFieldRow>
      {q.type === 'labelValues' && (
        <InlineFieldRow>
          <InlineField label="Label" labelWidth={20} invalid={!label} error="Required">
            <Input
              aria-label="Label"
              width={30}
              value={label}
              placeholder="service_name"
              onChange={(e) => setLabel(e.currentTarget.value)}
              onBlur={() => commit({ label: label.trim() })}
            />
          </InlineField>
        </InlineFieldRow>
      )}
      {q.type !== 'profileTypes' && (
        <InlineFieldRow>
          <InlineField
            label="Label selector"
            labelWidth={20}
            tooltip="Only series these matchers select; variables allowed"
          >
            <Input
              aria-label="Label selector"
              width={50}
              value={selector}
              placeholder='{service_name="$service"}'
              onChange={(e) => setSelector(e.currentTarget.value)}
              onBlur={() => commit({ labelSelector: selector.trim() })}
            />
          </InlineField>
          <InlineField
            label="Profile type"
            labelWidth={14}
            tooltip="Only series of this profile type; variables allowed"
          >
            <Input
              aria-label="Profile type"
              width={44}
              value={profileType}
              placeholder="$profile_type"
              onChange={(e) => setProfileType(e.currentTarget.value)}
              onBlur={() => commit({ profileTypeId: profileType.trim() })}
            />
          </InlineField>
        </InlineFieldRow>
      )}
    </>
  );
}

/** Template variable support: lists profile types, label names or label values. */
export class EmberscopeVariableSupport extends CustomVariableSupport<VariableValues, VariableQuery> {
  editor = VariableQueryEditor;

  constructor(private readonly ds: VariableValues) {
    super();
  }

  query(request: DataQueryRequest<VariableQuery>): Observable<DataQueryResponse> {
    const q = toVariableQuery(request.targets[0]);
    return from(this.ds.metricFindQuery(q, { range: request.range, scopedVars: request.scopedVars })).pipe(
      map((values) => ({ data: values }))
    );
  }
}
