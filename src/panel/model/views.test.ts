// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * The sandwich, collapse and call-tree models on a real profile, checked against google/pprof's
 * reports of the same profile: the backend's frame of labeled.cpu.redated.pb.gz
 * (pkg/datasource/plugin/testdata/grafana/profile_labeled.golden.json) against `go tool pprof -peek` and
 * `-traces` of that file (internal/fixtures/pyroscope/pushed-profiles/labeled.peek.txt and
 * labeled.traces.txt; the commands are in that folder's README).
 */
import fs from 'fs';
import path from 'path';
import { DataFrameJSON, dataFrameFromJSON } from '@grafana/data';
import { FlameData, readFlameData } from '../../shared/flameData';
import { buildIndex, FlameIndex, indexReady, warmIndex } from './flameIndex';
import { topTable, TopTableBuild } from './topTable';
import { Deadline, inIdleSteps, runChunks } from './idle';
import {
  buildSandwich,
  hasSandwich,
  MERGE_CHUNK,
  MERGE_NOW_ROWS,
  prepareSites,
  Sandwich,
  sandwichMerge,
  sandwichNow,
  sandwichOf,
  sandwichSteps,
} from './sandwich';
import { collapseChains, shownMatch } from './collapse';
import { childrenOf, treeRows } from './callTree';
import { nameText, nameTextSteps, searchNodes } from './search';
import { parsePeek, parseTraces, traceTree } from '../testing/pprofText';

const REPO = path.join(__dirname, '../../..');
const PUSHED = path.join(REPO, 'internal/fixtures/pyroscope/pushed-profiles');

function golden(): FlameData {
  const file = path.join(REPO, 'pkg/datasource/plugin/testdata/grafana/profile_labeled.golden.json');
  const frames: DataFrameJSON[] = JSON.parse(fs.readFileSync(file, 'utf8'));
  return readFlameData(dataFrameFromJSON(frames[0]));
}

const data = golden();
const index = buildIndex(data);
const peek = parsePeek(fs.readFileSync(path.join(PUSHED, 'labeled.peek.txt'), 'utf8'));
const tree = traceTree(parseTraces(fs.readFileSync(path.join(PUSHED, 'labeled.traces.txt'), 'utf8')));

/** The level-1 children of a FlameData's root: name → total. */
function firstLevel(d: FlameData): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 1; i < d.count; i++) {
    if (d.level[i] === 1) {
      const name = d.names[d.nameIdx[i]];
      out.set(name, (out.get(name) ?? 0) + d.value[i]);
    }
  }
  return out;
}

/** Every node of an index as its path of names from below the root → total and self. */
function paths(ix: FlameIndex, frames?: (i: number) => string[]): Map<string, { total: number; self: number }> {
  const d = ix.data;
  const out = new Map<string, { total: number; self: number }>();
  const stack: string[] = [];
  for (let i = 1; i < d.count; i++) {
    stack.length = d.level[i] - 1;
    stack.push(...(frames ? frames(i) : [d.names[d.nameIdx[i]]]));
    out.set(stack.join(';'), { total: d.value[i], self: d.self[i] });
    if (frames) {
      // a collapsed bar stands for several levels: later rows sit below the whole chain
      const joined = stack.join(';');
      stack.length = d.level[i] - 1;
      stack.push(joined);
    }
  }
  return out;
}

describe('the profile and its pprof reports', () => {
  it('are the same profile (the root is pprof total, every path of -traces is a node)', () => {
    expect(peek.size).toBe(4);
    expect(data.value[0]).toBe(3_770_000_000);
    expect(paths(index)).toEqual(tree);
  });
});

describe('sandwich', () => {
  it.each([...peek.keys()])('of %s has pprof -peek flat, cum, callers and callees', (name) => {
    const p = peek.get(name)!;
    const k = data.names.indexOf(name);
    expect(k).toBeGreaterThanOrEqual(0);
    const s = buildSandwich(index, k);
    expect(s.self).toBe(p.flat);
    expect(s.total).toBe(p.cum);
    expect(s.callers.value[0]).toBe(p.cum);
    expect(s.callees.value[0]).toBe(p.cum);
    expect(firstLevel(s.callers)).toEqual(p.callers);
    expect(firstLevel(s.callees)).toEqual(p.callees);
  });

  it('counts recursion once: decodeState.object is called by value, which object calls', () => {
    const name = 'encoding/json.(*decodeState).object';
    const s = buildSandwich(index, data.names.indexOf(name));
    // the function is its own callee's callee, and sits on more nodes than the outermost calls
    expect(s.sites).toBeGreaterThan(1);
    expect(peek.get(name)!.callees.get('encoding/json.(*decodeState).value')).toBe(150_000_000);
    const ci = buildIndex(s.callees);
    const deeper = Array.from({ length: s.callees.count }, (_, i) => i).filter(
      (i) => i > 0 && s.callees.nameIdx[i] === s.nameIdx
    );
    expect(deeper.length).toBeGreaterThan(0);
    expect(ci.data.value[0]).toBe(peek.get(name)!.cum);
  });

  it.each([...peek.keys()])('of %s cut at 2 levels keeps the levels it shows and their totals', (name) => {
    const k = data.names.indexOf(name);
    const cut = buildSandwich(index, k, 2);
    expect(cut.depthLimit).toBe(2);
    expect([cut.self, cut.total]).toEqual([peek.get(name)!.flat, peek.get(name)!.cum]);
    expect(firstLevel(cut.callers)).toEqual(peek.get(name)!.callers);
    expect(firstLevel(cut.callees)).toEqual(peek.get(name)!.callees);
    const whole = buildSandwich(index, k);
    expect(cut.sites).toBe(whole.sites);
    // the levels kept are the whole merge's first levels, in the same order
    for (const half of ['callers', 'callees'] as const) {
      const rows = (d: FlameData) =>
        Array.from({ length: d.count }, (_, i) => i)
          .filter((i) => d.level[i] <= 2)
          .map((i) => `${d.level[i]} ${d.names[d.nameIdx[i]]} ${d.value[i]}`);
      expect(cut[half].maxLevel).toBeLessThanOrEqual(2);
      expect(rows(cut[half])).toEqual(rows(whole[half]));
    }
  });

  it('merged ahead in idle steps, is the very sandwich opened later, with pprof -peek totals', () => {
    const name = 'encoding/json.(*decodeState).object';
    const k = data.names.indexOf(name);
    const fresh = buildIndex(data);
    const idle: Array<(d: Deadline) => void> = [];
    const made: unknown[] = [];
    inIdleSteps(
      [() => prepareSites(fresh), () => made.push(sandwichOf(fresh, k, 2)), () => made.push(sandwichOf(fresh, k))],
      (cb) => {
        idle.push(cb);
        return () => undefined;
      }
    );
    // one step per idle period: nothing is merged before the second period
    expect(idle.length).toBe(1);
    idle.shift()!(PLENTY);
    expect(hasSandwich(fresh, k, 2)).toBe(false);
    while (idle.length > 0) {
      idle.shift()!(PLENTY);
    }
    expect(made.length).toBe(2);
    expect(sandwichOf(fresh, k, 2)).toBe(made[0]);
    const s = sandwichOf(fresh, k);
    expect(s).toBe(made[1]);
    expect([s.self, s.total]).toEqual([peek.get(name)!.flat, peek.get(name)!.cum]);
    expect(firstLevel(s.callees)).toEqual(peek.get(name)!.callees);
  });

  it('prefetch steps cancelled (the view left) merge nothing more', () => {
    const k = data.names.indexOf('runtime.mallocgc');
    const fresh = buildIndex(data);
    const idle: Array<(d: Deadline) => void> = [];
    const cancel = inIdleSteps([() => prepareSites(fresh), () => void sandwichOf(fresh, k)], (cb) => {
      idle.push(cb);
      return () => idle.splice(idle.indexOf(cb), 1);
    });
    idle.shift()!(PLENTY);
    cancel();
    expect(idle.length).toBe(0);
    expect(hasSandwich(fresh, k)).toBe(false);
  });

  it('callers of the function tell apart the paths that differ deeper up', () => {
    const s = buildSandwich(index, data.names.indexOf('runtime.mallocgc'));
    // every caller path ends at a frame of the outermost level, and the levels add up
    const ci = buildIndex(s.callers);
    let leaves = 0;
    for (let i = 0; i < s.callers.count; i++) {
      leaves += s.callers.self[i];
      const kids = childrenOf(ci, i).reduce((a, c) => a + s.callers.value[c], 0);
      expect(kids + s.callers.self[i]).toBe(s.callers.value[i]);
    }
    expect(leaves).toBe(peek.get('runtime.mallocgc')!.cum);
  });
});

/** An idle period with time to spare, and one with none left (the fake deadlines of the tests). */
const PLENTY: Deadline = { timeRemaining: () => 50 };
const NONE: Deadline = { timeRemaining: () => 0 };

/**
 * A graph big enough to need many chunks: a random tree of n nodes over a few dozen names (so
 * functions recur at many depths and inside themselves), totals the sums of the selfs below.
 */
function bigGraph(n: number, seed = 7): FlameData {
  let x = seed;
  const rand = () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x / 2 ** 32;
  };
  const names = ['total', ...Array.from({ length: 40 }, (_, i) => `pkg${i % 5}.fn${i}`)];
  const level = new Int32Array(n);
  const nameIdx = new Int32Array(n);
  const self = new Float64Array(n);
  const value = new Float64Array(n);
  for (let i = 1; i < n; i++) {
    // a child of the previous row, a sibling, or a step back up
    const l = level[i - 1] + (rand() < 0.55 ? 1 : -Math.floor(rand() * 3));
    level[i] = Math.max(1, Math.min(60, l));
    nameIdx[i] = 1 + Math.floor(rand() * 40);
    self[i] = Math.floor(rand() * 4);
  }
  // totals: self plus the children's totals, summed bottom-up
  const stack: number[] = [];
  const close = (to: number) => {
    while (stack.length > to) {
      const c = stack.pop()!;
      value[c] += self[c];
      if (stack.length > 0) {
        value[stack[stack.length - 1]] += value[c];
      }
    }
  };
  for (let i = 0; i < n; i++) {
    close(level[i]);
    stack.push(i);
  }
  close(0);
  return { count: n, level, value, self, nameIdx, names, maxLevel: 60 };
}

/**
 * Where two sandwiches differ (undefined when they are the same): every field and every value of
 * both halves, compared in a loop (Jest's deep equality is slow on arrays this long).
 */
function sandwichDiff(a: Sandwich | undefined, b: Sandwich): string | undefined {
  if (!a) {
    return 'no sandwich';
  }
  for (const f of ['nameIdx', 'self', 'total', 'sites', 'depthLimit'] as const) {
    if (a[f] !== b[f]) {
      return `${f}: ${a[f]} ≠ ${b[f]}`;
    }
  }
  for (const half of ['callers', 'callees'] as const) {
    const x = a[half];
    const y = b[half];
    if (x.count !== y.count || x.maxLevel !== y.maxLevel || x.names !== y.names) {
      return `${half}: ${x.count} rows ≠ ${y.count}`;
    }
    for (const col of ['level', 'value', 'self', 'nameIdx'] as const) {
      for (let i = 0; i < x.count; i++) {
        if (x[col][i] !== y[col][i]) {
          return `${half}.${col}[${i}]: ${x[col][i]} ≠ ${y[col][i]}`;
        }
      }
    }
  }
  return undefined;
}

describe('resumable sandwich merge', () => {
  const big = bigGraph(30_000);
  const bigIndex = buildIndex(big);
  const k = 3;

  it('merged over many idle periods is the one-shot merge, whole and cut', () => {
    for (const limit of [undefined, 4]) {
      const fresh = buildIndex(big);
      const m = sandwichMerge(fresh, k, limit);
      let periods = 0;
      while (!m.step(NONE)) {
        periods++;
      }
      // the call sites are listed and the merge done across many periods, not in one
      expect(periods).toBeGreaterThan(10);
      expect(sandwichDiff(m.result, buildSandwich(bigIndex, k, limit))).toBeUndefined();
      // and it is the very sandwich a click then opens
      expect(sandwichOf(fresh, k, limit)).toBe(m.result);
    }
  });

  it('is the one-shot merge on the real profile: pprof -peek totals', () => {
    for (const name of peek.keys()) {
      const kk = data.names.indexOf(name);
      const m = sandwichMerge(buildIndex(data), kk);
      while (!m.step(NONE)) {
        // one chunk per period
      }
      expect(sandwichDiff(m.result, buildSandwich(index, kk))).toBeUndefined();
      expect(m.result!.total).toBe(peek.get(name)!.cum);
    }
  });

  it('yields at the deadline: with no time left one chunk per period, with time left until it runs out', () => {
    const fresh = buildIndex(big);
    const m = sandwichMerge(fresh, k);
    expect(m.step(NONE)).toBe(false);
    expect(m.chunks).toBe(1);
    // the idle period has time for three more checks, then none
    let left = 3;
    const fake: Deadline = { timeRemaining: () => (left-- > 0 ? 1 : 0) };
    expect(m.step(fake)).toBe(false);
    expect(m.chunks).toBe(1 + 4);
    expect(hasSandwich(fresh, k)).toBe(false);
    // the rest, at once: what a click does when the prefetch has not finished
    expect(sandwichDiff(sandwichOf(fresh, k), buildSandwich(bigIndex, k))).toBeUndefined();
    expect(m.done).toBe(true);
  });

  it("a click on a large frame's sandwich merges nothing at once: it is merged in idle slices, then drawn", () => {
    const large = bigGraph(MERGE_NOW_ROWS + 10_000, 5);
    const fresh = buildIndex(large);
    expect(sandwichNow(fresh, k)).toBeUndefined();
    const m = sandwichMerge(fresh, k);
    expect(m.chunks).toBe(0);
    let periods = 0;
    while (!m.step(NONE)) {
      periods++;
    }
    expect(periods).toBeGreaterThan(10);
    expect(sandwichNow(fresh, k)).toBe(m.result);
    expect(sandwichDiff(m.result, buildSandwich(buildIndex(large), k))).toBeUndefined();
    // a small frame's is merged at once
    expect(sandwichNow(buildIndex(big), k)).toBeDefined();
  });

  it('a chunk is bounded work: merging takes about rows / MERGE_CHUNK chunks', () => {
    const m = sandwichMerge(buildIndex(big), k);
    while (!m.step(NONE)) {
      // one chunk per period
    }
    // the call sites listed (two passes over the rows) and the merge: never fewer chunks than
    // the listing's passes need, so no chunk does more than MERGE_CHUNK rows of a pass
    expect(m.chunks).toBeGreaterThanOrEqual(Math.floor((2 * big.count) / MERGE_CHUNK));
  });

  it('writes a large half out in chunks too: no chunk makes a whole half of tens of thousands of nodes', () => {
    // every level-1 frame is main.main, so its callees are the whole graph merged
    const names = [...big.names, 'main.main'];
    const main = names.length - 1;
    const nameIdx = Int32Array.from(big.nameIdx, (v, i) => (big.level[i] === 1 ? main : v));
    const wide = buildIndex({ ...big, names, nameIdx });
    const m = sandwichMerge(wide, main);
    while (!m.step(NONE)) {
      // one chunk per period
    }
    const s = m.result!;
    expect(s.callees.count).toBeGreaterThan(4 * MERGE_CHUNK);
    // the listing's two passes, the walk of every row below the sites, and the callees half
    // written out (a half written in one go was one 93 ms task at 500k nodes)
    expect(m.chunks).toBeGreaterThanOrEqual(Math.floor((3 * big.count + s.callees.count) / MERGE_CHUNK));
    expect(sandwichDiff(s, buildSandwich(wide, main))).toBeUndefined();
  });

  it('cancelled, merges nothing: no sandwich kept, further steps do nothing, a new merge starts over', () => {
    const fresh = buildIndex(big);
    const m = sandwichMerge(fresh, k);
    m.step(NONE);
    m.step(NONE);
    m.cancel();
    expect(m.step(PLENTY)).toBe(false);
    expect(m.chunks).toBe(2);
    expect(hasSandwich(fresh, k)).toBe(false);
    const again = sandwichMerge(fresh, k);
    expect(again).not.toBe(m);
    expect(sandwichDiff(sandwichOf(fresh, k), buildSandwich(bigIndex, k))).toBeUndefined();
  });

  it('idle steps cancelled (the view left) stop the merge where it paused; a later click finishes it exactly', () => {
    const fresh = buildIndex(big);
    const idle: Array<(d: Deadline) => void> = [];
    const prepared: Sandwich[] = [];
    const cancel = inIdleSteps(
      sandwichSteps(fresh, k, 4, (s) => void prepared.push(s)),
      (cb) => {
        idle.push(cb);
        return () => idle.splice(idle.indexOf(cb), 1);
      }
    );
    // a few periods of the cut merge, then the steps are cancelled
    for (let p = 0; p < 3; p++) {
      idle.shift()!(NONE);
    }
    const paused = sandwichMerge(fresh, k, 4);
    const chunks = paused.chunks;
    expect(chunks).toBe(3);
    cancel();
    expect(idle.length).toBe(0);
    expect(paused.chunks).toBe(chunks);
    expect(prepared.length).toBe(0);
    expect(hasSandwich(fresh, k, 4)).toBe(false);
    expect(sandwichDiff(sandwichOf(fresh, k, 4), buildSandwich(bigIndex, k, 4))).toBeUndefined();
  });

  it("a merge's own follow-up steps run in idle periods of their own, a resumable one over several", () => {
    const fresh = buildIndex(big);
    const idle: Array<(d: Deadline) => void> = [];
    const log: string[] = [];
    let left = 3;
    inIdleSteps(
      sandwichSteps(fresh, k, undefined, (s) => [
        () => void log.push(`index ${s.callees.count > 0}`),
        () => {
          log.push(`colours ${left}`);
          return --left === 0;
        },
        () => void log.push('shown'),
      ]),
      (cb) => {
        idle.push(cb);
        return () => undefined;
      }
    );
    let periods = 0;
    while (!hasSandwich(fresh, k)) {
      idle.shift()!(NONE);
      periods++;
    }
    expect(periods).toBeGreaterThan(1);
    const after: string[][] = [];
    while (idle.length > 0) {
      idle.shift()!(NONE);
      after.push([...log]);
    }
    // with no time left in a period, one step (or one part of a resumable one) per period
    expect(after).toEqual([
      ['index true'],
      ['index true', 'colours 3'],
      ['index true', 'colours 3', 'colours 2'],
      ['index true', 'colours 3', 'colours 2', 'colours 1'],
      ['index true', 'colours 3', 'colours 2', 'colours 1', 'shown'],
    ]);
  });

  it('idle steps run to the end: the cut, its view, the whole, its view, each the one-shot merge', () => {
    const fresh = buildIndex(big);
    const idle: Array<(d: Deadline) => void> = [];
    const prepared: Sandwich[] = [];
    inIdleSteps(
      sandwichSteps(fresh, k, 4, (s) => void prepared.push(s)),
      (cb) => {
        idle.push(cb);
        return () => undefined;
      }
    );
    while (idle.length > 0) {
      idle.shift()!(NONE);
    }
    expect(prepared.length).toBe(2);
    expect(sandwichDiff(prepared[0], buildSandwich(bigIndex, k, 4))).toBeUndefined();
    expect(sandwichDiff(prepared[1], buildSandwich(bigIndex, k))).toBeUndefined();
    expect(prepared[1]).toBe(sandwichOf(fresh, k));
  });
});

describe('collapse', () => {
  const c = collapseChains(index);
  const ci = buildIndex(c.data);
  // the chains of pprof's call tree: a path whose only child path carries its total
  const childCount = new Map<string, number>();
  for (const p of tree.keys()) {
    const at = p.lastIndexOf(';');
    if (at > 0) {
      childCount.set(p.slice(0, at), (childCount.get(p.slice(0, at)) ?? 0) + 1);
    }
  }
  const mergedInPprof = [...tree.entries()].filter(([p, v]) => {
    const at = p.lastIndexOf(';');
    if (at < 0) {
      return false;
    }
    const parent = p.slice(0, at);
    return childCount.get(parent) === 1 && tree.get(parent)!.total === v.total;
  }).length;

  it('merges exactly the frames that are the only child of a parent with the same total', () => {
    expect(mergedInPprof).toBeGreaterThan(10);
    expect(data.count - c.data.count).toBe(mergedInPprof);
    let held = 0;
    for (let s = 0; s < c.data.count; s++) {
      held += c.frames[s];
    }
    expect(held).toBe(data.count);
  });

  it('keeps every total and pprof call-tree path (a bar holds its chain: consecutive frames, each its parent)', () => {
    const pathOf = (i: number) => {
      const out: string[] = [];
      for (let p = i; p > 0; p = index.parent[p]) {
        out.push(data.names[data.nameIdx[p]]);
      }
      return out.reverse().join(';');
    };
    for (let s = 1; s < c.data.count; s++) {
      const last = c.head[s] + c.frames[s] - 1;
      // the bar's total and self are those of its chain's last frame in pprof's tree
      expect(tree.get(pathOf(last))).toEqual({ total: c.data.value[s], self: c.data.self[s] });
      for (let k = 1; k < c.frames[s]; k++) {
        expect(index.parent[c.head[s] + k]).toBe(c.head[s] + k - 1);
      }
      // a bar hangs below the bar holding its head's parent
      expect(c.head[ci.parent[s]] + c.frames[ci.parent[s]] - 1).toBe(index.parent[c.head[s]]);
    }
    expect(c.data.value[0]).toBe(data.value[0]);
  });

  it('marks for a search every bar holding a match; the counts come from the whole graph', () => {
    const m = new Uint8Array(data.names.length);
    m[data.names.indexOf('runtime.mallocgc')] = 1;
    const whole = searchNodes(index, m);
    expect(whole.total).toBe(peek.get('runtime.mallocgc')!.cum);
    const shown = shownMatch(c, whole.nodeMatch);
    for (let i = 0; i < data.count; i++) {
      if (whole.nodeMatch[i]) {
        expect(shown[c.shownOf[i]]).toBe(1);
      }
    }
  });

  it('expands one chain and leaves the others collapsed', () => {
    const s = Array.from(c.frames).findIndex((f) => f > 1);
    const e = collapseChains(index, new Set([c.head[s]]));
    expect(e.data.count).toBe(c.data.count + c.frames[s] - 1);
  });
});

describe('call tree rows', () => {
  it('are the root then, when opened, its children by total, as pprof -traces sums them', () => {
    const rows = treeRows(index, new Set([0]), 'total', true);
    const tops = [...tree.entries()].filter(([p]) => !p.includes(';')).sort((a, b) => b[1].total - a[1].total);
    expect(rows.length).toBe(1 + tops.length);
    expect(Array.from(rows.slice(1)).map((i) => [data.names[data.nameIdx[i]], data.value[i], data.self[i]])).toEqual(
      tops.map(([p, v]) => [p, v.total, v.self])
    );
  });

  it('open every node on a path and sort siblings by self', () => {
    const open = new Set<number>();
    for (let i = 0; i < data.count; i++) {
      open.add(i);
    }
    const all = treeRows(index, open, 'self', true);
    expect(all.length).toBe(data.count);
    // depth-first: each row's parent comes before it, and siblings by descending self
    for (let k = 1; k < all.length; k++) {
      const i = all[k];
      expect(all.indexOf(index.parent[i])).toBeLessThan(k);
    }
    const kids = Array.from(all).filter((i) => index.parent[i] === 0);
    for (let k = 1; k < kids.length; k++) {
      expect(data.self[kids[k - 1]]).toBeGreaterThanOrEqual(data.self[kids[k]]);
    }
  });
});

describe('made in idle slices after the first paint', () => {
  const big = bigGraph(100_000, 11);

  it('the top table summed over many periods is the one-shot table', () => {
    const build = new TopTableBuild(buildIndex(big));
    let periods = 0;
    while (!runChunks(() => build.chunk(), NONE)) {
      periods++;
    }
    expect(periods).toBeGreaterThan(5);
    expect(build.rows).toEqual(topTable(buildIndex(big)));
  });

  it('the index made later, over many periods, is the index made at once', () => {
    const later = buildIndex(big, { later: true });
    expect(indexReady(later)).toBe(false);
    const warm = warmIndex(later);
    let periods = 0;
    while (!warm(NONE)) {
      periods++;
    }
    expect(periods).toBeGreaterThan(5);
    expect(indexReady(later)).toBe(true);
    const now = buildIndex(big);
    for (const col of ['parent', 'end', 'start', 'deepest', 'levelStart', 'levelNodes'] as const) {
      expect(Array.from(later[col])).toEqual(Array.from(now[col]));
    }
    // and read before it is warmed (or half way), what is left is made at once
    expect(Array.from(buildIndex(big, { later: true }).start)).toEqual(Array.from(now.start));
    const half = buildIndex(big, { later: true });
    warmIndex(half)(NONE);
    expect(indexReady(half)).toBe(false);
    expect(Array.from(half.end)).toEqual(Array.from(now.end));
    expect(Array.from(half.levelNodes)).toEqual(Array.from(now.levelNodes));
  });

  it('the names text made in steps finds what one made at once finds', () => {
    const names = Array.from({ length: 20_000 }, (_, i) => `Pkg${i % 7}.Func${i}`);
    const data: FlameData = { ...big, names };
    const steps = nameTextSteps(data);
    let periods = 0;
    while (!steps(NONE)) {
      periods++;
    }
    expect(periods).toBeGreaterThan(1);
    const t = nameText(data);
    expect(t.text.split('\n')).toEqual(names.map((n) => n.toLowerCase()));
    expect(t.starts[names.length]).toBe(t.text.length + 1);
  });
});
