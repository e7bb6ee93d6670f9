// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useState } from 'react';
import { css } from '@emotion/css';
import { AppPluginMeta, GrafanaTheme2, PluginConfigPageProps } from '@grafana/data';
import { DataSourcePicker, getBackendSrv } from '@grafana/runtime';
import { Alert, Button, Field, useStyles2 } from '@grafana/ui';
import { APP_ID } from './state';

/** The app's settings (its jsonData). */
export interface AppSettings {
  /** The Prometheus datasource the recording rules' series are read from (the Rules page's links). */
  prometheusDatasourceUid?: string;
}

/**
 * The app's configuration page: the Prometheus datasource that receives the recording rules'
 * series, so that the Rules page links each rule to its series in Explore.
 */
export function AppConfig({ plugin }: PluginConfigPageProps<AppPluginMeta<AppSettings>>) {
  const styles = useStyles2(getStyles);
  const meta = plugin.meta;
  const [uid, setUid] = useState(meta.jsonData?.prometheusDatasourceUid ?? '');
  const [state, setState] = useState<{ saving?: boolean; error?: string; saved?: boolean }>({});
  const save = () => {
    setState({ saving: true });
    getBackendSrv()
      .post(`/api/plugins/${APP_ID}/settings`, {
        enabled: meta.enabled ?? true,
        pinned: meta.pinned ?? true,
        jsonData: { ...(meta.jsonData ?? {}), prometheusDatasourceUid: uid || undefined },
      })
      .then(
        () => setState({ saved: true }),
        (e) => setState({ error: e?.data?.message ?? e?.message ?? String(e) })
      );
  };
  return (
    <div className={styles.page}>
      <Field
        label="Prometheus for recording rules"
        description="Where the rules' series are written (the store's -remote-write, or Pyroscope's exporter): each rule links to its series there"
      >
        <DataSourcePicker
          type="prometheus"
          current={uid || null}
          noDefault
          onChange={(ds) => setUid(ds.uid)}
          width={40}
        />
      </Field>
      <div className={styles.buttons}>
        <Button onClick={save} disabled={state.saving}>
          Save settings
        </Button>
        {uid && (
          <Button variant="secondary" fill="text" onClick={() => setUid('')}>
            Clear
          </Button>
        )}
      </div>
      {state.error && (
        <Alert severity="error" title="Settings not saved">
          {state.error}
        </Alert>
      )}
      {state.saved && <Alert severity="success" title="Settings saved: reload the app to use them" />}
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  page: css({ display: 'flex', flexDirection: 'column', gap: theme.spacing(1), maxWidth: 640 }),
  buttons: css({ display: 'flex', gap: theme.spacing(1) }),
});
