// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * Readers of google/pprof's text reports (`go tool pprof -peek`, `-traces`, with `-unit=ns`), the
 * oracles of the panel's model tests. Names are turned into Pyroscope's form (Go generic shapes
 * removed, pprof's "(inline)" marks dropped), as the backend's frames carry them.
 */

/** pprof's function name as Pyroscope shows it: `slices.Sort[go.shape.int]` → `slices.Sort`, no inline mark. */
export function pyroscopeName(raw: string): string {
  const name = raw.replace(/ \((partial-)?inline\)$/, '').trim();
  let out = '';
  let i = 0;
  while (i < name.length) {
    if (name.startsWith('[go.shape.', i)) {
      let depth = 0;
      for (; i < name.length; i++) {
        depth += name[i] === '[' ? 1 : name[i] === ']' ? -1 : 0;
        if (depth === 0) {
          break;
        }
      }
      i++;
      continue;
    }
    out += name[i++];
  }
  return out;
}

function ns(text: string): number {
  const m = /^(\d+)(ns)?$/.exec(text);
  if (!m) {
    throw new Error(`not a value in ns: ${JSON.stringify(text)}`);
  }
  return Number(m[1]);
}

/** One function of a `-peek` report: its flat and cum, and its caller and callee edges (name → value, summed). */
export interface Peek {
  flat: number;
  cum: number;
  callers: Map<string, number>;
  callees: Map<string, number>;
}

/** Reads a `go tool pprof -peek -unit=ns` report into its functions. */
export function parsePeek(text: string): Map<string, Peek> {
  const out = new Map<string, Peek>();
  const blocks = text.split(/^-+\+-+\s*$/m);
  for (const b of blocks) {
    const lines = b.split('\n').filter((l) => l.includes('|') && !l.includes('calls%'));
    const at = lines.findIndex((l) => /\|\s[^ ]/.test(l) && !/\|\s{3}/.test(l));
    if (at < 0) {
      continue;
    }
    const head = lines[at];
    const [nums, name] = head.split('|');
    const cols = nums.trim().split(/\s+/);
    const p: Peek = { flat: ns(cols[0]), cum: ns(cols[3]), callers: new Map(), callees: new Map() };
    lines.forEach((l, k) => {
      if (k === at) {
        return;
      }
      const [v, fn] = l.split('|');
      const target = k < at ? p.callers : p.callees;
      const key = pyroscopeName(fn);
      target.set(key, (target.get(key) ?? 0) + ns(v.trim().split(/\s+/)[0]));
    });
    out.set(pyroscopeName(name), p);
  }
  return out;
}

/** One sample stack of a `-traces` report, root first. */
export interface Trace {
  value: number;
  stack: string[];
}

/** Reads a `go tool pprof -traces -unit=ns` report. */
export function parseTraces(text: string): Trace[] {
  const out: Trace[] = [];
  for (const b of text.split(/^-+\+-+\s*$/m).slice(1)) {
    let value = -1;
    const frames: string[] = [];
    for (const line of b.split('\n')) {
      if (!line.trim() || /^\s*[^\s]+:\s\s/.test(line)) {
        continue;
      }
      const m = /^\s*(\d+ns)\s+(.*)$/.exec(line);
      if (m && value < 0) {
        value = ns(m[1]);
        frames.push(pyroscopeName(m[2]));
      } else {
        frames.push(pyroscopeName(line));
      }
    }
    if (value >= 0) {
      out.push({ value, stack: frames.reverse() });
    }
  }
  return out;
}

/** The call tree of traces: path (names joined by `;`) → total and self. */
export function traceTree(traces: Trace[]): Map<string, { total: number; self: number }> {
  const out = new Map<string, { total: number; self: number }>();
  for (const t of traces) {
    let path = '';
    t.stack.forEach((fn, k) => {
      path = path ? `${path};${fn}` : fn;
      const e = out.get(path) ?? { total: 0, self: 0 };
      e.total += t.value;
      if (k === t.stack.length - 1) {
        e.self += t.value;
      }
      out.set(path, e);
    });
  }
  return out;
}
