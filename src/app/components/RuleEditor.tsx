// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useEffect, useState } from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { Alert, Button, Field, Input, LoadingPlaceholder, Select, useStyles2 } from '@grafana/ui';
import type { ProfileTypeInfo } from '../../datasource/resources/client';
import { groupedOptions, unitOf } from '../profileTypes';
import {
  Preview,
  RuleForm,
  errorText,
  linesOfPreview,
  previewRule,
  ruleOfForm,
  saveRule,
  validateForm,
} from '../rules';
import { Series } from './Series';

export interface RuleEditorProps {
  dsUid: string;
  initial: RuleForm;
  types: ProfileTypeInfo[];
  onSaved: () => void;
  onCancel: () => void;
}

type Text = Exclude<keyof RuleForm, 'id' | 'generation' | 'profileType'>;

const FIELDS: Array<{ key: Text; label: string; description: string; placeholder?: string }> = [
  {
    key: 'metricName',
    label: 'Metric name',
    description: 'The Prometheus series name; it starts with profiles_recorded_',
  },
  {
    key: 'selector',
    label: 'Matchers',
    description: 'The profiles the rule reads, besides the profile type',
    placeholder: '{service_name="api"}',
  },
  {
    key: 'groupBy',
    label: 'Group by',
    description: 'One series per value set of these labels (comma-separated)',
    placeholder: 'env, region',
  },
  {
    key: 'functionName',
    label: 'Function',
    description: 'Only the samples whose stack holds this function; empty: the whole profile',
    placeholder: 'encoding/json.Marshal',
  },
  {
    key: 'externalLabels',
    label: 'External labels',
    description: 'Labels added to every series (name=value, comma-separated)',
    placeholder: 'team=perf',
  },
];

/**
 * A rule's form: its fields, checked as the server checks them as they are typed; its preview
 * (the series the rule would have given over the last hour) drawn before saving; the server's
 * refusal of a save shown in its own words.
 */
export function RuleEditor({ dsUid, initial, types, onSaved, onCancel }: RuleEditorProps) {
  const styles = useStyles2(getStyles);
  const [form, setForm] = useState(initial);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string>();
  const [preview, setPreview] = useState<{ loading: boolean; value?: Preview; error?: string }>({ loading: false });
  const problems = validateForm(form);
  const valid = Object.keys(problems).length === 0;
  const set = (key: keyof RuleForm, value: string) => setForm((f) => ({ ...f, [key]: value }));

  const runPreview = (f: RuleForm) => {
    setPreview({ loading: true });
    previewRule(dsUid, ruleOfForm(f)).then(
      (value) => setPreview({ loading: false, value }),
      (e) => setPreview({ loading: false, error: errorText(e) })
    );
  };
  // a prefilled form shows its preview at once
  useEffect(() => {
    if (Object.keys(validateForm(initial)).length === 0) {
      queueMicrotask(() => runPreview(initial));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const save = () => {
    setSaving(true);
    setSaveError(undefined);
    saveRule(dsUid, ruleOfForm(form)).then(
      () => {
        setSaving(false);
        onSaved();
      },
      (e) => {
        setSaving(false);
        setSaveError(errorText(e));
      }
    );
  };
  const typeOptions = groupedOptions(types);
  const knownType = types.some((t) => t.id === form.profileType);

  return (
    <div className={styles.editor} data-testid="rule-editor">
      <h3 className={styles.title}>{form.id ? `Edit ${initial.metricName}` : 'New recording rule'}</h3>
      <Field label="Profile type" invalid={!!problems.profileType} error={problems.profileType}>
        <Select
          inputId="rule-profile-type"
          aria-label="Rule profile type"
          options={
            knownType || !form.profileType
              ? typeOptions
              : [...typeOptions, { label: form.profileType, value: form.profileType }]
          }
          value={form.profileType || null}
          onChange={(v) => set('profileType', v.value ?? '')}
          placeholder="Profile type"
        />
      </Field>
      {FIELDS.map((f) => (
        <Field
          key={f.key}
          label={f.label}
          description={f.description}
          invalid={!!problems[f.key]}
          error={problems[f.key]}
        >
          <Input
            data-testid={`rule-${f.key}`}
            aria-label={f.label}
            value={form[f.key]}
            placeholder={f.placeholder}
            onChange={(e) => set(f.key, e.currentTarget.value)}
          />
        </Field>
      ))}
      <div className={styles.buttons}>
        <Button
          variant="secondary"
          icon="chart-line"
          disabled={!valid || preview.loading}
          onClick={() => runPreview(form)}
          data-testid="rule-preview-button"
        >
          Preview the last hour
        </Button>
        <Button icon="save" disabled={!valid || saving} onClick={save} data-testid="rule-save">
          {saving ? 'Saving…' : 'Save'}
        </Button>
        <Button variant="secondary" fill="text" onClick={onCancel}>
          Cancel
        </Button>
      </div>
      {saveError && (
        <Alert severity="error" title="The server refused the rule" data-testid="rule-save-error">
          {saveError}
        </Alert>
      )}
      <PreviewView preview={preview} unit={unitOf(form.profileType)} />
    </div>
  );
}

function PreviewView({
  preview,
  unit,
}: {
  preview: { loading: boolean; value?: Preview; error?: string };
  unit: string;
}) {
  const styles = useStyles2(getStyles);
  if (preview.loading) {
    return <LoadingPlaceholder text="Computing the preview…" />;
  }
  if (preview.error) {
    return (
      <Alert severity="error" title="Preview" data-testid="rule-preview-error">
        {preview.error}
      </Alert>
    );
  }
  const p = preview.value;
  if (!p) {
    return null;
  }
  const lines = linesOfPreview(p);
  const points = lines.reduce((n, l) => n + l.values.length, 0);
  return (
    <div
      className={styles.preview}
      data-testid="rule-preview"
      data-series={JSON.stringify(p.series)}
      data-step={p.stepMs}
    >
      <div className={styles.caption}>
        What the rule would have recorded over the last hour, one point a {Math.round(p.stepMs / 1000)} s step with
        profiles
        {points === 0 && ': no profile matched'}
      </div>
      {points > 0 && (
        <Series lines={lines} from={p.from} to={p.to} height={180} unit={unit} testId="rule-preview-series" />
      )}
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  editor: css({
    display: 'flex',
    flexDirection: 'column',
    maxWidth: 720,
    padding: theme.spacing(2),
    border: `1px solid ${theme.colors.border.weak}`,
    borderRadius: theme.shape.radius.default,
    background: theme.colors.background.primary,
  }),
  title: css({ margin: theme.spacing(0, 0, 2) }),
  buttons: css({ display: 'flex', flexWrap: 'wrap', gap: theme.spacing(1), marginBottom: theme.spacing(2) }),
  preview: css({ display: 'flex', flexDirection: 'column', gap: theme.spacing(1) }),
  caption: css({ color: theme.colors.text.secondary, fontSize: theme.typography.bodySmall.fontSize }),
});
