// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import type { SelectableValue } from '@grafana/data';
import type { ProfileTypeInfo } from '../datasource/resources/client';

/** The group a profile type's name falls in, as Grafana's Pyroscope datasource names them. */
export function groupOf(name: string): string {
  const n = name.toLowerCase();
  if (n.includes('cpu') || n === 'wall' || n === 'itimer') {
    return 'cpu';
  }
  if (n.includes('memory') || n.includes('alloc') || n.includes('heap') || n.includes('inuse')) {
    return 'memory';
  }
  if (n.includes('goroutine')) {
    return 'goroutines';
  }
  // before mutex: "block" holds "lock"
  if (n.includes('block')) {
    return 'block';
  }
  if (n.includes('mutex') || n.includes('lock')) {
    return 'mutex';
  }
  return name;
}

const ORDER = ['cpu', 'memory', 'goroutines', 'mutex', 'block'];

/** Profile types as grouped select options: cpu, memory, goroutines, mutex, block, then the rest by name. */
export function groupedOptions(types: ProfileTypeInfo[]): Array<SelectableValue<string>> {
  const groups = new Map<string, ProfileTypeInfo[]>();
  for (const t of types) {
    const g = groupOf(t.name);
    groups.set(g, [...(groups.get(g) ?? []), t]);
  }
  const rank = (g: string) => (ORDER.includes(g) ? ORDER.indexOf(g) : ORDER.length);
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([g, list]) => ({
      label: g,
      options: list
        .sort((a, b) => a.id.localeCompare(b.id))
        .map((t) => ({ value: t.id, label: `${g} · ${t.sampleType} (${t.sampleUnit})`, description: t.id })),
    }));
}

/** The default profile type: the first CPU type, else the first one. */
export function defaultType(types: ProfileTypeInfo[]): string {
  return (types.find((t) => groupOf(t.name) === 'cpu') ?? types[0])?.id ?? '';
}

/** The unit Grafana formats a profile type's values in. */
export function unitOf(profileTypeId: string): string {
  const sampleUnit = profileTypeId.split(':')[2] ?? '';
  switch (sampleUnit) {
    case 'nanoseconds':
      return 'ns';
    case 'microseconds':
      return 'µs';
    case 'milliseconds':
      return 'ms';
    case 'seconds':
      return 's';
    case 'bytes':
      return 'bytes';
    default:
      return 'short';
  }
}
