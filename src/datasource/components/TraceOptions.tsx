// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useState } from 'react';
import { InlineField, InlineFieldRow, InlineSwitch, Input, RadioButtonGroup } from '@grafana/ui';
import { EmberscopeQuery, HeatmapType } from '../types';

/** A span id as otel-profiling-go labels samples with it: 16 hexadecimal digits. */
const SPAN_ID = /^[0-9a-fA-F]{16}$/;

/**
 * Reads the Span IDs field: ids separated by commas or spaces. Returns the ids, or the first
 * entry that is not a span id (a template variable such as `$span` is let through for the
 * backend to check once it is replaced).
 */
export function parseSpanIds(text: string): { ids: string[]; bad?: string } {
  const ids = text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = ids.find((id) => !SPAN_ID.test(id) && !id.includes('$'));
  return bad ? { ids, bad } : { ids };
}

export interface TraceOptionsProps {
  query: EmberscopeQuery;
  onChange: (q: EmberscopeQuery) => void;
  onRunQuery: () => void;
}

/**
 * The trace fields of a query, as Grafana's Pyroscope datasource names them: the span ids a
 * flamegraph is narrowed to (`spanSelector`), whether series and histograms carry exemplars
 * (`includeExemplars`), and for a histogram whether it counts profiles or spans (`heatmapType`).
 */
export function TraceOptions({ query, onChange, onRunQuery }: TraceOptionsProps) {
  const joined = (query.spanSelector ?? []).join(', ');
  const [text, setText] = useState(joined);
  const [shown, setShown] = useState(joined);
  if (shown !== joined) {
    // a query changed from outside (a trace's link, history) shows its own ids
    setShown(joined);
    setText(joined);
  }
  const parsed = parseSpanIds(text);
  const commit = () => {
    if (parsed.bad) {
      return;
    }
    const next = parsed.ids.length ? parsed.ids : undefined;
    if ((next ?? []).join(', ') !== joined) {
      onChange({ ...query, spanSelector: next });
      onRunQuery();
    }
  };
  const isHistogram = query.queryType === 'histogram';
  return (
    <InlineFieldRow>
      <InlineField
        label="Span IDs"
        labelWidth={14}
        invalid={Boolean(parsed.bad)}
        error={
          parsed.bad ? `"${parsed.bad}" is not a span id: 16 hexadecimal digits, like 122b3e7d77a267a7` : undefined
        }
        tooltip="Only the samples of these spans (span_id labels, as otel-profiling-go sets them); separate ids by commas. Not supported on Parca."
      >
        <Input
          aria-label="Span IDs"
          data-testid="span-ids"
          width={40}
          placeholder="e.g. 122b3e7d77a267a7"
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              commit();
            }
          }}
        />
      </InlineField>
      <InlineField
        label="Exemplars"
        labelWidth={12}
        tooltip="Series and histograms show the profile (or span) behind each point; click one to open its flamegraph"
      >
        <InlineSwitch
          aria-label="Exemplars"
          data-testid="exemplars-switch"
          value={Boolean(query.includeExemplars)}
          onChange={(e) => {
            onChange({ ...query, includeExemplars: e.currentTarget.checked || undefined });
            onRunQuery();
          }}
        />
      </InlineField>
      {isHistogram && (
        <InlineField
          label="Count"
          labelWidth={8}
          tooltip="Count whole profiles, or single spans (span-labelled profiles)"
        >
          <RadioButtonGroup<HeatmapType>
            aria-label="Heatmap type"
            options={[
              { value: 'individual', label: 'Profiles' },
              { value: 'span', label: 'Spans' },
            ]}
            value={query.heatmapType ?? 'individual'}
            onChange={(v) => {
              onChange({ ...query, heatmapType: v === 'individual' ? undefined : v });
              onRunQuery();
            }}
          />
        </InlineField>
      )}
    </InlineFieldRow>
  );
}
