// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import {
  applyFieldOverrides,
  createTheme,
  DataFrame,
  DataQueryRequest,
  dateTime,
  ScopedVars,
  FieldConfigSource,
  FieldType,
  locationUtil,
  toDataFrame,
} from '@grafana/data';
import { DataSourceWithBackend } from '@grafana/runtime';
import { lastValueFrom, of } from 'rxjs';
import { addSeriesLinks, STEP_END_VAR, STEP_START_VAR } from './links';
import { DataSource } from './datasource';
import { EmberscopeQuery } from './types';
import { CPU } from './testing/fakeClient';
import { DashboardState, grafanaReplaceVariables, standardFieldConfigRegistry } from '../shared/grafanaTemplate';

/** The dashboard the links are used on: its variables and its (relative, last 6 hours) range. */
const DASHBOARD: DashboardState = {
  variables: { profile_type: CPU, service: 'ride-share-app' },
  from: Date.parse('2026-12-01T01:30:00Z'),
  to: Date.parse('2026-12-01T07:30:00Z'),
};
const replaceVariables = grafanaReplaceVariables(DASHBOARD);

/**
 * The field config a dashboard panel gives every field (Grafana's applyFieldOverrides merges the
 * panel's defaults into each field, the step fields included): the unit of CPU time, 1 decimal.
 */
const PANEL_FIELD_CONFIG: FieldConfigSource = { defaults: { unit: 'ns', decimals: 1 }, overrides: [] };
const fieldConfigRegistry = standardFieldConfigRegistry();

/** The frames as Grafana configures them for a panel with this field config. */
function configure(frames: DataFrame[], fieldConfig = PANEL_FIELD_CONFIG): DataFrame[] {
  return applyFieldOverrides({
    data: frames,
    fieldConfig,
    fieldConfigRegistry,
    replaceVariables,
    theme: createTheme(),
    timeZone: 'utc',
  });
}

const T0 = Date.parse('2026-12-01T07:20:00Z');
const STEP = 60_000;

/** A series frame as the backend sends it: time, value with labels, and the points' step windows. */
function seriesFrame(labels: Record<string, string>, stepType = FieldType.time): DataFrame {
  const times = [T0, T0 + STEP, T0 + 2 * STEP];
  const asType = (ms: number) => (stepType === FieldType.time ? ms : String(ms));
  return {
    ...toDataFrame({
      refId: 'A',
      fields: [
        { name: 'time', type: FieldType.time, values: times },
        { name: CPU, type: FieldType.number, values: [1e9, 2e9, 3e9], labels, config: { unit: 'ns' } },
        { name: 'stepStart', type: stepType, values: times.map((t) => asType(t - STEP + 1)) },
        { name: 'stepEnd', type: stepType, values: times.map((t) => asType(t)) },
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

/**
 * The links Grafana shows on a point (row) of the value field: the frame configured by
 * @grafana/data's applyFieldOverrides with the panel's field config (each field's display
 * processor included), links from its getLinksSupplier, interpolated by Grafana's rules.
 */
function linksAt(frame: DataFrame, row: number) {
  const [processed] = configure([frame]);
  const value = processed.fields[1];
  return value.getLinks!({ valueRowIndex: row });
}

function paneOf(href: string) {
  const url = new URL(href, 'http://grafana.example');
  const panes = JSON.parse(url.searchParams.get('panes')!);
  return panes[Object.keys(panes)[0]];
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
      // the step (t-step, t] of the clicked point, in Unix ms: not the display text of the fields
      expect(pane.range).toEqual({ from: String(T0 + (row - 1) * STEP + 1), to: String(T0 + row * STEP) });
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
    expect(pane.range).toEqual({ from: String(T0 + 1), to: String(T0 + STEP) });
  });

  it('give a series without labels its step link, and the folded "other" series none', () => {
    const res = addSeriesLinks({ data: [seriesFrame({}), seriesFrame({ vehicle: 'other' })] }, [query], ds);
    expect(res.data[0].fields[1].config.links.map((l: { title: string }) => l.title)).toEqual([
      'Flamegraph of this step',
    ]);
    expect(res.data[1].fields[1].config.links).toBeUndefined();
  });

  it('read the step window through Grafana’s display values: a text field would be formatted (the bug of 12.4)', () => {
    // Grafana formats the display text of a text field holding a number like any number: the
    // link of `${__data.fields.stepStart}` got "1.80 Tri"; `.numeric` of a time field is its ms
    const at = (f: DataFrame) => ({ __dataContext: { value: { frame: f, field: f.fields[1], rowIndex: 1 } } }) as never;
    const text = seriesFrame({ vehicle: 'car' }, FieldType.string);
    // Explore's graph gives fields the unit "short": what Grafana 12.4 put in the link
    const [shortText] = configure([text], { defaults: { unit: 'short' }, overrides: [] });
    expect(replaceVariables('${__data.fields.stepStart}', at(shortText))).toBe('1.80 Tri');
    const [nsText] = configure([text]);
    expect(replaceVariables('${__data.fields.stepStart}', at(nsText))).not.toMatch(/^\d+$/);

    // the time fields' numeric display value is their Unix ms, whatever the unit
    for (const cfg of [
      PANEL_FIELD_CONFIG,
      { defaults: { unit: 'short' }, overrides: [] },
      { defaults: {}, overrides: [] },
    ]) {
      const [asTime] = configure([seriesFrame({ vehicle: 'car' })], cfg);
      expect(replaceVariables(STEP_START_VAR, at(asTime))).toBe(String(T0 + 1));
      expect(replaceVariables(STEP_END_VAR, at(asTime))).toBe(String(T0 + STEP));
      // while their text is a date: the old variable would not have worked with time fields either
      expect(replaceVariables('${__data.fields.stepStart}', at(asTime))).not.toMatch(/^\d+$/);
    }
  });

  it('carry the dashboard’s variables (replaced when the query ran) and keep its range in "Add … to the selector"', () => {
    const asRun: EmberscopeQuery = {
      ...query,
      profileTypeId: replaceVariables('$profile_type'),
      labelSelector: replaceVariables('{service_name="$service"}'),
    };
    const range = {
      from: new Date(DASHBOARD.from),
      to: new Date(DASHBOARD.to),
      raw: { from: 'now-6h', to: 'now' },
    } as never;
    const res = addSeriesLinks({ data: [seriesFrame({ vehicle: 'car' })] }, [asRun], ds, range);
    const [step, add] = linksAt(res.data[0], 2);
    const pane = paneOf(step.href);
    expect(pane.queries[0].profileTypeId).toBe(CPU);
    expect(pane.queries[0].labelSelector).toBe('{service_name="ride-share-app", vehicle="car"}');
    expect(step.href).not.toContain('$');

    expect(add.title).toBe('Add vehicle="car" to the selector');
    const left = JSON.parse(new URL(add.href, 'http://grafana.example').searchParams.get('left')!);
    expect(left.range).toEqual({ from: 'now-6h', to: 'now' });
    expect(left.queries[0]).toMatchObject({
      profileTypeId: CPU,
      labelSelector: '{service_name="ride-share-app", vehicle="car"}',
    });
  });
});

describe('the datasource’s query', () => {
  it('builds its links from the queries as run: dashboard variables replaced, over the dashboard’s range', async () => {
    const templateSrv = {
      replace: (t?: string, sv?: ScopedVars, f?: string | Function) => replaceVariables(t ?? '', sv, f),
    };
    const settings = {
      id: 1,
      uid: 'emberscope',
      name: 'Emberscope',
      type: 'emberscope-datasource',
      jsonData: {},
      meta: {},
    };
    const dsi = new DataSource(settings as never, templateSrv as never);
    const backend = jest
      .spyOn(DataSourceWithBackend.prototype, 'query')
      .mockReturnValue(of({ data: [seriesFrame({ vehicle: 'car' })] }));
    const range = { from: dateTime(DASHBOARD.from), to: dateTime(DASHBOARD.to), raw: { from: 'now-6h', to: 'now' } };
    const request = {
      targets: [{ ...query, profileTypeId: '$profile_type', labelSelector: '{service_name="$service"}' }],
      range,
      scopedVars: {},
    } as unknown as DataQueryRequest<EmberscopeQuery>;
    const res = await lastValueFrom(dsi.query(request));
    backend.mockRestore();

    const [step, add] = linksAt(res.data[0], 1);
    const pane = paneOf(step.href);
    expect(pane.queries[0]).toMatchObject({
      profileTypeId: CPU,
      labelSelector: '{service_name="ride-share-app", vehicle="car"}',
    });
    expect(pane.range).toEqual({ from: String(T0 + 1), to: String(T0 + STEP) });
    const left = JSON.parse(new URL(add.href, 'http://grafana.example').searchParams.get('left')!);
    expect(left.range).toEqual({ from: 'now-6h', to: 'now' });
    expect(left.queries[0]).toMatchObject({ profileTypeId: CPU });
  });
});
