// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { formatFilter, parseFilter, readView, selectorOf, writeView } from './state';
import { deploysOf, lastHourPreset, lastTwoDeploys, versionLabel } from './deploys';
import { defaultType, groupedOptions, groupOf, unitOf } from './profileTypes';
import { parseFavourites } from './favourites';
import { filterRows } from './pages/Services';
import { parseProfileTypeId } from '../datasource/resources/client';

describe('the address of a view', () => {
  it('reads back every parameter it writes', () => {
    const url =
      '/a/emberscope-app/diff?ds=emb&type=process_cpu%3Acpu%3Ananoseconds%3Acpu%3Ananoseconds&from=now-6h&to=now&service=api&by=region&frames=route' +
      '&f=route%3D%22%2Fa%22&f=region%21%3D%22eu%22&q=ap&page=2&bFrom=1&bTo=2&cFrom=3&cTo=4&heat=span&pick=span%3A0123456789abcdef';
    const u = new URL(url, 'http://x');
    const v = readView(u.pathname, u.search);
    expect(v).toEqual({
      page: 'diff',
      ds: 'emb',
      type: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds',
      from: 'now-6h',
      to: 'now',
      service: 'api',
      by: 'region',
      frames: 'route',
      filters: [
        { name: 'route', value: '/a', exclude: false },
        { name: 'region', value: 'eu', exclude: true },
      ],
      search: 'ap',
      pageNo: 2,
      baseline: { from: 1, to: 2 },
      comparison: { from: 3, to: 4 },
      heat: 'span',
      pick: 'span:0123456789abcdef',
    });
    const again = new URL(writeView(v), 'http://x');
    expect(readView(again.pathname, again.search)).toEqual(v);
  });

  it('falls back to the services page and the last hour', () => {
    const v = readView('/a/emberscope-app', '');
    expect(v.page).toBe('services');
    expect([v.from, v.to]).toEqual(['now-1h', 'now']);
    expect(readView('/a/emberscope-app/nope', '?page=-3').pageNo).toBe(1);
    // an unknown heatmap kind or pick is none
    expect(readView('/a/emberscope-app/spans', '?heat=x&pick=trace%3A1')).toMatchObject({ heat: undefined, pick: undefined });
    // a range whose end is not after its start is no range
    expect(readView('/a/emberscope-app/diff', '?bFrom=5&bTo=5').baseline).toBeUndefined();
  });

  it('quotes filter values as Prometheus matchers do', () => {
    const f = { name: 'path', value: 'a"b\\c', exclude: true };
    expect(formatFilter(f)).toBe('path!="a\\"b\\\\c"');
    expect(parseFilter(formatFilter(f))).toEqual(f);
    expect(parseFilter('not a matcher')).toBeUndefined();
    expect(selectorOf('api', [{ name: 'route', value: '/x', exclude: false }])).toBe('{service_name="api", route="/x"}');
    expect(selectorOf('')).toBe('{}');
  });
});

describe('deploys', () => {
  const line = (version: string, times: number[], values: number[]) => ({
    labels: { service_version: version },
    name: version,
    times,
    values,
    total: 0,
  });

  it('picks service_version before version and git commit labels', () => {
    expect(versionLabel(['region', 'git_commit', 'version'])).toBe('version');
    expect(versionLabel(['service_version', 'version'])).toBe('service_version');
    expect(versionLabel(['region'])).toBeUndefined();
  });

  it('orders versions by when they first ran and spans their samples', () => {
    const d = deploysOf(
      [line('v2', [10, 20, 30, 40], [0, 0, 5, 5]), line('v1', [10, 20, 30, 40], [3, 3, 1, 0])],
      'service_version',
      10
    );
    expect(d).toEqual([
      { version: 'v1', range: { from: 10, to: 40 } },
      { version: 'v2', range: { from: 30, to: 50 } },
    ]);
    expect(lastTwoDeploys(d)).toEqual({ baseline: d[0], comparison: d[1] });
    expect(lastTwoDeploys(d.slice(0, 1))).toBeUndefined();
  });

  it('the last hour against the hour before', () => {
    expect(lastHourPreset(7_200_000)).toEqual({ baseline: { from: 0, to: 3_600_000 }, comparison: { from: 3_600_000, to: 7_200_000 } });
  });
});

describe('profile types', () => {
  const types = [
    'memory:inuse_space:bytes:space:bytes',
    'process_cpu:cpu:nanoseconds:cpu:nanoseconds',
    'block:contentions:count:contentions:count',
    'goroutines:goroutine:count:goroutine:count',
    'mutex:delay:nanoseconds:contentions:count',
    'memory:alloc_objects:count:space:bytes',
  ].map(parseProfileTypeId);

  it('are grouped as Grafana groups them: cpu, memory, goroutines, mutex, block', () => {
    const g = groupedOptions(types);
    expect(g.map((x) => x.label)).toEqual(['cpu', 'memory', 'goroutines', 'mutex', 'block']);
    expect(g[1].options!.map((o: { value?: string }) => o.value)).toEqual(['memory:alloc_objects:count:space:bytes', 'memory:inuse_space:bytes:space:bytes']);
    expect(defaultType(types)).toBe('process_cpu:cpu:nanoseconds:cpu:nanoseconds');
    expect(groupOf('wall')).toBe('cpu');
  });

  it('format in the unit of their samples', () => {
    expect(unitOf('process_cpu:cpu:nanoseconds:cpu:nanoseconds')).toBe('ns');
    expect(unitOf('memory:inuse_space:bytes:space:bytes')).toBe('bytes');
    expect(unitOf('goroutines:goroutine:count:goroutine:count')).toBe('short');
  });
});

describe('services and favourites', () => {
  it('sorts by total and filters by a part of the name', () => {
    const rows = [
      { name: 'b', total: 1, share: 0 },
      { name: 'Api', total: 5, share: 0 },
      { name: 'a', total: 5, share: 0 },
    ];
    expect(filterRows(rows, '').map((r) => r.name)).toEqual(['a', 'Api', 'b']);
    expect(filterRows(rows, 'AP').map((r) => r.name)).toEqual(['Api']);
  });

  it('reads what it stored and ignores anything else', () => {
    const f = [{ kind: 'service', title: 'api', url: '/a/emberscope-app/service?service=api' }];
    expect(parseFavourites(JSON.stringify(f))).toEqual(f);
    expect(parseFavourites('{"x":1}')).toEqual([]);
    expect(parseFavourites('not json')).toEqual([]);
    expect(parseFavourites(JSON.stringify([{ kind: 'other', title: 'x', url: 'y' }]))).toEqual([]);
    expect(parseFavourites(null)).toEqual([]);
  });
});

describe('label rows as filters', () => {
  it('selects profiles without the label with the empty value, and never the folded rest', () => {
    const { rowFilter } = jest.requireActual('./pages/Labels');
    expect(rowFilter('route', '(no route)', 3, false)).toEqual({ name: 'route', value: '', exclude: false });
    expect(rowFilter('route', '/a', 3, true)).toEqual({ name: 'route', value: '/a', exclude: true });
    expect(rowFilter('route', 'other', 6, false)).toBeUndefined();
    expect(rowFilter('route', 'other', 2, false)).toEqual({ name: 'route', value: 'other', exclude: false });
  });
});
