// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { AppPlugin } from '@grafana/data';
import { AppRoot } from './app/AppRoot';
import { AppConfig, AppSettings } from './app/AppConfig';

/**
 * The Emberscope app plugin: a profiling home (services, a service's flame graph, labels,
 * diffs, spans and novelty, favourites; see src/app) routed under /a/emberscope-app, and the
 * nested `emberscope-datasource` and `emberscope-flamegraph-panel` plugins it bundles.
 */
export const plugin = new AppPlugin<AppSettings>()
  .setRootPage(AppRoot)
  .addConfigPage({ title: 'Configuration', icon: 'cog', id: 'configuration', body: AppConfig });
