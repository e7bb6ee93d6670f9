// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import fs from 'fs';
import { addSeriesLinks } from './links';
import path from 'path';
import {
  applyFieldOverrides,
  createTheme,
  DataFrame,
  DataFrameJSON,
  dataFrameFromJSON,
  DataTopic,
  locationUtil,
  ScopedVars,
} from '@grafana/data';

/**
 * What Grafana's template service does with `${__value.raw}` in a data link: the raw value of
 * the clicked field at the clicked row, which @grafana/data's link supplier gives it as the
 * data context. (The templateSrv lives in Grafana itself; the rest, from applyFieldOverrides
 * through getLinks and the internal link's Explore URL, is @grafana/data's.)
 */
function replaceVariables(value: string, scopedVars?: ScopedVars): string {
  return value.replace(/\$\{__value\.raw\}/g, (m) => {
    const ctx = scopedVars?.__dataContext?.value as { field?: { values: unknown[] }; rowIndex?: number } | undefined;
    if (!ctx?.field || ctx.rowIndex === undefined) {
      return m;
    }
    return String(ctx.field.values[ctx.rowIndex]);
  });
}

/** The frames the backend answers, as kept by pkg/datasource/plugin's TestExemplarGoldenFrames. */
function golden(name: string): DataFrame[] {
  const file = path.join(__dirname, '../../pkg/datasource/plugin/testdata/grafana', `${name}.golden.json`);
  const frames: DataFrameJSON[] = JSON.parse(fs.readFileSync(file, 'utf8'));
  return frames.map((f) => dataFrameFromJSON(f));
}

/** The links Grafana offers on a field of the clicked exemplar, through its own field overrides. */
function linksAt(frame: DataFrame, field: string, row: number) {
  const [processed] = applyFieldOverrides({
    data: [frame],
    fieldConfig: { defaults: {}, overrides: [] },
    replaceVariables: replaceVariables as never,
    theme: createTheme(),
  });
  const f = processed.fields.find((x) => x.name === field)!;
  return f.getLinks!({ valueRowIndex: row });
}

/** The one Explore pane an internal link's URL opens. */
function paneOf(href: string) {
  const url = new URL(href, 'http://grafana.example');
  expect(url.pathname).toBe('/explore');
  // @grafana/data writes an internal link's pane as the `left` state
  return JSON.parse(url.searchParams.get('left')!);
}

beforeAll(() => {
  locationUtil.initialize({
    config: { appSubUrl: '' } as never,
    getTimeRangeForUrl: () => ({ from: 'now-1h', to: 'now' }),
    getVariablesUrlParams: () => ({}),
  });
});

describe('exemplars as Grafana reads them', () => {
  it('come in an "exemplar" annotations frame beside the series, in the shape of Grafana’s Pyroscope datasource', () => {
    const [series, exemplars] = golden('exemplars_metrics');
    expect(series.meta?.dataTopic).toBeUndefined();
    expect(exemplars.name).toBe('exemplar');
    expect(exemplars.meta?.dataTopic).toBe(DataTopic.Annotations);
    expect(exemplars.fields.map((f) => f.name).slice(0, 3)).toEqual(['Time', 'Value', 'Id']);
    expect(exemplars.fields[1].config.unit).toBe('ns');
    expect(exemplars.length).toBe(1);
  });

  it('link a profile exemplar to the flamegraph of that one profile', () => {
    const [, exemplars] = golden('exemplars_metrics');
    const id = exemplars.fields.find((f) => f.name === 'Id')!.values[0];
    expect(id).toBe('25b7a4ca-04d8-40d8-96a0-57b70fa5208a');
    const links = linksAt(exemplars, 'Id', 0);
    expect(links.map((l) => l.title)).toEqual(['View profile']);
    const pane = paneOf(links[0].href);
    expect(pane.datasource).toBe('profiles');
    expect(pane.queries).toHaveLength(1);
    expect(pane.queries[0]).toMatchObject({
      queryType: 'profile',
      profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds',
      labelSelector: '{env="demo"}',
      profileIdSelector: [id],
    });
    expect(pane.queries[0].spanSelector).toBeUndefined();
  });

  it('link a span exemplar to that span’s flamegraph and its trace to the tracing datasource', () => {
    const [heatmap, exemplars] = golden('exemplars_span_histogram');
    expect(heatmap.meta?.type).toBe('heatmap-cells');
    expect(exemplars.meta?.dataTopic).toBe(DataTopic.Annotations);
    const ids = exemplars.fields.find((f) => f.name === 'Id')!;
    expect(ids.config.displayName).toBe('Span ID');
    const row = 0;
    const spanLinks = linksAt(exemplars, 'Id', row);
    expect(spanLinks.map((l) => l.title)).toEqual(['View span profile']);
    const pane = paneOf(spanLinks[0].href);
    expect(pane.datasource).toBe('profiles');
    expect(pane.queries[0]).toMatchObject({ queryType: 'profile', spanSelector: [ids.values[row]] });

    const traces = exemplars.fields.find((f) => f.name === 'traceId')!;
    const traceLinks = linksAt(exemplars, 'traceId', row);
    expect(traceLinks.map((l) => l.title)).toEqual(['View trace']);
    const tracePane = paneOf(traceLinks[0].href);
    expect(tracePane.datasource).toBe('tempo');
    expect(tracePane.queries[0]).toMatchObject({ queryType: 'traceql', query: String(traces.values[row]) });
  });

  it('keep only their own links when the datasource adds its series links', () => {
    const frames = golden('exemplars_metrics').map((f) => ({ ...f, refId: 'A' }));
    // as in a grouped query: the exemplars' Value field carries its series' labels
    const value = frames[1].fields.find((f) => f.name === 'Value')!;
    value.labels = { service_name: 'rec-spans' };
    const res = addSeriesLinks(
      { data: frames },
      [{ refId: 'A', queryType: 'metrics', profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds' }],
      { uid: 'profiles', name: 'Profiles' }
    );
    const ex = res.data[1] as DataFrame;
    expect(ex.fields.find((f) => f.name === 'Value')!.config.links).toBeUndefined();
    expect(ex.fields.find((f) => f.name === 'Id')!.config.links!.map((l) => l.title)).toEqual(['View profile']);
  });
});
