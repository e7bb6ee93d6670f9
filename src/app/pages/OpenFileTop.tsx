// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useMemo } from 'react';
import { css } from '@emotion/css';
import { DataFrame, Field, GrafanaTheme2 } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';
import { formatValue } from '../query';

/** One function's self value: of the files, or for a comparison its baseline, comparison and change. */
export interface FunctionSelf {
  name: string;
  self: number;
  right?: number;
}

function labelsOf(f: Field): string[] {
  const text = f.config?.type?.enum?.text;
  return f.values.map((v) => (text && typeof v === 'number' ? String(text[v]) : String(v)));
}

/** Every function's self value in a flame frame (its rows summed by name), the largest first. */
export function selfByFunction(frame: DataFrame): FunctionSelf[] {
  const field = (n: string) => frame.fields.find((x) => x.name === n);
  const label = field('label');
  const self = field('self');
  const selfRight = field('selfRight');
  if (!label || !self) {
    return [];
  }
  const names = labelsOf(label);
  const out = new Map<string, FunctionSelf>();
  // row 0 is the root ("total")
  for (let i = 1; i < names.length; i++) {
    const cur = out.get(names[i]) ?? { name: names[i], self: 0, right: selfRight ? 0 : undefined };
    cur.self += Number(self.values[i]);
    if (selfRight) {
      cur.right! += Number(selfRight.values[i]);
    }
    out.set(names[i], cur);
  }
  const weight = (f: FunctionSelf) => Math.abs(f.right === undefined ? f.self : f.right - f.self);
  return Array.from(out.values()).sort((a, b) => weight(b) - weight(a) || a.name.localeCompare(b.name));
}

/** The functions with the largest self values (for a comparison: the largest changes). */
export function OpenFileTop({ frame, unit, rows = 10 }: { frame: DataFrame; unit: string; rows?: number }) {
  const styles = useStyles2(getStyles);
  const top = useMemo(() => selfByFunction(frame).slice(0, rows), [frame, rows]);
  const diff = top.some((f) => f.right !== undefined);
  return (
    <table className={styles.table} data-testid="openfile-top">
      <thead>
        <tr>
          <th>Function</th>
          <th>{diff ? 'Self change' : 'Self'}</th>
        </tr>
      </thead>
      <tbody>
        {top.map((f) => {
          const v = f.right === undefined ? f.self : f.right - f.self;
          return (
            <tr key={f.name} data-testid="openfile-top-row" data-name={f.name} data-value={v}>
              <td>{f.name}</td>
              <td>{(diff && v > 0 ? '+' : '') + formatValue(v, unit)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  table: css({ fontSize: 12, alignSelf: 'flex-start', 'td, th': { padding: theme.spacing(0.25, 1), textAlign: 'left' } }),
});
