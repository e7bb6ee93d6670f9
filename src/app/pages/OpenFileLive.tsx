// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { Field, Input, RadioButtonGroup, Select, useStyles2 } from '@grafana/ui';
import { useApp } from '../context';
import { selectorOf } from '../state';
import { useAsync } from '../useAsync';
import type { OpenedFile } from '../../shared/adhoc';

/** A file against a live query: which file, which side it is, and the live query's selector. */
export interface LiveChoice {
  fileId: string;
  fileIs: 'comparison' | 'baseline';
  selector: string;
}

/** The starting choice: the last file as the comparison against the app's service. */
export function defaultLiveChoice(files: OpenedFile[], service: string): LiveChoice {
  return { fileId: files[files.length - 1]?.id ?? '', fileIs: 'comparison', selector: selectorOf(service) };
}

/**
 * The controls of a file against a live query ("this benchmark against production over the last
 * hour"): the live side is the app's profile type and time range (the pickers above every page)
 * with a service and label selector picked here.
 */
export function OpenFileLive({ files, value, onChange }: { files: OpenedFile[]; value: LiveChoice; onChange: (c: LiveChoice) => void }) {
  const { ds, type, range } = useApp();
  const styles = useStyles2(getStyles);
  const from = range.from.valueOf();
  const to = range.to.valueOf();
  const services = useAsync(() => ds?.labelValues('service_name', '{}', { from, to }), [ds, from, to]);
  const service = /^\{service_name="((?:[^"\\]|\\.)*)"\}$/.exec(value.selector)?.[1];
  return (
    <div className={styles.bar} data-testid="openfile-live">
      <Field label="File">
        <Select
          aria-label="File against the live query"
          width={30}
          options={files.map((f) => ({ value: f.id, label: f.name }))}
          value={value.fileId}
          onChange={(v) => onChange({ ...value, fileId: v.value ?? '' })}
        />
      </Field>
      <Field label="The file is">
        <RadioButtonGroup
          aria-label="The file is"
          options={[
            { value: 'comparison', label: 'Comparison' },
            { value: 'baseline', label: 'Baseline' },
          ]}
          value={value.fileIs}
          onChange={(v) => onChange({ ...value, fileIs: v as LiveChoice['fileIs'] })}
        />
      </Field>
      <Field label="Service">
        <Select
          aria-label="Live service"
          width={30}
          isLoading={services.loading}
          options={(services.value ?? []).map((s) => ({ value: s, label: s }))}
          value={service ?? null}
          onChange={(v) => onChange({ ...value, selector: selectorOf(v.value ?? '') })}
          placeholder="Pick a service"
        />
      </Field>
      <Field label="Live query" description={`${type || 'no profile type'}, over the range picked above`}>
        <Input
          key={value.selector}
          aria-label="Live label selector"
          width={40}
          defaultValue={value.selector}
          onBlur={(e) => onChange({ ...value, selector: e.currentTarget.value.trim() || '{}' })}
        />
      </Field>
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  bar: css({ display: 'flex', flexWrap: 'wrap', gap: theme.spacing(2), alignItems: 'flex-end' }),
});
