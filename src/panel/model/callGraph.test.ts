// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * The call graph against google/pprof's own graph of the same real profiles: the frame is made
 * from `go tool pprof -traces` of the profile (every stack with its value), the expected graph is
 * `go tool pprof -dot` of it (internal/fixtures/profiles/*.cpu.traces.txt and *.cpu.graph.dot,
 * made with `-taghide=. -unit=ns`; internal/pproforacle checks they are what pprof prints).
 */
import fs from 'fs';
import path from 'path';
import { readFlameData } from '../../shared/flameData';
import { FieldType } from '@grafana/data';
import { diffRowsOfStacks, flameOfTraces, nestedSet, SMALL } from '../testing/frames';
import { parseDot, parseTraces, pprofName } from '../testing/pprofText';
import { callGraph, CallGraphBuild, PPROF_GRAPH_DEFAULTS, sideValues } from './callGraph';
import { runChunks } from './idle';

const PROFILES = path.join(__dirname, '../../../internal/fixtures/profiles');

// pprof's names as they are (less -traces' inline mark): its graph keeps `f[go.shape.int]` and
// `f[go.shape.string]` apart, where Pyroscope's names (and so the panel's, on its frames) have
// them as one function
const fromTraces = (name: string) =>
  flameOfTraces(fs.readFileSync(path.join(PROFILES, `${name}.cpu.traces.txt`), 'utf8'));

describe.each(['browser', 'virtual'])('the call graph of %s.cpu.pb.gz', (name) => {
  const data = fromTraces(name);
  const dot = parseDot(fs.readFileSync(path.join(PROFILES, `${name}.cpu.graph.dot`), 'utf8'), pprofName);
  const g = callGraph(data);

  it('keeps the functions pprof keeps, in its order, with its flat and cum', () => {
    expect(dot.nodes.length).toBe(80);
    expect(g.nodes.map((n) => ({ name: n.name, flat: n.flat, cum: n.cum }))).toEqual(dot.nodes);
  });

  it('has pprof arrows, weights and dotted arrows', () => {
    const ours = g.edges.map((e) => ({
      from: g.nodes[e.from].name,
      to: g.nodes[e.to].name,
      weight: e.weight,
      residual: e.residual,
    }));
    expect(ours).toEqual(dot.edges);
    expect(dot.edges.some((e) => e.residual)).toBe(true);
  });

  it('is the same graph made a few rows at a time as made at once', () => {
    let steps = 0;
    let left = 0;
    // a deadline with no time left after every chunk of rows
    const build = new CallGraphBuild(data, PPROF_GRAPH_DEFAULTS);
    while (!runChunks(() => build.chunk(), { timeRemaining: () => left-- })) {
      left = 0;
      steps++;
    }
    expect(steps).toBeGreaterThan(0);
    expect(build.graph).toEqual(g);
  });

  it("says what pprof's legend says was shown and dropped", () => {
    const shown = dot.legend.find((l) => l.startsWith('Showing nodes accounting for'))!;
    expect(shown).toContain(`for ${g.shown}ns,`);
    expect(shown).toContain(`of ${g.total}ns total`);
    const top = dot.legend.find((l) => l.startsWith('Showing top'));
    expect(top).toBe(`Showing top ${g.nodeCount} nodes out of ${g.beforeTop}`);
    const dropped = dot.legend.find((l) => l.startsWith('Dropped') && l.includes('nodes'));
    expect(dropped).toBe(g.droppedNodes > 0 ? `Dropped ${g.droppedNodes} nodes (cum <= ${g.nodeCutoff}ns)` : undefined);
    const droppedEdges = dot.legend.find((l) => l.startsWith('Dropped') && l.includes('edges'));
    expect(droppedEdges).toBe(
      g.droppedEdges > 0 ? `Dropped ${g.droppedEdges} edges (freq <= ${g.edgeCutoff}ns)` : undefined
    );
  });
});

describe("the call graph of a diff: pprof's -diff_base graph of routes-2.cpu.pb.gz over routes-1.cpu.pb.gz", () => {
  const read = (name: string) =>
    parseTraces(fs.readFileSync(path.join(PROFILES, `${name}.cpu.traces.txt`), 'utf8'), pprofName);
  const { rows, valueRight, selfRight } = diffRowsOfStacks(read('routes-1'), read('routes-2'));
  const data = readFlameData(
    nestedSet(rows, {
      extra: [
        { name: 'valueRight', type: FieldType.number, values: valueRight, config: { unit: 'ns' } },
        { name: 'selfRight', type: FieldType.number, values: selfRight, config: { unit: 'ns' } },
      ],
    })
  );
  const dot = parseDot(fs.readFileSync(path.join(PROFILES, 'routes.diff.graph.dot'), 'utf8'), pprofName);
  const g = callGraph(data, PPROF_GRAPH_DEFAULTS, sideValues(data, 'difference'));

  it('keeps the functions pprof keeps, in its order, with their differences of flat and cum', () => {
    expect(dot.nodes.length).toBe(80);
    expect(dot.nodes.some((n) => n.cum < 0) && dot.nodes.some((n) => n.cum > 0)).toBe(true);
    expect(g.nodes.map((n) => ({ name: n.name, flat: n.flat, cum: n.cum }))).toEqual(dot.nodes);
  });

  it('has its arrows, their differences and its dotted arrows', () => {
    // pprof writes arrows of equal and opposite weights (+40 ms, −40 ms) in no fixed order (its
    // sort sees them as equal, and they come from a map): compared as sets
    const byEnds = (x: { from: string; to: string }, y: { from: string; to: string }) =>
      x.from.localeCompare(y.from) || x.to.localeCompare(y.to);
    const ours = g.edges.map((e) => ({
      from: g.nodes[e.from].name,
      to: g.nodes[e.to].name,
      weight: e.weight,
      residual: e.residual,
    }));
    expect(ours.sort(byEnds)).toEqual([...dot.edges].sort(byEnds));
    expect(dot.edges.some((e) => e.weight < 0) && dot.edges.some((e) => e.residual)).toBe(true);
  });

  it("says what its legend says, shares of the baseline's total", () => {
    expect(dot.legend).toContain(`Showing nodes accounting for ${g.shown}ns, 27.17% of ${g.total}ns total`);
    expect(dot.legend).toContain(`Dropped ${g.droppedNodes} nodes (cum <= ${g.nodeCutoff}ns)`);
    expect(dot.legend).toContain(`Dropped ${g.droppedEdges} edges (freq <= ${g.edgeCutoff}ns)`);
    expect(dot.legend).toContain(`Showing top 80 nodes out of ${g.beforeTop}`);
  });
});

describe('the call graph of a small tree', () => {
  const data = readFlameData(nestedSet(SMALL));

  it('has every function and call when nothing is trimmed', () => {
    const g = callGraph(data, { nodeFraction: 0, edgeFraction: 0, nodeCount: 0 });
    const by = new Map(g.nodes.map((n) => [n.name, n]));
    expect(by.get('main.main')).toMatchObject({ flat: 10, cum: 70 });
    expect(by.get('crypto/sha256.hash')).toMatchObject({ flat: 35, cum: 35 });
    expect(g.edges.map((e) => [g.nodes[e.from].name, g.nodes[e.to].name, e.weight])).toEqual([
      ['main.main', 'main.work', 40],
      ['main.work', 'crypto/sha256.hash', 35],
      ['main.main', 'encoding/json.parse', 20],
    ]);
    expect(g.total).toBe(100);
    expect(g.shown).toBe(100);
  });

  it('joins a kept caller to a kept callee over a dropped frame with a dotted arrow', () => {
    // keep 4 of 5: main.work (cum 40) is the pass-through pprof's entropy order puts last
    const g = callGraph(data, { nodeFraction: 0, edgeFraction: 0, nodeCount: 4 });
    expect(g.nodes.map((n) => n.name)).not.toContain('main.work');
    const e = g.edges.find((x) => g.nodes[x.to].name === 'crypto/sha256.hash')!;
    expect(g.nodes[e.from].name).toBe('main.main');
    expect(e).toMatchObject({ weight: 35, residual: true });
    // main.main's own 10 and main.work's self 5 (its leaf frame is gone: no flat anywhere)
    expect(g.nodes.find((n) => n.name === 'main.main')!.flat).toBe(10);
    expect(g.shown).toBe(95);
  });

  it('counts a recursive function once per sample', () => {
    const rec = readFlameData(
      nestedSet([
        [0, 'total', 10, 0],
        [1, 'a', 10, 0],
        [2, 'b', 10, 0],
        [3, 'a', 10, 0],
        [4, 'b', 10, 10],
      ])
    );
    const g = callGraph(rec, { nodeFraction: 0, edgeFraction: 0, nodeCount: 0 });
    expect(g.nodes.map((n) => [n.name, n.flat, n.cum])).toEqual(
      expect.arrayContaining([
        ['a', 0, 10],
        ['b', 10, 10],
      ])
    );
    expect(g.edges.map((e) => [g.nodes[e.from].name, g.nodes[e.to].name, e.weight])).toEqual([
      ['a', 'b', 10],
      ['b', 'a', 10],
    ]);
  });

  it("makes a diff's graph of one side", () => {
    const diff = readFlameData(
      nestedSet(SMALL, {
        extra: [
          { name: 'valueRight', type: 'number' as never, values: [60, 10, 50, 5, 35, 30], config: {} },
          { name: 'selfRight', type: 'number' as never, values: [0, 10, 10, 5, 5, 30], config: {} },
        ],
      })
    );
    const right = callGraph(diff, PPROF_GRAPH_DEFAULTS, sideValues(diff, 'comparison'));
    expect(right.total).toBe(60);
    expect(right.nodes.find((n) => n.name === 'main.main')).toMatchObject({ flat: 10, cum: 50 });
    const left = callGraph(diff, PPROF_GRAPH_DEFAULTS, sideValues(diff, 'baseline'));
    // the frame's own value and self are the baseline's (the reader adds the two sides for the bars)
    expect(left.total).toBe(100);
    expect(left.nodes.find((n) => n.name === 'main.main')).toMatchObject({ flat: 10, cum: 70 });
  });
});
