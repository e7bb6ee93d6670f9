// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * Readers of google/pprof's text reports (`go tool pprof -peek`, `-traces`, with `-unit=ns`), the
 * oracles of the panel's model tests. Names are turned into Pyroscope's form (Go generic shapes
 * removed, pprof's "(inline)" marks dropped), as the backend's frames carry them.
 */

/** pprof's function name without its report's inline mark: `f (inline)` → `f`, generic shapes kept. */
export function pprofName(raw: string): string {
  return raw.replace(/ \((partial-)?inline\)$/, '').trim();
}

/** pprof's function name as Pyroscope shows it: `slices.Sort[go.shape.int]` → `slices.Sort`, no inline mark. */
export function pyroscopeName(raw: string): string {
  const name = pprofName(raw);
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

/**
 * Reads a `go tool pprof -traces -unit=ns` report; names are turned into Pyroscope's form unless
 * `named` says otherwise (`(n) => n` keeps pprof's own, generic shapes and all).
 */
export function parseTraces(text: string, named: (raw: string) => string = pyroscopeName): Trace[] {
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
        frames.push(named(m[2]));
      } else {
        frames.push(named(line.trim()));
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

/** One function box of a `go tool pprof -dot -unit=ns` graph. */
export interface DotNode {
  name: string;
  flat: number;
  cum: number;
}

/** One arrow of a `-dot` graph, by function names; residual is pprof's dotted arrow. */
export interface DotEdge {
  from: string;
  to: string;
  weight: number;
  residual: boolean;
}

/**
 * Reads a `go tool pprof -dot -unit=ns` graph: its boxes and arrows in pprof's order, and its
 * legend's lines; names as parseTraces names them.
 */
export function parseDot(
  text: string,
  named: (raw: string) => string = pyroscopeName
): { nodes: DotNode[]; edges: DotEdge[]; legend: string[] } {
  const nodes: DotNode[] = [];
  const edges: DotEdge[] = [];
  let legend: string[] = [];
  const byId = new Map<string, string>();
  for (const line of text.split('\n')) {
    const leg = /^subgraph cluster_L \{ .* label="(.*?)\\l"/.exec(line);
    if (leg) {
      legend = leg[1].split('\\l');
      continue;
    }
    const node = /^(N\d+) \[label="(.*?)" id="node\d+" .*tooltip="(.*) \((-?\d+)ns\)" color=/.exec(line);
    if (node) {
      const [, id, label, rawName, cum] = node;
      const name = named(rawName);
      // the label ends with "<flat>ns (x%)", "<flat>ns (x%)\nof <cum>ns (y%)", or "0 of <cum>ns (y%)"
      const flat = /\\n(-?\d+)(?:ns \([^)]*\))?(?:\\n| )?(?:of -?\d+ns \([^)]*\))?$/.exec(label);
      if (!flat) {
        throw new Error(`no flat value in the label of ${id}: ${label}`);
      }
      nodes.push({ name, flat: Number(flat[1]), cum: Number(cum) });
      byId.set(id, name);
      continue;
    }
    const edge = /^(N\d+) -> (N\d+) \[label=" (-?\d+)ns.*?tooltip=".*? (->|\.\.\.) .*?"(.*)$/.exec(line);
    if (edge) {
      const [, from, to, weight, arrow, rest] = edge;
      if (!byId.has(from) || !byId.has(to)) {
        throw new Error(`an arrow between unknown boxes: ${line}`);
      }
      edges.push({
        from: byId.get(from)!,
        to: byId.get(to)!,
        weight: Number(weight),
        residual: arrow === '...' && rest.includes('style="dotted"'),
      });
    }
  }
  return { nodes, edges, legend };
}

/** A `go tool pprof -top -unit=ns` report: every row's flat and cum by pprof's name, and its header's totals. */
export interface TopReport {
  rows: Map<string, { flat: number; cum: number }>;
  /** What the rows account for ("Showing nodes accounting for …"). */
  shown: number;
  /** What pprof's percentages are of ("… of N total"). */
  percentOf: number;
}

/** Reads a `go tool pprof -top -nodecount=0 -unit=ns` report, names as pprofName gives them. */
export function parseTop(text: string): TopReport {
  const head = /^Showing nodes accounting for (\S+), \S+ of (\S+) total$/m.exec(text);
  if (!head) {
    throw new Error('no "Showing nodes accounting for" line in the pprof -top report');
  }
  const value = (s: string) => (s === '0' ? 0 : ns(s));
  const rows = new Map<string, { flat: number; cum: number }>();
  const table = text.slice(text.indexOf('flat  flat%'));
  for (const line of table.split('\n').slice(1)) {
    const m = /^\s*(\S+)\s+\S+\s+\S+\s+(\S+)\s+\S+\s+(.*)$/.exec(line);
    if (m) {
      rows.set(pprofName(m[3]), { flat: value(m[1]), cum: value(m[2]) });
    }
  }
  return { rows, shown: value(head[1]), percentOf: value(head[2]) };
}
