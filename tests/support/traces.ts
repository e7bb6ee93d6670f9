// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { execFileSync } from 'child_process';
import { REPO } from './playground';

/** One sample as `go tool pprof -traces` prints it: its value and its stack, root first. */
export interface Trace {
  value: number;
  stack: string[];
}

/**
 * google/pprof's traces of a profile file (`go tool pprof -traces -taghide=.` with args, which
 * must pick a unit printed as a whole number, such as -unit=ns): blocks between `-----------+`
 * lines, a value and the leaf on the first line, one caller a line after. A value is right-aligned
 * in 10 columns; a wider one pushes the frame right. Inline marks are dropped.
 */
export function pprofTraces(file: string, ...args: string[]): Trace[] {
  const out = execFileSync('go', ['tool', 'pprof', '-traces', '-taghide=.', ...args, file], {
    cwd: REPO,
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  });
  const traces: Trace[] = [];
  let cur: { value: number; leafFirst: string[] } | undefined;
  const flush = () => {
    if (cur && cur.value !== 0) {
      traces.push({ value: cur.value, stack: cur.leafFirst.reverse() });
    }
    cur = undefined;
  };
  let started = false;
  for (const line of out.split('\n')) {
    if (line.startsWith('-----------+')) {
      flush();
      started = true;
      continue;
    }
    if (!started || line.trim() === '') {
      continue;
    }
    const indent = line.length - line.trimStart().length;
    let frame = line.trim();
    if (indent < 10) {
      const [v, ...rest] = frame.split(/\s+/);
      const value = Number(v.replace(/[^0-9]+$/, ''));
      if (cur || !Number.isFinite(value)) {
        throw new Error(`pprof -traces: line ${JSON.stringify(line)} is no trace's first line`);
      }
      cur = { value, leafFirst: [] };
      frame = rest.join(' ');
    }
    if (!cur) {
      throw new Error(`pprof -traces: frame line ${JSON.stringify(line)} before a value`);
    }
    cur.leafFirst.push(frame.replace(/ \((partial-)?inline\)$/, ''));
  }
  flush();
  return traces;
}

/** The total of the traces whose root-side frames are path (all of them for the empty path). */
export function callSiteTotal(traces: Trace[], path: string[]): number {
  let total = 0;
  for (const t of traces) {
    if (t.stack.length >= path.length && path.every((name, i) => t.stack[i] === name)) {
      total += t.value;
    }
  }
  return total;
}
