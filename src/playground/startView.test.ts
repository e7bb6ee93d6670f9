// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { startViewOf } from './startView';

describe('the view an address opens', () => {
  it("runs an Explore address's query over its range at once", () => {
    const panes = {
      a: { queries: [{ refId: 'B', expr: 'cpu{service_name="shop"}' }], range: { from: '1000', to: '5000' } },
    };
    const v = startViewOf('/explore', `?schemaVersion=1&panes=${encodeURIComponent(JSON.stringify(panes))}`);
    expect(v).toEqual({
      query: { refId: 'A', queryType: 'both', labelSelector: '{}', groupBy: [], expr: 'cpu{service_name="shop"}' },
      from: 1000,
      to: 5000,
      runAtOnce: true,
    });
  });

  it("says what is wrong with an Explore address and opens the playground's own address instead", () => {
    const v = startViewOf('/explore', '?panes=%7B&query=cpu%7B%7D&from=1000&to=5000');
    expect(v.error).toMatch(/does not parse/);
    expect([v.query.expr, v.from, v.to, v.runAtOnce]).toEqual(['cpu{}', 1000, 5000, true]);
  });

  it('runs nothing for an address without a query', () => {
    expect(startViewOf('/', '?from=1000&to=5000').runAtOnce).toBe(false);
    expect(startViewOf('/', '?json=%7B%22profileTypeId%22%3A%22cpu%22%7D&from=1000&to=5000').runAtOnce).toBe(true);
  });
});
