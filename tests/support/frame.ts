// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/** A flamegraph frame as the tests read it straight from `POST /api/ds/query`. */
export interface Flame {
  level: number[];
  value: number[];
  self: number[];
  names: string[];
}

/** Asks the playground for query's flamegraph over [from, to] exactly as the page does. */
export async function fetchFlame(baseUrl: string, expr: string, from: number, to: number): Promise<Flame> {
  const res = await fetch(`${baseUrl}/api/ds/query`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      from: String(from),
      to: String(to),
      queries: [
        {
          refId: 'A',
          datasource: { uid: 'emberscope' },
          queryType: 'profile',
          profileTypeId: '',
          labelSelector: '{}',
          groupBy: [],
          maxNodes: 16384,
          expr,
        },
      ],
    }),
  });
  const body = await res.json();
  const frame = body.results.A.frames.find((f: { schema: { fields: Array<{ name: string }> } }) =>
    f.schema.fields.some((x) => x.name === 'level')
  );
  if (!frame) {
    throw new Error(`no flamegraph frame in ${JSON.stringify(body).slice(0, 300)}`);
  }
  const col = (n: string) => frame.data.values[frame.schema.fields.findIndex((x: { name: string }) => x.name === n)];
  const labelField = frame.schema.fields.find((x: { name: string }) => x.name === 'label');
  const text: string[] | undefined = labelField.config?.type?.enum?.text;
  const labels = col('label') as Array<number | string>;
  return {
    level: col('level'),
    value: col('value'),
    self: col('self'),
    names: labels.map((l) => (text ? text[l as number] : String(l))),
  };
}

/** Row of the widest node called name (what the page's probe reports), or -1. */
export function widest(f: Flame, name: string): number {
  let best = -1;
  f.names.forEach((n, i) => {
    if (n === name && (best < 0 || f.value[i] > f.value[best])) {
      best = i;
    }
  });
  return best;
}

/** The panel's percentage format. */
export function pct(share: number): string {
  const p = share * 100;
  return p >= 99.95 ? '100%' : `${p.toFixed(p < 10 ? 2 : 1)}%`;
}

/** Count and share of nodes whose name matches re, a match inside a match counted once (as the panel does). */
export function searchStats(f: Flame, re: RegExp): { count: number; share: number } {
  let count = 0;
  let total = 0;
  let insideUntilLevel = -1; // while >= 0, we are inside a counted match at that level
  for (let i = 0; i < f.level.length; i++) {
    if (insideUntilLevel >= 0 && f.level[i] <= insideUntilLevel) {
      insideUntilLevel = -1;
    }
    if (re.test(f.names[i])) {
      count++;
      if (insideUntilLevel < 0) {
        total += f.value[i];
        insideUntilLevel = f.level[i];
      }
    }
  }
  return { count, share: total / f.value[0] };
}
