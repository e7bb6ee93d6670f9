// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useState } from 'react';
import { InlineField, InlineFieldRow, Input } from '@grafana/ui';
import { EmberscopeQuery } from '../types';

/** A call path as typed: frame names from the root down, separated by `;` as in folded stacks. */
export function parseCallPath(text: string): string[] | undefined {
  const frames = text
    .split(';')
    .map((f) => f.trim())
    .filter(Boolean);
  return frames.length ? frames : undefined;
}

export interface SeriesTargetRowProps {
  query: EmberscopeQuery;
  onChange: (q: EmberscopeQuery) => void;
  onRunQuery: () => void;
}

/**
 * What a function-share or call-path query follows: the function (exact name or regular
 * expression) whose share of the samples is measured, or the call path whose value is.
 * Fields commit on blur, so a half-typed regular expression is never run.
 */
export function SeriesTargetRow({ query, onChange, onRunQuery }: SeriesTargetRowProps) {
  const [fn, setFn] = useState(query.function ?? '');
  const [regex, setRegex] = useState(query.functionRegex ?? '');
  const [path, setPath] = useState((query.callSite ?? []).join('; '));
  const commit = (q: EmberscopeQuery) => {
    onChange(q);
    onRunQuery();
  };
  if (query.queryType === 'callSiteSeries') {
    return (
      <InlineFieldRow>
        <InlineField label="Call path" labelWidth={14} grow tooltip="Frame names from the root down, separated by ;">
          <Input
            aria-label="Call path"
            placeholder="runtime.main; main.main; main.handle"
            value={path}
            onChange={(e) => setPath(e.currentTarget.value)}
            onBlur={() => commit({ ...query, callSite: parseCallPath(path) })}
          />
        </InlineField>
      </InlineFieldRow>
    );
  }
  if (query.queryType !== 'functionShare') {
    return null;
  }
  return (
    <InlineFieldRow>
      <InlineField label="Function" labelWidth={14} tooltip="The function's exact name" disabled={!!regex.trim()}>
        <Input
          aria-label="Function"
          width={40}
          placeholder="encoding/json.Marshal"
          value={fn}
          onChange={(e) => setFn(e.currentTarget.value)}
          onBlur={() => commit({ ...query, function: fn.trim() || undefined })}
        />
      </InlineField>
      <InlineField
        label="or regex"
        tooltip="A regular expression of whole function names, such as encoding/json\..*"
        disabled={!!fn.trim()}
      >
        <Input
          aria-label="Function regex"
          width={40}
          placeholder="encoding/json\..*"
          value={regex}
          onChange={(e) => setRegex(e.currentTarget.value)}
          onBlur={() => commit({ ...query, functionRegex: regex.trim() || undefined })}
        />
      </InlineField>
    </InlineFieldRow>
  );
}
