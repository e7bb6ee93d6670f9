// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { createDataFrame, DataFrame, FieldType } from '@grafana/data';
import { FlameData, readFlameData } from '../../shared/flameData';
import { parseTraces, pprofName } from './pprofText';

/** One node of a test flamegraph: [level, name, total, self]. */
export type Row = [number, string, number, number];

/** Builds a nested-set frame like the backend's (label as an enum field, unit on value/self). */
export function nestedSet(
  rows: Row[],
  opts: { unit?: string; plainLabels?: boolean; extra?: DataFrame['fields'] } = {}
): DataFrame {
  const text: string[] = [];
  const idx = rows.map(([, name]) => {
    let k = text.indexOf(name);
    if (k < 0) {
      k = text.length;
      text.push(name);
    }
    return k;
  });
  const unit = opts.unit ?? 'ns';
  return createDataFrame({
    name: 'flamegraph',
    fields: [
      { name: 'level', type: FieldType.number, values: rows.map((r) => r[0]) },
      { name: 'value', type: FieldType.number, values: rows.map((r) => r[2]), config: { unit } },
      { name: 'self', type: FieldType.number, values: rows.map((r) => r[3]), config: { unit } },
      opts.plainLabels
        ? { name: 'label', type: FieldType.string, values: rows.map((r) => r[1]) }
        : { name: 'label', type: FieldType.enum, values: idx, config: { type: { enum: { text } } } },
      ...(opts.extra ?? []),
    ],
  });
}

/**
 * total 100
 * ├─ gc 30 (self 30)
 * └─ main 70 (self 10)
 *    ├─ parse 20 (self 20)
 *    └─ work 40 (self 5)
 *       └─ hash 35 (self 35)
 */
export const SMALL: Row[] = [
  [0, 'total', 100, 0],
  [1, 'runtime.gcBgMarkWorker', 30, 30],
  [1, 'main.main', 70, 10],
  [2, 'encoding/json.parse', 20, 20],
  [2, 'main.work', 40, 5],
  [3, 'crypto/sha256.hash', 35, 35],
];

/** total → main.run → main.work, and total → main.work, where the enum lists main.work twice (indices 1 and 3). */
export function repeatedEnumFrame(): DataFrame {
  return createDataFrame({
    name: 'flamegraph',
    fields: [
      { name: 'level', type: FieldType.number, values: [0, 1, 2, 1] },
      { name: 'value', type: FieldType.number, values: [100, 60, 60, 40], config: { unit: 'ns' } },
      { name: 'self', type: FieldType.number, values: [0, 0, 60, 40], config: { unit: 'ns' } },
      {
        name: 'label',
        type: FieldType.enum,
        values: [0, 2, 1, 3],
        config: { type: { enum: { text: ['total', 'main.work', 'main.run', 'main.work'] } } },
      },
    ],
  });
}

/**
 * The nested-set rows of a set of stacks (root first, as parseTraces gives them) under a `total`
 * root: one node per distinct path, children in the order they were first seen.
 */
export function rowsOfStacks(stacks: Array<{ value: number; stack: string[] }>): Row[] {
  interface T {
    name: string;
    total: number;
    self: number;
    kids: Map<string, T>;
  }
  const root: T = { name: 'total', total: 0, self: 0, kids: new Map() };
  for (const { value, stack } of stacks) {
    let at = root;
    at.total += value;
    for (const name of stack) {
      let k = at.kids.get(name);
      if (!k) {
        k = { name, total: 0, self: 0, kids: new Map() };
        at.kids.set(name, k);
      }
      k.total += value;
      at = k;
    }
    at.self += value;
  }
  const rows: Row[] = [];
  const walk = (t: T, level: number) => {
    rows.push([level, t.name, t.total, t.self]);
    t.kids.forEach((k) => walk(k, level + 1));
  };
  walk(root, 0);
  return rows;
}

/**
 * The nested-set rows of a diff of two sets of stacks (root first): one node per path of either,
 * `value`/`self` the baseline's (rows) and `valueRight`/`selfRight` the comparison's, as the
 * backend's diff frames carry them.
 */
export function diffRowsOfStacks(
  baseline: Array<{ value: number; stack: string[] }>,
  comparison: Array<{ value: number; stack: string[] }>
): { rows: Row[]; valueRight: number[]; selfRight: number[] } {
  interface T {
    name: string;
    v: [number, number];
    s: [number, number];
    kids: Map<string, T>;
  }
  const root: T = { name: 'total', v: [0, 0], s: [0, 0], kids: new Map() };
  const add = (side: 0 | 1) => (t: { value: number; stack: string[] }) => {
    let at = root;
    at.v[side] += t.value;
    for (const name of t.stack) {
      let k = at.kids.get(name);
      if (!k) {
        k = { name, v: [0, 0], s: [0, 0], kids: new Map() };
        at.kids.set(name, k);
      }
      k.v[side] += t.value;
      at = k;
    }
    at.s[side] += t.value;
  };
  baseline.forEach(add(0));
  comparison.forEach(add(1));
  const rows: Row[] = [];
  const valueRight: number[] = [];
  const selfRight: number[] = [];
  const walk = (t: T, level: number) => {
    rows.push([level, t.name, t.v[0], t.s[0]]);
    valueRight.push(t.v[1]);
    selfRight.push(t.s[1]);
    t.kids.forEach((k) => walk(k, level + 1));
  };
  walk(root, 0);
  return { rows, valueRight, selfRight };
}

/**
 * The flamegraph of a `go tool pprof -traces -unit=ns` report, with pprof's own names (generic
 * shapes kept, as pprof's graph keeps `f[go.shape.int]` and `f[go.shape.string]` apart).
 */
export function flameOfTraces(report: string): FlameData {
  return readFlameData(nestedSet(rowsOfStacks(parseTraces(report, pprofName))));
}
