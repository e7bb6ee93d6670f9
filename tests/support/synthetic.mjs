// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Deterministic synthetic flamegraphs in Grafana's nested-set frame JSON, for the fixture server
// and the browser benchmarks. Names look like Go functions so package colouring is exercised.

/** Small seeded PRNG (mulberry32). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PKGS = [
  'runtime',
  'net/http',
  'encoding/json',
  'github.com/acme/api/handlers',
  'github.com/acme/api/store',
  'sync',
  'compress/gzip',
  'crypto/tls',
  'github.com/acme/api/cache',
  'database/sql',
  'bufio',
  'regexp',
];
const FUNCS = [
  'Serve',
  'Handle',
  'decode',
  'encode',
  'mallocgc',
  'Lock',
  'Write',
  'Read',
  'scan',
  'compile',
  'hash',
  'lookup',
  'flush',
  'gcBgMarkWorker',
  'parse',
  'Query',
  'Exec',
  'next',
  'grow',
  'copy',
];

/**
 * Makes a tree of about `nodes` nodes. `deep` makes a spine `deep` levels deep with short
 * side branches (for the 5,000-level case). Returns nested-set columns in depth-first order
 * with children sorted by name, and the name table.
 */
export function syntheticTree({ nodes, seed = 1, deep = 0, maxDepth = 60 }) {
  const r = rng(seed);
  const parent = [-1];
  const depth = [0];
  const name = ['total'];
  const children = [[]];
  const pool = [];
  for (const p of PKGS) {
    for (const f of FUNCS) {
      pool.push(`${p}.${f}`);
    }
  }
  // extra distinct names so large trees have many symbols
  const nameFor = (i) =>
    r() < 0.7
      ? pool[Math.floor(r() * pool.length)]
      : `${PKGS[i % PKGS.length]}.fn${Math.floor(r() * Math.max(50, nodes / 20))}`;
  const add = (p) => {
    const id = parent.length;
    parent.push(p);
    depth.push(depth[p] + 1);
    name.push(nameFor(id));
    children.push([]);
    children[p].push(id);
    return id;
  };
  let last = 0;
  for (let d = 0; d < deep && parent.length < nodes; d++) {
    last = add(last);
  }
  while (parent.length < nodes) {
    // grow mostly from recent nodes (makes depth), sometimes from anywhere (makes breadth)
    const n = parent.length;
    let p = r() < 0.6 ? n - 1 - Math.floor(r() * Math.min(n, 8)) : Math.floor(r() * n);
    if (depth[p] >= maxDepth + deep) {
      p = parent[p];
    }
    add(p);
  }
  const self = new Float64Array(parent.length);
  for (let i = 1; i < parent.length; i++) {
    self[i] = children[i].length === 0 ? 1e6 * (1 + Math.floor(r() * 50)) : r() < 0.3 ? 1e6 * Math.floor(r() * 10) : 0;
  }
  const total = Float64Array.from(self);
  for (let i = parent.length - 1; i > 0; i--) {
    total[parent[i]] += total[i];
  }
  // depth-first order, children sorted by name
  const level = [];
  const value = [];
  const selfOut = [];
  const labels = [];
  const stack = [[0, 0]];
  while (stack.length) {
    const [id, l] = stack.pop();
    level.push(l);
    value.push(total[id]);
    selfOut.push(self[id]);
    labels.push(name[id]);
    const kids = children[id].slice().sort((a, b) => (name[a] < name[b] ? 1 : name[a] > name[b] ? -1 : b - a));
    for (const k of kids) {
      stack.push([k, l + 1]);
    }
  }
  return { level, value, self: selfOut, labels };
}

/** Builds Grafana data frame JSON (nested set, label as enum) from columns. */
export function flameFrameJSON({ level, value, self, labels }, unit = 'ns') {
  const text = [];
  const at = new Map();
  const idx = labels.map((s) => {
    let k = at.get(s);
    if (k === undefined) {
      k = text.length;
      text.push(s);
      at.set(s, k);
    }
    return k;
  });
  return {
    schema: {
      name: 'flamegraph',
      meta: { preferredVisualisationType: 'flamegraph', preferredVisualisationPluginId: 'emberscope-flamegraph-panel' },
      fields: [
        { name: 'level', type: 'number', typeInfo: { frame: 'int64' } },
        { name: 'value', type: 'number', typeInfo: { frame: 'int64' }, config: { unit } },
        { name: 'self', type: 'number', typeInfo: { frame: 'int64' }, config: { unit } },
        { name: 'label', type: 'enum', typeInfo: { frame: 'enum' }, config: { type: { enum: { text } } } },
      ],
    },
    data: { values: [level, value, self, idx] },
  };
}

/** A series frame JSON (time + value) with one point per `stepMs` over [from, to]. */
export function seriesFrameJSON(from, to, stepMs, labels, seed = 3) {
  const r = rng(seed);
  const times = [];
  const values = [];
  for (let t = Math.ceil(from / stepMs) * stepMs; t <= to; t += stepMs) {
    times.push(t);
    values.push(Math.round(5e8 + r() * 5e8));
  }
  return {
    schema: {
      name: 'series',
      fields: [
        { name: 'time', type: 'time', typeInfo: { frame: 'time.Time' } },
        { name: 'value', type: 'number', typeInfo: { frame: 'float64' }, labels, config: { unit: 'ns' } },
      ],
    },
    data: { values: [times, values] },
  };
}
