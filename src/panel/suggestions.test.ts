// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import {
  createDataFrame,
  FieldType,
  getPanelDataSummary,
  PanelPluginMeta,
  VisualizationSuggestionScore,
} from '@grafana/data';
import { plugin } from './module';
import { PANEL_ID } from './suggestions';
import { nestedSet, SMALL } from './testing/frames';
import panelJson from './plugin.json';

const series = createDataFrame({
  name: 'series',
  fields: [
    { name: 'time', type: FieldType.time, values: [1000, 2000] },
    { name: 'value', type: FieldType.number, values: [1, 2] },
  ],
});

function suggest(frames: Parameters<typeof getPanelDataSummary>[0]) {
  plugin.meta = { id: PANEL_ID, name: 'Emberscope flame graph' } as PanelPluginMeta;
  return plugin.getSuggestions(getPanelDataSummary(frames));
}

describe('panel suggestions', () => {
  it('suggests the panel as the best fit for a frame that names it', () => {
    const frame = nestedSet(SMALL);
    frame.meta = { preferredVisualisationPluginId: PANEL_ID, preferredVisualisationType: 'flamegraph' };
    const s = suggest([series, frame]);
    expect(s).toHaveLength(1);
    expect(s![0]).toMatchObject({
      pluginId: PANEL_ID,
      name: 'Emberscope flame graph',
      score: VisualizationSuggestionScore.Best,
    });
    // the preview card leaves the top table out
    const card = { ...s![0], options: { ...s![0].options } };
    s![0].cardOptions!.previewModifier!(card);
    expect(card.options.showTable).toBe(false);
  });

  it('suggests it as a good fit for nested-set fields without the meta', () => {
    const s = suggest([nestedSet(SMALL)]);
    expect(s?.map((x) => x.score)).toEqual([VisualizationSuggestionScore.Good]);
  });

  it('suggests nothing for series or tables', () => {
    const table = createDataFrame({
      fields: [
        { name: 'symbol', type: FieldType.string, values: ['main'] },
        { name: 'self', type: FieldType.number, values: [1] },
        { name: 'total', type: FieldType.number, values: [2] },
      ],
    });
    expect(suggest([series, table]) ?? []).toEqual([]);
    expect(suggest([]) ?? []).toEqual([]);
  });

  it('is asked for suggestions by Grafana: plugin.json says "suggestions": true', () => {
    // Grafana 12.4 (feature toggle externalVizSuggestions) asks only the panels whose meta has
    // `suggestions` (getAllSuggestions: getAllPanelPluginMeta().filter((p) => p.suggestions));
    // without the toggle it asks its own list of built-in panels only
    const meta: Pick<PanelPluginMeta, 'id' | 'suggestions'> = panelJson;
    expect(meta).toEqual(expect.objectContaining({ id: PANEL_ID, suggestions: true }));
    expect(suggest([nestedSet(SMALL)])?.[0]?.pluginId).toBe(PANEL_ID);
  });
});
