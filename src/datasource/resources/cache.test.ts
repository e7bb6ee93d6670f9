// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { CachingResourceClient } from './cache';
import { FakeResourceClient, rideShareSeries } from '../testing/fakeClient';

describe('CachingResourceClient', () => {
  it('answers the same (matchers, range to the minute) from memory, and other ones from the client', async () => {
    const inner = new FakeResourceClient(rideShareSeries());
    const c = new CachingResourceClient(inner);
    const r = { from: 1_700_000_000_000, to: 1_700_003_600_000 };
    await c.labelNames('{region="eu-north"}', r);
    await c.labelNames('{region="eu-north"}', { from: r.from + 10_000, to: r.to + 10_000 });
    await c.labelNames('{region="us-east"}', r);
    await c.labelValues('vehicle', '{}', r);
    await c.labelValues('vehicle', '{}', r);
    await c.labelNames('{region="eu-north"}', { from: r.from + 3_600_000, to: r.to + 3_600_000 });
    expect(inner.calls.map((x) => x.method + ' ' + x.args[0])).toEqual([
      'labelNames {region="eu-north"}',
      'labelNames {region="us-east"}',
      'labelValues vehicle',
      'labelNames {region="eu-north"}',
    ]);
  });

  it('forgets failures so that the next call retries, and keeps at most size answers', async () => {
    let fail = true;
    const inner = {
      profileTypes: jest.fn(async () => {
        if (fail) {
          throw new Error('unreachable');
        }
        return [];
      }),
      labelNames: jest.fn(async (m: string) => [m]),
      labelValues: jest.fn(async () => []),
    };
    const c = new CachingResourceClient(inner, 2);
    await expect(c.profileTypes()).rejects.toThrow('unreachable');
    fail = false;
    await expect(c.profileTypes()).resolves.toEqual([]);
    expect(inner.profileTypes).toHaveBeenCalledTimes(2);
    const small = new CachingResourceClient(inner, 2);
    await small.labelNames('{a="1"}');
    await small.labelNames('{a="2"}');
    await small.labelNames('{a="3"}');
    await small.labelNames('{a="3"}');
    await small.labelNames('{a="1"}'); // the oldest, evicted by the two after it
    expect(inner.labelNames.mock.calls.map((x) => x[0])).toEqual(['{a="1"}', '{a="2"}', '{a="3"}', '{a="1"}']);
  });
});
