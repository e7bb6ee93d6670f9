// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { PanelPlugin } from '@grafana/data';
import { FlamegraphPanel } from './FlamegraphPanel';
import { addPanelOptions } from './options';
import { PanelOptions } from './types';
import { flamegraphSuggestions } from './suggestions';

/** The Emberscope flamegraph panel (nested plugin `emberscope-flamegraph-panel`). */
export const plugin = new PanelPlugin<PanelOptions>(FlamegraphPanel)
  .setPanelOptions(addPanelOptions)
  .setSuggestionsSupplier(flamegraphSuggestions);
