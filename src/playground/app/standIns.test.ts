// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { getBackendSrv, getDataSourceSrv } from '@grafana/runtime';
import { installStandIns } from './standIns';
import { loadDatasource, msRange, runQueries } from '../../app/query';

describe("the playground's stand-ins for Grafana's services", () => {
  const calls: Array<{ url: string; init?: RequestInit }> = [];
  beforeAll(() => {
    installStandIns();
    global.fetch = jest.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      calls.push({ url: String(url), init });
      const body =
        String(url).startsWith('/api/ds/query')
          ? { results: { s: { status: 200, frames: [] } } }
          : String(url).includes('/resources/labelNames')
            ? ['service_name', 'route']
            : { message: 'no such thing' };
      const status = String(url).includes('nothing') ? 404 : 200;
      // what the stand-in reads of a fetch Response (jsdom has no Response)
      return {
        ok: status < 300,
        status,
        statusText: '',
        headers: {},
        redirected: false,
        type: 'basic',
        url: String(url),
        text: async () => JSON.stringify(body),
      } as unknown as Response;
    }) as typeof fetch;
  });

  it("run the app's queries through the datasource's own query path, POST /api/ds/query", async () => {
    expect(getDataSourceSrv().getList({ pluginId: 'emberscope-datasource' }).map((d) => d.uid)).toEqual(['emberscope']);
    const ds = await loadDatasource('');
    await runQueries(ds, [{ refId: 's', queryType: 'metrics', profileTypeId: 'cpu:a:b:c:d', labelSelector: '{}' }], msRange(1000, 61_000));
    const q = calls.find((c) => c.url.startsWith('/api/ds/query'))!;
    expect(q.init?.method).toBe('POST');
    const body = JSON.parse(String(q.init?.body));
    expect([body.from, body.to]).toEqual(['1000', '61000']);
    expect(body.queries[0]).toMatchObject({ refId: 's', queryType: 'metrics', datasource: { uid: 'emberscope' } });
  });

  it("call the datasource's resources and raise Grafana's errors", async () => {
    const ds = await loadDatasource('emberscope');
    expect(await ds.labelNames('{service_name="a"}', { from: 0, to: 1 })).toEqual(['service_name', 'route']);
    expect(calls.some((c) => c.url.startsWith('/api/datasources/uid/emberscope/resources/labelNames?'))).toBe(true);
    await expect(getBackendSrv().get('/api/nothing')).rejects.toMatchObject({ status: 404, message: 'no such thing' });
    await expect(loadDatasource('other')).rejects.toThrow('serves only uid "emberscope"');
  });
});
