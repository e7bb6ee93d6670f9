// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useState } from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2, usePluginContext } from '@grafana/data';
import { config, locationService } from '@grafana/runtime';
import { Alert, Badge, Button, ConfirmModal, IconButton, LoadingPlaceholder, useStyles2 } from '@grafana/ui';
import type { AppSettings } from '../AppConfig';
import { useApp } from '../context';
import { RuleEditor } from '../components/RuleEditor';
import {
  METRIC_PREFIX,
  RecordingRule,
  RuleForm,
  deleteRule,
  errorText,
  exploreUrl,
  formOfRule,
  formOfSearch,
  listRules,
} from '../rules';
import { useAsync } from '../useAsync';

/**
 * The recording rules of the datasource's server: listed for everyone, created, edited and
 * deleted by editors and admins (the backend checks the role), each linked to its series in the
 * Prometheus datasource the app's settings name. A `new=1` address (the flame graph's "Track as
 * a metric") opens a new rule's form prefilled.
 */
export function RulesPage() {
  const { ds, type, types } = useApp();
  const styles = useStyles2(getStyles);
  const settings = (usePluginContext()?.meta.jsonData ?? {}) as AppSettings;
  const [editing, setEditing] = useState<RuleForm | undefined>(() => formOfSearch(window.location.search));
  const [reload, setReload] = useState(0);
  const [deleting, setDeleting] = useState<RecordingRule>();
  const [deleteError, setDeleteError] = useState<string>();
  const rules = useAsync(() => ds && listRules(ds.uid), [ds, reload]);
  const uid = ds?.uid ?? '';
  // the backend checks the role; a viewer is not offered what it would refuse
  const role = config.bootData?.user?.orgRole;
  const canEdit = !role || role === 'Editor' || role === 'Admin';

  const closeEditor = () => {
    setEditing(undefined);
    // the prefill is done with: drop it from the address so a reload shows the list
    const l = locationService.getLocation();
    if (new URLSearchParams(l.search).has('new')) {
      const p = new URLSearchParams(l.search);
      ['new', 'fn', 'sel'].forEach((k) => p.delete(k));
      locationService.replace(`${l.pathname}?${p}`);
    }
  };
  const confirmDelete = () => {
    const r = deleting!;
    setDeleting(undefined);
    deleteRule(uid, r.id!).then(
      () => (setDeleteError(undefined), setReload((n) => n + 1)),
      (e) => setDeleteError(errorText(e))
    );
  };

  return (
    <div className={styles.page}>
      {rules.error && (
        <Alert severity="error" title="Recording rules" data-testid="rules-error">
          {rules.error}
        </Alert>
      )}
      {deleteError && (
        <Alert
          severity="error"
          title="The server refused the delete"
          data-testid="rule-delete-error"
          onRemove={() => setDeleteError(undefined)}
        >
          {deleteError}
        </Alert>
      )}
      {editing ? (
        <RuleEditor
          key={editing.id ?? 'new'}
          dsUid={uid}
          initial={editing}
          types={types}
          onSaved={() => (closeEditor(), setReload((n) => n + 1))}
          onCancel={closeEditor}
        />
      ) : (
        !rules.error &&
        canEdit && (
          <div>
            <Button
              icon="plus"
              data-testid="rule-new"
              onClick={() =>
                setEditing({
                  metricName: METRIC_PREFIX,
                  profileType: type,
                  selector: '{}',
                  groupBy: '',
                  functionName: '',
                  externalLabels: '',
                })
              }
            >
              New recording rule
            </Button>
          </div>
        )
      )}
      {rules.loading && !rules.value && <LoadingPlaceholder text="Loading the rules…" />}
      {!canEdit && (
        <div className={styles.hint} data-testid="rules-read-only">
          Only editors and admins can change recording rules; you can read them and their series.
        </div>
      )}
      {rules.value && rules.value.length === 0 && (
        <Alert severity="info" title="No recording rules yet" data-testid="rules-empty">
          A rule turns profiles into a Prometheus series: a service&apos;s CPU, or the CPU of one function. Create one
          here, or with “Track as a metric” on a flame graph frame.
        </Alert>
      )}
      {rules.value && rules.value.length > 0 && (
        <table className={styles.table} data-testid="rules-table">
          <thead>
            <tr>
              <th>Metric</th>
              <th>Profile type</th>
              <th>Matchers</th>
              <th>Group by</th>
              <th>Function</th>
              <th>Generation</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rules.value.map((r) => (
              <tr key={r.id} data-testid="rule-row" data-rule={r.metricName}>
                <td className={styles.name}>
                  {settings.prometheusDatasourceUid ? (
                    <a
                      href={exploreUrl(settings.prometheusDatasourceUid, r.metricName)}
                      className={styles.link}
                      data-testid="rule-explore"
                    >
                      {r.metricName}
                    </a>
                  ) : (
                    r.metricName
                  )}
                  {r.provisioned && (
                    <Badge
                      text="provisioned"
                      color="blue"
                      tooltip="From the server's configuration: it cannot be changed here"
                    />
                  )}
                  <div className={styles.id}>{r.id}</div>
                </td>
                <td>{r.profileType}</td>
                <td className={styles.code}>{r.matchers.join(' ')}</td>
                <td>{r.groupBy.join(', ')}</td>
                <td className={styles.code} data-testid="rule-function">
                  {r.functionName ?? ''}
                </td>
                <td>{String(r.generation ?? '')}</td>
                <td className={styles.actions}>
                  {canEdit && !r.provisioned && (
                    <>
                      <IconButton
                        name="pen"
                        aria-label={`Edit ${r.metricName}`}
                        onClick={() => setEditing(formOfRule(r))}
                      />
                      <IconButton
                        name="trash-alt"
                        aria-label={`Delete ${r.metricName}`}
                        onClick={() => setDeleting(r)}
                      />
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {rules.value && rules.value.length > 0 && !settings.prometheusDatasourceUid && (
        <div className={styles.hint} data-testid="rules-no-prometheus">
          Name a Prometheus data source in the app&apos;s configuration to link each rule to its series in Explore.
        </div>
      )}
      <ConfirmModal
        isOpen={!!deleting}
        title="Delete recording rule"
        body={`Delete ${deleting?.metricName ?? ''}? Its series stops getting new samples.`}
        confirmText="Delete"
        onConfirm={confirmDelete}
        onDismiss={() => setDeleting(undefined)}
      />
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  page: css({ display: 'flex', flexDirection: 'column', gap: theme.spacing(2), minWidth: 0 }),
  table: css({
    width: '100%',
    borderCollapse: 'collapse',
    '& th, & td': {
      textAlign: 'left',
      overflowWrap: 'anywhere',
      padding: theme.spacing(0.5, 1),
      borderBottom: `1px solid ${theme.colors.border.weak}`,
      verticalAlign: 'top',
    },
    // headings break between words only
    '& th': {
      color: theme.colors.text.secondary,
      fontWeight: theme.typography.fontWeightMedium,
      overflowWrap: 'normal',
    },
  }),
  name: css({ overflowWrap: 'anywhere', '& > *': { marginLeft: theme.spacing(1) } }),
  id: css({ color: theme.colors.text.secondary, fontSize: theme.typography.bodySmall.fontSize, marginLeft: 0 }),
  code: css({
    fontFamily: theme.typography.fontFamilyMonospace,
    fontSize: theme.typography.bodySmall.fontSize,
    overflowWrap: 'anywhere',
  }),
  actions: css({ whiteSpace: 'nowrap' }),
  link: css({ color: theme.colors.text.link, marginLeft: 0 }),
  hint: css({ color: theme.colors.text.secondary, fontSize: theme.typography.bodySmall.fontSize }),
});
