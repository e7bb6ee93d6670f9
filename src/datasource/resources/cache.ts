// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { ProfileTypeInfo, ResourceClient, TimeRangeMs } from './client';

/** Ranges are rounded to this many milliseconds in cache keys, so "last 1h" reuses answers. */
const RANGE_GRAIN_MS = 60_000;

/**
 * A ResourceClient that remembers answers by (call, label, matchers, range rounded to a minute).
 * Failed calls are forgotten so that they are retried. At most `size` answers are kept; the
 * oldest go first.
 */
export class CachingResourceClient implements ResourceClient {
  private readonly cache = new Map<string, Promise<unknown>>();

  constructor(
    private readonly inner: ResourceClient,
    private readonly size = 200
  ) {}

  profileTypes(range?: TimeRangeMs): Promise<ProfileTypeInfo[]> {
    return this.remember(['profileTypes', rangeKey(range)], () => this.inner.profileTypes(range));
  }

  labelNames(matchers: string, range?: TimeRangeMs): Promise<string[]> {
    return this.remember(['labelNames', matchers, rangeKey(range)], () => this.inner.labelNames(matchers, range));
  }

  labelValues(label: string, matchers: string, range?: TimeRangeMs): Promise<string[]> {
    return this.remember(['labelValues', label, matchers, rangeKey(range)], () =>
      this.inner.labelValues(label, matchers, range)
    );
  }

  /** Forgets every answer. */
  clear() {
    this.cache.clear();
  }

  private remember<T>(key: unknown[], call: () => Promise<T>): Promise<T> {
    const k = JSON.stringify(key);
    const hit = this.cache.get(k);
    if (hit) {
      // refresh its place as the newest
      this.cache.delete(k);
      this.cache.set(k, hit);
      return hit as Promise<T>;
    }
    const p = call();
    this.cache.set(k, p);
    p.catch(() => this.cache.get(k) === p && this.cache.delete(k));
    while (this.cache.size > this.size) {
      this.cache.delete(this.cache.keys().next().value!);
    }
    return p;
  }
}

function rangeKey(r?: TimeRangeMs): string {
  if (!r) {
    return '';
  }
  return `${Math.floor(r.from / RANGE_GRAIN_MS)}-${Math.ceil(r.to / RANGE_GRAIN_MS)}`;
}
