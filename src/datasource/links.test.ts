// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import {
  applyFieldOverrides,
  createTheme,
  DataFrame,
  FieldType,
  getFieldDisplayValuesProxy,
  locationUtil,
  ScopedVars,
  toDataFrame,
} from '@grafana/data';
import { addSeriesLinks, STEP_END_VAR, STEP_START_VAR } from './links';
import { EmberscopeQuery } from './types';
import { CPU } from './testing/fakeClient';

/**
 * What Grafana's template service does with `${__data.fields.<name>}` in a data link: the
 * display text of that field in the clicked point's row (from the link's data context), URL
 * encoded when the link's URL is interpolated. (Grafana's templateSrv lives in Grafana itself,
 * not in @grafana/data; the rest below, getLinksSupplier through applyFieldOverrides, is Grafana's.)
 */
function replaceVariables(value: string, scopedVars?: ScopedVars, format?: unknown): string {
  return value.replace(/\$\{__data\.fields\.(\w+)\}/g, (m, name: string) => {
    const ctx = (scopedVars?.__dataContext?.value ?? {}) as { frame?: DataFrame; rowIndex?: number };
    if (!ctx.frame || ctx.rowIndex === undefined) {
      return m;
    }
    const text = String(getFieldDisplayValuesProxy({ frame: ctx.frame, rowIndex: ctx.rowIndex })[name]);
    return typeof format === 'string' && format !== 'raw' ? encodeURIComponent(text) : text;
  });
}

const T0 = Date.parse('2026-12-01T07:20:00Z');
const STEP = 60_000;

/** A series frame as the backend sends it: time, value with labels, and the points' step windows. */
function seriesFrame(labels: Record<string, string>): DataFrame {
  const times = [T0, T0 + STEP, T0 + 2 * STEP];
  return {
    ...toDataFrame({
      refId: 'A',
      fields: [
        { name: 'time', type: FieldType.time, values: times },
        { name: CPU, type: FieldType.number, values: [1e9, 2e9, 3e9], labels, config: { unit: 'ns' } },
        { name: 'stepStart', type: FieldType.string, values: times.map((t) => String(t)) },
        { name: 'stepEnd', type: FieldType.string, values: times.map((t) => String(t + STEP)) },
      ],
    }),
    refId: 'A',
  };
}

const query: EmberscopeQuery = {
  refId: 'A',
  queryType: 'both',
  profileTypeId: CPU,
  labelSelector: '{service_name="ride-share-app"}',
  groupBy: ['vehicle'],
};

const ds = { uid: 'emberscope', name: 'Emberscope', type: 'emberscope-datasource' };

/** The links Grafana shows on point row of the value field, through its own field overrides. */
function linksAt(frame: DataFrame, row: number) {
  const [processed] = applyFieldOverrides({
    data: [frame],
    fieldConfig: { defaults: {}, overrides: [] },
    replaceVariables: replaceVariables as never,
    theme: createTheme(),
  });
  const value = processed.fields[1];
  return value.getLinks!({ valueRowIndex: row });
}

beforeAll(() => {
  locationUtil.initialize({
    config: { appSubUrl: '' } as never,
    getTimeRangeForUrl: () => ({ from: 'now-1h', to: 'now' }),
    getVariablesUrlParams: () => ({}),
  });
});

describe('series data links', () => {
  it('open the flamegraph of the clicked point’s step, with the selector and the series’ labels', () => {
    const res = addSeriesLinks({ data: [seriesFrame({ vehicle: 'car' })] }, [query], ds);
    const link = res.data[0].fields[1].config.links[0];
    expect(link.title).toBe('Flamegraph of this step');
    expect(link.url).toContain(STEP_START_VAR);
    expect(link.url).toContain(STEP_END_VAR);

    for (const row of [0, 2]) {
      const models = linksAt(res.data[0], row);
      const step = models.find((m) => m.title === 'Flamegraph of this step')!;
      const url = new URL(step.href, 'http://grafana.example');
      expect(url.pathname).toBe('/explore');
      expect(url.searchParams.get('schemaVersion')).toBe('1');
      const panes = JSON.parse(url.searchParams.get('panes')!);
      const pane = panes[Object.keys(panes)[0]];
      expect(pane.range).toEqual({ from: String(T0 + row * STEP), to: String(T0 + (row + 1) * STEP) });
      expect(pane.datasource).toBe('emberscope');
      expect(pane.queries).toHaveLength(1);
      expect(pane.queries[0]).toMatchObject({
        refId: 'A',
        queryType: 'profile',
        profileTypeId: CPU,
        labelSelector: '{service_name="ride-share-app", vehicle="car"}',
        groupBy: [],
        datasource: { uid: 'emberscope', type: 'emberscope-datasource' },
      });
    }
  });

  it('narrow the query text too, and keep the matcher link', () => {
    const q = { ...query, expr: `${CPU}{service_name="ride-share-app"}` };
    const res = addSeriesLinks({ data: [seriesFrame({ vehicle: 'bike' })] }, [q], ds);
    const models = linksAt(res.data[0], 1);
    expect(models.map((m) => m.title)).toEqual(['Flamegraph of this step', 'Add vehicle="bike" to the selector']);
    const panes = JSON.parse(new URL(models[0].href, 'http://grafana.example').searchParams.get('panes')!);
    const pane = panes[Object.keys(panes)[0]];
    expect(pane.queries[0].expr).toBe(`${CPU}{service_name="ride-share-app", vehicle="bike"}`);
    expect(pane.range).toEqual({ from: String(T0 + STEP), to: String(T0 + 2 * STEP) });
  });

  it('give a series without labels its step link, and the folded "other" series none', () => {
    const res = addSeriesLinks({ data: [seriesFrame({}), seriesFrame({ vehicle: 'other' })] }, [query], ds);
    expect(res.data[0].fields[1].config.links.map((l: { title: string }) => l.title)).toEqual([
      'Flamegraph of this step',
    ]);
    expect(res.data[1].fields[1].config.links).toBeUndefined();
  });
});
