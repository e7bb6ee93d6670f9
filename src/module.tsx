// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { AppPlugin } from '@grafana/data';

/**
 * The Emberscope app plugin. It has no pages of its own: it bundles the nested
 * `emberscope-datasource` and `emberscope-flamegraph-panel` plugins, which Grafana
 * loads only from inside an app plugin.
 */
export const plugin = new AppPlugin<{}>();
