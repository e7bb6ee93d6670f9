// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { AppPluginMeta, PluginContextProvider, PluginType } from '@grafana/data';
import { AppRoot } from '../../app/AppRoot';
import { APP_BASE, APP_ID } from '../../app/state';
import { installStandIns } from './standIns';

installStandIns();

const meta = {
  id: APP_ID,
  name: 'Emberscope',
  type: PluginType.app,
  module: '',
  baseUrl: '',
  enabled: true,
  info: {
    author: { name: 'Emberscope' },
    description: '',
    links: [],
    logos: { small: '', large: '' },
    screenshots: [],
    updated: '',
    version: '',
  },
} as AppPluginMeta;

/** The app's root as Grafana mounts it (plugin context, base path), with the playground's stand-ins. */
export function AppHost() {
  return (
    <PluginContextProvider meta={meta}>
      <AppRoot basename={APP_BASE} meta={meta} />
    </PluginContextProvider>
  );
}
