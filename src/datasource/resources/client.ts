// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * The small interface through which the query editor gets its data. The datasource implements
 * it with Grafana's `getResource`; the standalone playground implements it with `fetch`
 * (see FetchResourceClient); tests use their own double.
 */

/** A time range in epoch milliseconds. */
export interface TimeRangeMs {
  from: number;
  to: number;
}

/** One profile type, as the backend's `profileTypes` resource lists it. */
export interface ProfileTypeInfo {
  /** `name:sampleType:sampleUnit:periodType:periodUnit` */
  id: string;
  /** `name - sampleType` */
  label?: string;
  name: string;
  sampleType: string;
  sampleUnit: string;
  periodType: string;
  periodUnit: string;
}

/** The editor's data: profile types, label names and label values, scoped by matchers and range. */
export interface ResourceClient {
  profileTypes(range?: TimeRangeMs): Promise<ProfileTypeInfo[]>;
  /** Label names of the series the matchers (a selector, `{}` for all) select. */
  labelNames(matchers: string, range?: TimeRangeMs): Promise<string[]>;
  /** Values of label among the series the matchers select. */
  labelValues(label: string, matchers: string, range?: TimeRangeMs): Promise<string[]>;
}

/** Reads a profile type ID into its parts; IDs with fewer than five parts keep what they have. */
export function parseProfileTypeId(id: string): ProfileTypeInfo {
  const [name = '', sampleType = '', sampleUnit = '', periodType = '', periodUnit = ''] = id.split(':');
  return { id, name, sampleType, sampleUnit, periodType, periodUnit, label: `${name} - ${sampleType}` };
}

/** Reads the profileTypes resource's answer, tolerating `{profileTypes: [...]}` and bare IDs. */
export function toProfileTypes(body: unknown): ProfileTypeInfo[] {
  const list = Array.isArray(body) ? body : ((body as { profileTypes?: unknown[] } | null)?.profileTypes ?? []);
  return list
    .map((t): ProfileTypeInfo | undefined => {
      if (typeof t === 'string') {
        return parseProfileTypeId(t);
      }
      const o = t as Record<string, unknown>;
      const id = typeof o?.id === 'string' ? o.id : '';
      if (!id) {
        return undefined;
      }
      const parts = parseProfileTypeId(id);
      const str = (k: keyof ProfileTypeInfo) => (typeof o[k] === 'string' && o[k] ? (o[k] as string) : parts[k]!);
      return {
        id,
        label: str('label'),
        name: str('name'),
        sampleType: str('sampleType'),
        sampleUnit: str('sampleUnit'),
        periodType: str('periodType'),
        periodUnit: str('periodUnit'),
      };
    })
    .filter((t): t is ProfileTypeInfo => t !== undefined);
}

/** Reads a list of strings, tolerating `{names: [...]}`/`{values: [...]}` objects. */
export function toStrings(body: unknown): string[] {
  if (Array.isArray(body)) {
    return body.map(String);
  }
  const o = body as Record<string, unknown> | null;
  const list = o?.names ?? o?.values ?? o?.data ?? [];
  return Array.isArray(list) ? list.map(String) : [];
}
