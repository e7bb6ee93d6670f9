// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useState } from 'react';
import { Button, InlineField, InlineFieldRow, Input } from '@grafana/ui';
import { Comparison, EmberscopeQuery } from '../types';
import { TimeRangeMs } from '../resources/client';
import { SuggestionSource } from '../language/completion';
import { CompletingInput } from './CompletingInput';

/** A time in epoch ms as `2026-11-29T10:00:00Z`. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
}

/** Reads an ISO 8601 time (or epoch milliseconds); undefined when it is neither. */
export function parseTime(text: string): number | undefined {
  const s = text.trim();
  if (/^\d{10,}$/.test(s)) {
    return Number(s);
  }
  const ms = Date.parse(s);
  return Number.isFinite(ms) ? ms : undefined;
}

/** The range just before range, of the same length: what a diff compares with by default. */
export function previousPeriod(range: TimeRangeMs): { from: number; to: number } {
  return { from: range.from - (range.to - range.from), to: range.from };
}

/** The query with a comparison when it is a diff without one: same selector, previous period. */
export function withDefaultComparison(q: EmberscopeQuery, range?: TimeRangeMs): EmberscopeQuery {
  if (q.queryType !== 'diff' || q.comparison || !range) {
    return q;
  }
  return { ...q, comparison: { labelSelector: q.labelSelector || '{}', ...previousPeriod(range) } };
}

export interface ComparisonRowProps {
  comparison: Comparison;
  onChange: (c: Comparison) => void;
  onRunQuery: () => void;
  source: SuggestionSource;
  range?: TimeRangeMs;
}

/** The right-hand side of a diff: a selector (with completion) and a time range. */
export function ComparisonRow({ comparison, onChange, onRunQuery, source, range }: ComparisonRowProps) {
  const [from, setFrom] = useState(formatTime(comparison.from));
  const [to, setTo] = useState(formatTime(comparison.to));
  const [shown, setShown] = useState({ from: comparison.from, to: comparison.to });
  if (shown.from !== comparison.from || shown.to !== comparison.to) {
    setShown({ from: comparison.from, to: comparison.to });
    setFrom(formatTime(comparison.from));
    setTo(formatTime(comparison.to));
  }
  const f = parseTime(from);
  const t = parseTime(to);
  const rangeErr =
    f === undefined || t === undefined
      ? 'Write times like 2026-11-29T10:00:00Z'
      : f >= t
        ? '"From" must be before "to"'
        : undefined;
  const commit = () => {
    if (!rangeErr && (f !== comparison.from || t !== comparison.to)) {
      onChange({ ...comparison, from: f!, to: t! });
      onRunQuery();
    }
  };
  const setRange = (r: { from: number; to: number }) => {
    onChange({ ...comparison, ...r });
    onRunQuery();
  };
  return (
    <InlineFieldRow>
      <InlineField label="Compare with" labelWidth={14} grow tooltip="The right-hand side of the diff">
        <CompletingInput
          aria-label="Comparison selector"
          mode="selector"
          value={comparison.labelSelector}
          placeholder="{}"
          source={source}
          onChange={(labelSelector) => onChange({ ...comparison, labelSelector })}
          onBlur={onRunQuery}
        />
      </InlineField>
      <InlineField label="From" invalid={Boolean(rangeErr)} error={rangeErr}>
        <Input
          aria-label="Comparison from"
          width={24}
          value={from}
          onChange={(e) => setFrom(e.currentTarget.value)}
          onBlur={commit}
        />
      </InlineField>
      <InlineField label="To">
        <Input
          aria-label="Comparison to"
          width={24}
          value={to}
          onChange={(e) => setTo(e.currentTarget.value)}
          onBlur={commit}
        />
      </InlineField>
      {range && (
        <>
          <Button size="md" variant="secondary" fill="outline" onClick={() => setRange(previousPeriod(range))}>
            Previous period
          </Button>
          <Button
            size="md"
            variant="secondary"
            fill="outline"
            onClick={() => setRange({ from: range.from, to: range.to })}
          >
            Same range
          </Button>
        </>
      )}
    </InlineFieldRow>
  );
}
