// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import {
  CoreApp,
  DataSourceInstanceSettings,
  FieldType,
  ScopedVars,
  StreamingFrameAction,
  dateTime,
  toDataFrame,
} from '@grafana/data';
import { TemplateSrv } from '@grafana/runtime';
import { DataSource, LIVE_MAX_ROWS } from './datasource';
import pluginJson from './plugin.json';
import { EmberscopeOptions, EmberscopeQuery, parseDuration } from './types';
import { addSeriesLinks } from './links';
import { CPU } from './testing/fakeClient';

/** A template service that replaces $name and ${name} the way Grafana does, with formats. */
function fakeTemplateSrv(vars: Record<string, string | string[]>): TemplateSrv {
  return {
    replace: (target?: string, _scoped?: ScopedVars, format?: string | Function) =>
      (target ?? '').replace(/\$\{?(\w+)\}?/g, (m, name: string) => {
        if (!(name in vars)) {
          return m;
        }
        const v = vars[name];
        if (typeof format === 'function') {
          return format(v);
        }
        return Array.isArray(v) ? (format === 'csv' ? v.join(',') : `{${v.join(',')}}`) : v;
      }),
  } as unknown as TemplateSrv;
}

const settings = {
  id: 1,
  uid: 'emberscope',
  name: 'Emberscope',
  type: 'emberscope-datasource',
  jsonData: {},
  meta: {},
  access: 'proxy',
  readOnly: false,
} as unknown as DataSourceInstanceSettings<EmberscopeOptions>;

function makeDs(vars: Record<string, string | string[]> = {}) {
  const ds = new DataSource(settings, fakeTemplateSrv(vars));
  const calls: Array<[string, Record<string, string>]> = [];
  ds.getResource = jest.fn(async (path: string, params?: Record<string, string>) => {
    calls.push([path, params ?? {}]);
    if (path === 'profileTypes') {
      return [{ id: CPU, label: 'process_cpu - cpu', name: 'process_cpu', sampleType: 'cpu' }];
    }
    if (path === 'labelNames') {
      return ['__profile_type__', 'region', 'service_name'];
    }
    return ['eu-north', 'us-east'];
  }) as DataSource['getResource'];
  return { ds, calls };
}

describe('DataSource', () => {
  it('passes a query of Grafana’s built-in Pyroscope datasource through unchanged', () => {
    const { ds } = makeDs();
    const q: EmberscopeQuery = {
      refId: 'A',
      queryType: 'both',
      profileTypeId: CPU,
      labelSelector: '{service_name="ride-share-app"}',
      groupBy: ['region'],
      maxNodes: 16384,
    };
    expect(ds.applyTemplateVariables(q, {})).toEqual(q);
    expect(ds.filterQuery(q)).toBe(true);
  });

  it('passes the panel’s view through untouched: a search that looks like a variable stays as it is', () => {
    const { ds } = makeDs({ json: 'replaced' });
    const view = { path: ['main.main', 'main.work'], view: 'tree', search: '$json|${json}', sandwich: 'main.work' };
    const q: EmberscopeQuery = { refId: 'A', queryType: 'profile', profileTypeId: CPU, labelSelector: '{}', view };
    const ran = ds.applyTemplateVariables(q, {});
    expect(ran.view).toEqual({
      path: ['main.main', 'main.work'],
      view: 'tree',
      search: '$json|${json}',
      sandwich: 'main.work',
    });
  });

  it('interpolates selector, query text, group-by and profile type, and merges ad-hoc filters', () => {
    const { ds } = makeDs({
      service: 'ride-share-app',
      regions: ['eu-north', 'us.east'],
      by: ['region', 'vehicle'],
      pt: CPU,
    });
    const q = ds.applyTemplateVariables(
      {
        refId: 'A',
        profileTypeId: '$pt',
        labelSelector: '{service_name="$service", region=~"$regions"}',
        expr: 'reverse($pt{service_name="${service}"})',
        groupBy: ['$by'],
      },
      {},
      [
        { key: 'vehicle', operator: '=', value: 'car' },
        { key: 'pod', operator: '!~', value: 'canary-.*' },
      ]
    );
    expect(q.profileTypeId).toBe(CPU);
    expect(q.labelSelector).toBe(
      '{service_name="ride-share-app", region=~"eu-north|us\\\\.east", vehicle="car", pod!~"canary-.*"}'
    );
    expect(q.expr).toBe(`reverse(${CPU}{service_name="ride-share-app", vehicle="car", pod!~"canary-.*"})`);
    expect(q.groupBy).toEqual(['region', 'vehicle']);
  });

  it('interpolates a dashboard diff’s comparison: its selector and its range given as variables', () => {
    const { ds } = makeDs({ compare: 'checkout', __from: '1796109600000', __to: '1796113200000' });
    const q = ds.applyTemplateVariables(
      {
        refId: 'A',
        queryType: 'diff',
        profileTypeId: CPU,
        labelSelector: '{}',
        comparison: { labelSelector: '{service_name="$compare"}', from: '$__from', to: '${__to}' } as never,
      },
      {}
    );
    expect(q.comparison).toEqual({
      labelSelector: '{service_name="checkout"}',
      from: 1796109600000,
      to: 1796113200000,
    });
  });

  it('keeps a diff’s comparison call site (a zoom below the cut asks both sides for it)', () => {
    const { ds } = makeDs();
    const callSite = ['main.main', 'main.work'];
    const q = ds.applyTemplateVariables(
      {
        refId: 'A',
        queryType: 'diff',
        profileTypeId: CPU,
        callSite,
        comparison: { labelSelector: '{service_name="api"}', from: 1, to: 2, callSite },
      },
      {}
    );
    expect(q.callSite).toEqual(callSite);
    expect(q.comparison?.callSite).toEqual(callSite);
  });

  it('refuses an ad-hoc filter operator label matchers cannot express', () => {
    const { ds } = makeDs();
    expect(() =>
      ds.applyTemplateVariables({ refId: 'A', profileTypeId: CPU }, {}, [{ key: 'n', operator: '<', value: '3' }])
    ).toThrow('ad-hoc filter n < "3": operator "<" is not supported, use =, !=, =~ or !~');
  });

  it('skips queries without a profile type or query text', () => {
    const { ds } = makeDs();
    expect(ds.filterQuery({ refId: 'A' })).toBe(false);
    expect(ds.filterQuery({ refId: 'A', expr: `${CPU}{}` })).toBe(true);
    expect(ds.filterQuery({ refId: 'A', profileTypeId: CPU, hide: true })).toBe(false);
  });

  it('defaults to both in Explore and to a flamegraph on dashboards', () => {
    const { ds } = makeDs();
    expect(ds.getDefaultQuery(CoreApp.Explore).queryType).toBe('both');
    expect(ds.getDefaultQuery(CoreApp.Dashboard).queryType).toBe('profile');
  });

  it('answers variable queries in object and text form, scoped by selector, profile type and range', async () => {
    const { ds, calls } = makeDs({ service: 'ride-share-app' });
    const range = {
      from: dateTime(1_700_000_000_000),
      to: dateTime(1_700_003_600_000),
      raw: { from: 'now-1h', to: 'now' },
    };
    expect(await ds.metricFindQuery({ refId: 'v', type: 'profileTypes' }, { range })).toEqual([
      { text: 'process_cpu - cpu', value: CPU },
    ]);
    expect(await ds.metricFindQuery('label_names()')).toEqual([{ text: 'region' }, { text: 'service_name' }]);
    expect(await ds.metricFindQuery('label_values({service_name="$service"}, region)', { range })).toEqual([
      { text: 'eu-north' },
      { text: 'us-east' },
    ]);
    expect(calls[calls.length - 1]).toEqual([
      'labelValues',
      { label: 'region', matchers: '{service_name="ride-share-app"}', start: '1700000000000', end: '1700003600000' },
    ]);
    await ds.metricFindQuery({ refId: 'v', type: 'labelNames', profileTypeId: CPU }, { range });
    expect(calls[calls.length - 1][1].matchers).toBe(`{__profile_type__="${CPU}"}`);
    await expect(ds.metricFindQuery('label_values()')).rejects.toThrow('label_values needs a label name');
  });

  it('lists ad-hoc keys and values among the series the other filters select, cached by matchers and range', async () => {
    const { ds, calls } = makeDs();
    const filters = [{ key: 'service_name', operator: '=', value: 'api' }];
    expect(await ds.getTagKeys({ filters })).toEqual([{ text: 'region' }, { text: 'service_name' }]);
    expect(await ds.getTagValues({ key: 'region', filters })).toEqual([{ text: 'eu-north' }, { text: 'us-east' }]);
    await ds.getTagValues({ key: 'region', filters });
    expect(calls).toEqual([
      ['labelNames', { matchers: '{service_name="api"}' }],
      ['labelValues', { label: 'region', matchers: '{service_name="api"}' }],
    ]);
  });
});

describe('addSeriesLinks', () => {
  it('links each labelled series to the query narrowed to its labels, skipping the folded "other"', () => {
    const frame = (labels: Record<string, string>) => ({
      ...toDataFrame({
        refId: 'A',
        fields: [
          { name: 'time', type: FieldType.time, values: [1, 2] },
          { name: CPU, type: FieldType.number, values: [3, 4], labels },
        ],
      }),
      refId: 'A',
    });
    const q: EmberscopeQuery = {
      refId: 'A',
      queryType: 'both',
      profileTypeId: CPU,
      labelSelector: '{service_name="ride-share-app", vehicle=~"c.*"}',
      groupBy: ['vehicle'],
    };
    const res = addSeriesLinks({ data: [frame({ vehicle: 'car' }), frame({ vehicle: 'other' })] }, [q], {
      uid: 'emberscope',
      name: 'Emberscope',
    });
    const link = res.data[0].fields[1].config.links[0];
    expect(link.title).toBe('Add vehicle="car" to the selector');
    expect(link.internal.query).toEqual({
      ...q,
      labelSelector: '{service_name="ride-share-app", vehicle="car"}',
      groupBy: [],
    });
    expect(res.data[1].fields[1].config.links).toBeUndefined();
  });
});

describe('live mode', () => {
  it('replaces a streamed frame with each update instead of appending to it', () => {
    const { ds } = makeDs();
    const frame = toDataFrame({
      fields: [
        { name: 'time', type: FieldType.time, values: [1, 2, 3] },
        { name: 'value', type: FieldType.number, values: [4, 5, 6] },
      ],
    });
    const opts = ds.streamOptionsProvider({ maxDataPoints: 2 } as never, frame);
    expect(opts.action).toBe(StreamingFrameAction.Replace);
    // a whole flamegraph window fits, whatever the panel's max data points
    expect(opts.maxLength).toBeGreaterThanOrEqual(LIVE_MAX_ROWS);
  });

  it('declares streaming in plugin.json so that Grafana opens Live channels for it', () => {
    expect(pluginJson.streaming).toBe(true);
  });

  it('reads live durations', () => {
    expect(parseDuration('15m')).toBe(900_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration(' 10s ')).toBe(10_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('soon')).toBeUndefined();
    expect(parseDuration('10')).toBeUndefined();
    expect(parseDuration('')).toBeUndefined();
  });
});
