// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { DataSourcePlugin } from '@grafana/data';
import { DataSource } from './datasource';
import { QueryEditor } from './components/QueryEditor';
import { ConfigEditor } from './components/ConfigEditor';
import { CheatSheet } from './components/CheatSheet';
import { EmberscopeOptions, EmberscopeQuery, EmberscopeSecureOptions } from './types';

/** The Emberscope datasource plugin: Go backend, query editor, config editor. */
export const plugin = new DataSourcePlugin<DataSource, EmberscopeQuery, EmberscopeOptions, EmberscopeSecureOptions>(
  DataSource
)
  .setQueryEditor(QueryEditor)
  .setConfigEditor(ConfigEditor)
  .setQueryEditorHelp(CheatSheet);
