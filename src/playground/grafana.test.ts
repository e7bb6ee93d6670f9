// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FieldType, locationUtil, toDataFrame } from '@grafana/data';
import { asRun, linkedSeries, pointLinks, readExploreUrl, readVariables } from './grafana';
import { CPU } from '../datasource/testing/fakeClient';
import { EmberscopeQuery } from '../datasource/types';

beforeAll(() => {
  locationUtil.initialize({
    config: { appSubUrl: '' } as never,
    getTimeRangeForUrl: () => ({ from: 'now-1h', to: 'now' }),
    getVariablesUrlParams: () => ({}),
  });
});

const T = Date.parse('2026-12-01T07:20:00Z');

describe('the playground’s Grafana addresses', () => {
  it('reads dashboard variables as Grafana’s dashboard URLs give them', () => {
    expect(readVariables('?var-service=api&var-region=eu&var-region=us&query=x&var-=y')).toEqual({
      service: 'api',
      region: ['eu', 'us'],
    });
  });

  it('opens an Explore pane (schema 1) and an internal link’s left state, relative ranges included', () => {
    const panes = {
      a: {
        datasource: 'emberscope',
        queries: [{ refId: 'A', queryType: 'profile', profileTypeId: CPU }],
        range: { from: String(T - 59_999), to: String(T) },
      },
    };
    const v = readExploreUrl('/explore', `?schemaVersion=1&panes=${encodeURIComponent(JSON.stringify(panes))}`);
    expect(v).toEqual({ query: panes.a.queries[0], from: T - 59_999, to: T });

    const left = { queries: [{ refId: 'B', profileTypeId: CPU }], range: { from: 'now-6h', to: 'now' } };
    const l = readExploreUrl('/explore', `?left=${encodeURIComponent(JSON.stringify(left))}`, T)!;
    expect(l.query.refId).toBe('B');
    expect([l.from, l.to]).toEqual([T - 6 * 3_600_000, T]);

    expect(readExploreUrl('/', '?query=x')).toBeUndefined();
  });

  it('says what is wrong with an Explore address it cannot open', () => {
    expect(() => readExploreUrl('/explore', '?panes=%7B')).toThrow(/does not parse/);
    expect(() => readExploreUrl('/explore', '?schemaVersion=1')).toThrow(/has no query/);
    const bad = { a: { queries: [{ refId: 'A' }], range: { from: 'NaN', to: 'NaN' } } };
    expect(() => readExploreUrl('/explore', `?panes=${encodeURIComponent(JSON.stringify(bad))}`)).toThrow(
      /range end "NaN" is neither/
    );
  });

  it('runs the query with the dashboard’s variables replaced and links its series through @grafana/data', () => {
    const q: EmberscopeQuery = {
      refId: 'A',
      queryType: 'both',
      expr: '$profile_type{service_name="$service"} by (route)',
    };
    const state = { variables: { profile_type: CPU, service: 'fit' }, from: T - 3_600_000, to: T + 3_600_000 };
    const run = asRun(q, state);
    expect(run.expr).toBe(`${CPU}{service_name="fit"} by (route)`);
    const frame = {
      ...toDataFrame({
        fields: [
          { name: 'time', type: FieldType.time, values: [T] },
          { name: CPU, type: FieldType.number, values: [680e6], labels: { route: '/bike' } },
          { name: 'stepStart', type: FieldType.time, values: [T - 59_999] },
          { name: 'stepEnd', type: FieldType.time, values: [T] },
        ],
      }),
      refId: 'A',
    };
    const [linked] = linkedSeries([frame], run, state, { from: String(state.from), to: String(state.to) });
    const [step, add] = pointLinks(linked, 0);
    const pane = JSON.parse(new URL(step.href, 'http://x').searchParams.get('panes')!);
    const p = pane[Object.keys(pane)[0]];
    expect(p.range).toEqual({ from: String(T - 59_999), to: String(T) });
    expect(p.queries[0].expr).toContain(`${CPU}{service_name="fit", route="/bike"}`);
    expect(add.title).toBe('Add route="/bike" to the selector');
    const left = JSON.parse(new URL(add.href, 'http://x').searchParams.get('left')!);
    expect(left.range).toEqual({ from: String(state.from), to: String(state.to) });
  });
});
