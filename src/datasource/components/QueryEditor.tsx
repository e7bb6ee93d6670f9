// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { CoreApp, QueryEditorProps } from '@grafana/data';
import type { DataSource } from '../datasource';
import { EmberscopeOptions, EmberscopeQuery } from '../types';
import { EmberscopeQueryEditor } from './EmberscopeQueryEditor';

/** The query editor as Grafana mounts it (Explore, dashboards, alerting). */
export function QueryEditor(props: QueryEditorProps<DataSource, EmberscopeQuery, EmberscopeOptions>) {
  const { datasource, query, onChange, onRunQuery, range, app, data } = props;
  const frames = data?.series.filter((f) => !f.refId || f.refId === query.refId);
  return (
    <EmberscopeQueryEditor
      query={query}
      onChange={onChange}
      onRunQuery={onRunQuery}
      client={datasource.resources}
      exporter={datasource}
      range={range ? { from: range.from.valueOf(), to: range.to.valueOf() } : undefined}
      app={app === CoreApp.UnifiedAlerting ? 'alerting' : app === CoreApp.Explore ? 'explore' : 'dashboard'}
      frames={frames}
    />
  );
}
