// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { render, screen } from '@testing-library/react';
import { dateTime, FieldType, toDataFrame, DataQueryRequest } from '@grafana/data';
import { DataQuery } from '@grafana/schema';
import { DataSourceSrv, setDataSourceSrv } from '@grafana/runtime';
import { of } from 'rxjs';
import { OverTimeModal } from './OverTimeModal';
import { overTimeSource, queryText, readOverTime } from './overTimeQuery';

// the frame the backend's callSiteSeries answers (query_callsite_series.go): time, value, share
const T0 = Date.UTC(2026, 11, 7, 10, 0, 0);
const seriesFrame = toDataFrame({
  name: 'main.main > main.work',
  fields: [
    { name: 'time', type: FieldType.time, values: [T0, T0 + 60_000, T0 + 120_000] },
    { name: 'value', type: FieldType.number, values: [0, 4e9, 1e9], config: { unit: 'ns' } },
    { name: 'share', type: FieldType.number, values: [0, 0.4, 0.25], config: { unit: 'percentunit' } },
  ],
});

type Target = DataQuery & Record<string, unknown>;

function requestOf(targets: Target[]): DataQueryRequest<DataQuery> {
  const from = dateTime(T0);
  const to = dateTime(T0 + 180_000);
  return {
    app: 'dashboard',
    requestId: 'r',
    interval: '60s',
    intervalMs: 60_000,
    range: { from, to, raw: { from, to } },
    scopedVars: {},
    targets,
    timezone: 'utc',
    startTime: 0,
  };
}

const flameTarget: Target = {
  refId: 'A',
  datasource: { uid: 'ember' },
  queryType: 'profile',
  profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds',
  labelSelector: '{service_name="api"}',
  maxNodes: 16384,
  groupBy: [],
};

describe('Show over time', () => {
  const asked: Array<DataQueryRequest<Target>> = [];
  beforeEach(() => {
    asked.length = 0;
    setDataSourceSrv({
      get: async () => ({
        query: (r: DataQueryRequest<Target>) => {
          asked.push(r);
          return of({ data: [seriesFrame] });
        },
      }),
    } as unknown as DataSourceSrv);
  });

  it('reads the value per step, its share and its unit from the callSiteSeries frame', () => {
    expect(readOverTime(seriesFrame)).toEqual({
      times: [T0, T0 + 60_000, T0 + 120_000],
      values: [0, 4e9, 1e9],
      shares: [0, 0.4, 0.25],
      unit: 'ns',
    });
  });

  it('says which fields a frame that is no call path series lacks', () => {
    const wrong = toDataFrame({ fields: [{ name: 'level', type: FieldType.number, values: [0] }] });
    expect(() => readOverTime(wrong)).toThrow('needs time, value and share fields; the answer has level');
  });

  it("asks the panel's target as a callSiteSeries query of the path, over the panel's range", async () => {
    const source = overTimeSource(requestOf([flameTarget]), 'A')!;
    const series = await source.fetch(['main.main', 'main.work']);
    expect(series.values).toEqual([0, 4e9, 1e9]);
    expect(asked).toHaveLength(1);
    expect(asked[0].range.from.valueOf()).toBe(T0);
    expect(asked[0].targets).toEqual([
      {
        refId: 'A',
        datasource: { uid: 'ember' },
        queryType: 'callSiteSeries',
        profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds',
        labelSelector: '{service_name="api"}',
        callSite: ['main.main', 'main.work'],
      },
    ]);
    // the query a dashboard panel takes: no refId (the dashboard gives one), the path in callSite
    expect(JSON.parse(queryText(source.queryOf(['main.main'])))).toEqual({
      datasource: { uid: 'ember' },
      queryType: 'callSiteSeries',
      profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds',
      labelSelector: '{service_name="api"}',
      callSite: ['main.main'],
    });
  });

  it('is not offered for a diff, a metrics query or a request without the frame’s target', () => {
    expect(overTimeSource(requestOf([{ ...flameTarget, queryType: 'diff' }]), 'A')).toBeUndefined();
    expect(overTimeSource(requestOf([{ ...flameTarget, queryType: 'metrics' }]), 'A')).toBeUndefined();
    expect(overTimeSource(requestOf([flameTarget, { ...flameTarget, refId: 'B' }]), 'C')).toBeUndefined();
    expect(overTimeSource(undefined, 'A')).toBeUndefined();
  });

  it('draws a dot per step with its value, and shows the query to copy', async () => {
    const source = overTimeSource(requestOf([flameTarget]), 'A')!;
    render(<OverTimeModal source={source} path={['main.main', 'main.work']} onClose={() => undefined} />);
    const values = await screen.findByTestId('over-time-value');
    const dots = [...values.querySelectorAll('circle')].map((c) => Number(c.getAttribute('data-value')));
    expect(dots).toEqual([0, 4e9, 1e9]);
    const shares = screen.getByTestId('over-time-share');
    expect([...shares.querySelectorAll('circle')].map((c) => Number(c.getAttribute('data-value')))).toEqual([
      0, 0.4, 0.25,
    ]);
    expect(values.querySelectorAll('title')[1].textContent).toContain('4 s');
    expect(screen.getByTestId('over-time-query').textContent).toContain('"queryType": "callSiteSeries"');
  });

  it('says why when the series cannot be made', async () => {
    setDataSourceSrv({
      get: async () => ({ query: () => of({ data: [], errors: [{ message: 'callSiteSeries: 5000 steps of 1s' }] }) }),
    } as unknown as DataSourceSrv);
    const source = overTimeSource(requestOf([flameTarget]), 'A')!;
    render(<OverTimeModal source={source} path={['main.main']} onClose={() => undefined} />);
    expect(await screen.findByText('callSiteSeries: 5000 steps of 1s')).toBeInTheDocument();
  });
});
