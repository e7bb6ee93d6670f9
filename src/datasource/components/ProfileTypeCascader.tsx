// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useId, useMemo } from 'react';
import { Cascader, CascaderOption, InlineField } from '@grafana/ui';
import { ProfileTypeInfo, parseProfileTypeId } from '../resources/client';

export interface ProfileTypeCascaderProps {
  types: ProfileTypeInfo[];
  value?: string;
  onChange: (id: string) => void;
  /** An error loading the types, shown under the picker. */
  error?: string;
  loading?: boolean;
}

/**
 * The profile types grouped by profile name: `process_cpu` › `cpu`, `memory` › `alloc_space`, …
 * A group with one type still opens, so that the same place always holds the same kind.
 */
export function groupProfileTypes(types: ProfileTypeInfo[]): CascaderOption[] {
  const groups = new Map<string, CascaderOption>();
  for (const t of types) {
    const name = t.name || t.id;
    let g = groups.get(name);
    if (!g) {
      g = { label: name, value: `group:${name}`, items: [] };
      groups.set(name, g);
    }
    g.items!.push({ label: t.sampleType || t.id, value: t.id, title: t.id });
  }
  return [...groups.values()]
    .sort((a, b) => a.label.localeCompare(b.label))
    .map((g) => ({ ...g, items: [...g.items!].sort((a, b) => a.label.localeCompare(b.label)) }));
}

/** The profile type picker: a Cascader fed by the datasource's profileTypes. */
export function ProfileTypeCascader({ types, value, onChange, error, loading }: ProfileTypeCascaderProps) {
  const id = useId();
  const options = useMemo(() => {
    // a profile type the server does not list (any more) stays visible and chosen
    const known = value && !types.some((t) => t.id === value) ? [...types, parseProfileTypeId(value)] : types;
    return groupProfileTypes(known);
  }, [types, value]);
  return (
    <InlineField
      label="Profile type"
      htmlFor={id}
      labelWidth={14}
      invalid={Boolean(error)}
      error={error}
      loading={loading}
      tooltip="The kind of profile: CPU, memory allocations, goroutines, …"
    >
      <Cascader
        // the Cascader reads its value on mount only
        key={`${value}|${options.length}`}
        id={id}
        width={34}
        separator=" / "
        displayAllSelectedLevels
        changeOnSelect={false}
        placeholder={loading ? 'Loading profile types…' : 'Choose a profile type'}
        options={options}
        initialValue={value}
        onSelect={(v) => {
          if (v && !v.startsWith('group:')) {
            onChange(v);
          }
        }}
      />
    </InlineField>
  );
}
