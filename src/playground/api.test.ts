// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { ApiError, fetchLabelValues, fetchProfileTypes, runQuery } from './api';
import type { EmberscopeQuery } from '../datasource/types';

const flameJSON = {
  schema: {
    name: 'flamegraph',
    fields: [
      { name: 'level', type: 'number' },
      { name: 'value', type: 'number', config: { unit: 'ns' } },
      { name: 'self', type: 'number', config: { unit: 'ns' } },
      { name: 'label', type: 'enum', config: { type: { enum: { text: ['total', 'main'] } } } },
    ],
  },
  data: {
    values: [
      [0, 1],
      [10, 10],
      [0, 10],
      [0, 1],
    ],
  },
};
const seriesJSON = {
  schema: {
    name: 'series',
    fields: [
      { name: 'time', type: 'time' },
      { name: 'value', type: 'number', labels: { service_name: 'api' } },
    ],
  },
  data: {
    values: [
      [1000, 2000],
      [5, 6],
    ],
  },
};

function answer(status: number, body: unknown) {
  const mock = jest
    .fn()
    .mockResolvedValue({ ok: status < 400, status, text: () => Promise.resolve(JSON.stringify(body)) });
  (global as unknown as { fetch: unknown }).fetch = mock;
  return mock;
}

const query: EmberscopeQuery = {
  refId: 'A',
  queryType: 'both',
  profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds',
  labelSelector: '{}',
  groupBy: ['route'],
  expr: '',
  live: true,
};
const annotationsJSON = {
  schema: {
    name: 'novelty annotations',
    meta: { dataTopic: 'annotations' },
    fields: [
      { name: 'time', type: 'time' },
      { name: 'timeEnd', type: 'time' },
      { name: 'title', type: 'string' },
    ],
  },
  data: { values: [[1000], [2000], ['Novel profile']] },
};
const topJSON = {
  schema: {
    name: 'top',
    fields: [
      { name: 'symbol', type: 'string' },
      { name: 'self', type: 'number' },
      { name: 'total', type: 'number' },
    ],
  },
  data: { values: [['main'], [3], [10]] },
};

describe('playground API client', () => {
  it("posts the editor's whole query in Grafana's shape and sorts the frames by what draws them", async () => {
    const mock = answer(200, { results: { A: { frames: [flameJSON, seriesJSON, annotationsJSON, topJSON] } } });
    const a = await runQuery(query, 1000, 5000);
    const [url, init] = mock.mock.calls[0];
    expect(url).toBe('/api/ds/query');
    const body = JSON.parse(init.body);
    expect(body).toMatchObject({
      from: '1000',
      to: '5000',
      queries: [
        {
          refId: 'A',
          datasource: { uid: 'emberscope' },
          queryType: 'both',
          labelSelector: '{}',
          groupBy: ['route'],
          live: true,
        },
      ],
    });
    expect(a.flame?.fields.map((f) => f.name)).toEqual(['level', 'value', 'self', 'label']);
    expect(a.series).toHaveLength(1);
    expect(a.annotations.map((f) => f.name)).toEqual(['novelty annotations']);
    expect(a.tables.map((f) => f.name)).toEqual(['top']);
    expect(a.frames).toHaveLength(4);
  });

  it('surfaces the error of the query and of the HTTP answer', async () => {
    answer(200, { results: { A: { error: '1:42: expected ")" after label list' } } });
    await expect(runQuery(query, 0, 1)).rejects.toThrow('1:42: expected ")" after label list');
    answer(502, { message: 'backend down' });
    await expect(runQuery(query, 0, 1)).rejects.toThrow(new ApiError('POST /api/ds/query: HTTP 502: backend down'));
  });

  it('reads profile types and label values', async () => {
    answer(200, [
      { id: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds', name: 'process_cpu', label: 'process_cpu - cpu' },
    ]);
    expect(await fetchProfileTypes()).toEqual([
      { id: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds', name: 'process_cpu - cpu' },
    ]);
    const mock = answer(200, ['a', 'b']);
    expect(await fetchLabelValues('service name')).toEqual(['a', 'b']);
    expect(mock.mock.calls[0][0]).toBe('/api/datasources/uid/emberscope/resources/labelValues?label=service%20name');
  });
});
