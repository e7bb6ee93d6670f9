// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { ProfileTypeInfo, ResourceClient, TimeRangeMs, parseProfileTypeId } from '../resources/client';

/** A labelled series of the fake client's data set. */
export type FakeSeries = Record<string, string>;

/**
 * A ResourceClient test double over a small in-memory set of series: it answers label names and
 * values by really applying `=`, `!=`, `=~` and `!~` matchers, and records every call.
 */
export class FakeResourceClient implements ResourceClient {
  readonly calls: Array<{ method: string; args: unknown[] }> = [];

  constructor(readonly series: FakeSeries[]) {}

  async profileTypes(range?: TimeRangeMs): Promise<ProfileTypeInfo[]> {
    this.calls.push({ method: 'profileTypes', args: [range] });
    const ids = [...new Set(this.series.map((s) => s.__profile_type__).filter(Boolean))].sort();
    return ids.map(parseProfileTypeId);
  }

  async labelNames(matchers: string, range?: TimeRangeMs): Promise<string[]> {
    this.calls.push({ method: 'labelNames', args: [matchers, range] });
    return [...new Set(this.select(matchers).flatMap((s) => Object.keys(s)))].sort();
  }

  async labelValues(label: string, matchers: string, range?: TimeRangeMs): Promise<string[]> {
    this.calls.push({ method: 'labelValues', args: [label, matchers, range] });
    return [
      ...new Set(
        this.select(matchers)
          .map((s) => s[label])
          .filter((v) => v !== undefined)
      ),
    ].sort();
  }

  /** The calls of one method, newest last. */
  callsOf(method: string) {
    return this.calls.filter((c) => c.method === method).map((c) => c.args);
  }

  private select(selector: string): FakeSeries[] {
    const re = /([A-Za-z_][A-Za-z0-9_]*)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"/g;
    const ms = [...selector.matchAll(re)].map((m) => ({ name: m[1], op: m[2], value: m[3].replace(/\\(.)/g, '$1') }));
    return this.series.filter((s) =>
      ms.every((m) => {
        const v = s[m.name] ?? '';
        switch (m.op) {
          case '=':
            return v === m.value;
          case '!=':
            return v !== m.value;
          case '=~':
            return new RegExp(`^(?:${m.value})$`).test(v);
          default:
            return !new RegExp(`^(?:${m.value})$`).test(v);
        }
      })
    );
  }
}

export const CPU = 'process_cpu:cpu:nanoseconds:cpu:nanoseconds';
export const ALLOC = 'memory:alloc_space:bytes:space:bytes';
export const INUSE = 'memory:inuse_space:bytes:space:bytes';
export const GOROUTINES = 'goroutines:goroutine:count:goroutine:count';

/** The ride-share demo's series: CPU by region and vehicle, memory of two services. */
export function rideShareSeries(): FakeSeries[] {
  const out: FakeSeries[] = [];
  for (const region of ['ap-south', 'eu-north', 'us-east']) {
    for (const vehicle of ['bike', 'car', 'scooter']) {
      out.push({ __profile_type__: CPU, service_name: 'ride-share-app', region, vehicle });
    }
  }
  out.push({ __profile_type__: CPU, service_name: 'billing', region: 'eu-north' });
  for (const t of [ALLOC, INUSE]) {
    out.push({ __profile_type__: t, service_name: 'ride-share-app', region: 'eu-north', pod: 'app-1' });
  }
  out.push({ __profile_type__: GOROUTINES, service_name: 'billing', region: 'us-east' });
  return out;
}
