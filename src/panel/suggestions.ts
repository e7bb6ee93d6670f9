// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { DataFrame, PanelDataSummary, VisualizationSuggestion, VisualizationSuggestionScore } from '@grafana/data';
import { isFlameFrame } from '../shared/flameData';
import { PanelOptions } from './types';

/** The panel's plugin id, as the backend names it in `meta.preferredVisualisationPluginId`. */
export const PANEL_ID = 'emberscope-flamegraph-panel';

/** Whether a frame asks for this panel or has the nested-set fields (level, value, self, label). */
export function wantsFlamegraph(frame: DataFrame): boolean {
  return frame.meta?.preferredVisualisationPluginId === PANEL_ID || isFlameFrame(frame);
}

/**
 * The panel's suggestion for Grafana's "Suggestions" list: offered, as the best fit when a
 * frame names this panel and as a good one when it only has the nested-set fields; nothing
 * for other data (series, tables).
 */
export function flamegraphSuggestions(summary: PanelDataSummary): Array<VisualizationSuggestion<PanelOptions>> | void {
  const frames = summary.rawFrames ?? [];
  if (!frames.some(wantsFlamegraph)) {
    return;
  }
  const named = frames.some((f) => f.meta?.preferredVisualisationPluginId === PANEL_ID);
  return [
    {
      name: 'Emberscope flame graph',
      description: 'Flame graph with search, zoom and a top table',
      score: named ? VisualizationSuggestionScore.Best : VisualizationSuggestionScore.Good,
      cardOptions: {
        previewModifier: (s) => {
          // the small preview card has no room for the table
          s.options = { ...s.options, showTable: false };
        },
      },
    },
  ];
}
