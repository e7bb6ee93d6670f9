// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * The call graph's boxes and arrows as pprof draws them: each box's text, font size and colours,
 * and each arrow's pen width and colour, against `go tool pprof -dot` of a real profile
 * (internal/fixtures/profiles/browser.cpu.graph.dot), on the graph the model makes of the same
 * stacks (checked against that file in callGraph.test.ts).
 */
import fs from 'fs';
import path from 'path';
import { readFlameData } from '../../shared/flameData';
import { flameOfTraces, nestedSet } from '../testing/frames';
import { callGraph } from './callGraph';
import {
  arrowWidth,
  boxFontSize,
  drawnArrows,
  nameLines,
  placeCallGraph,
  pprofColor,
  valueLines,
} from './callGraphLayout';

const PROFILES = path.join(__dirname, '../../../internal/fixtures/profiles');
const g = callGraph(flameOfTraces(fs.readFileSync(path.join(PROFILES, 'browser.cpu.traces.txt'), 'utf8')));
const dotText = fs.readFileSync(path.join(PROFILES, 'browser.cpu.graph.dot'), 'utf8');

/** pprof's box attributes by function name, and its arrows' by caller and callee. */
const boxes = new Map<string, { label: string; fontsize: number; color: string; fill: string }>();
for (const m of dotText.matchAll(
  /^N\d+ \[label="(.*?)" id="node\d+" fontsize=(\d+) shape=box tooltip="(.*) \(\d+ns\)" color="(#\w+)" fillcolor="(#\w+)"\]$/gm
)) {
  boxes.set(m[3], { label: m[1], fontsize: Number(m[2]), color: m[4], fill: m[5] });
}
const arrows = new Map<string, { width: number; color: string }>();
for (const m of dotText.matchAll(
  /^N\d+ -> N\d+ \[label=".*?"(?: weight=\d+)?(?: penwidth=(\d+))? color="(#\w+)" tooltip="(.*?) (?:->|\.\.\.) (.*?) \(/gm
)) {
  arrows.set(`${m[3]} → ${m[4]}`, { width: m[1] ? Number(m[1]) : 1, color: m[2] });
}
const ns = (v: number) => `${v}ns`;

describe("the call graph's boxes and arrows, as pprof's -dot draws them", () => {
  it('has every box of the graph in the dot file', () => {
    expect(boxes.size).toBe(g.nodes.length);
  });

  it('writes each box as pprof does: short name by parts, then flat and cum', () => {
    let checked = 0;
    for (const n of g.nodes) {
      // pprof also splits inside a generic's brackets (`pdqsortOrdered[go\nshape\nint]`); the panel keeps them whole
      if (n.name.includes('[')) {
        continue;
      }
      const text = [...nameLines(n.name), ...valueLines(n.flat, n.cum, g.total, ns)].join('\\n');
      expect(text).toBe(boxes.get(n.name)!.label);
      checked++;
    }
    expect(checked).toBeGreaterThan(70);
  });

  it("sizes each box's text and colours it by its cum as pprof does", () => {
    const maxFlat = Math.max(...g.nodes.map((n) => n.flat));
    for (const n of g.nodes) {
      const b = boxes.get(n.name)!;
      expect(boxFontSize(n.flat, maxFlat)).toBe(b.fontsize);
      expect(pprofColor(n.cum / g.total, false)).toBe(b.color);
      expect(pprofColor(n.cum / g.total, true)).toBe(b.fill);
    }
  });

  it('draws each arrow as wide and in the colour pprof does', () => {
    for (const e of g.edges) {
      const a = arrows.get(`${g.nodes[e.from].name} → ${g.nodes[e.to].name}`)!;
      expect(a).toBeDefined();
      expect(arrowWidth(e.weight, g.total)).toBe(a.width);
      expect(pprofColor(e.weight / g.total, false)).toBe(a.color);
    }
  });

  it('places every box apart, callers above their callees', () => {
    const p = placeCallGraph(g, (t, size) => t.length * size * 0.6, ns);
    for (let i = 0; i < p.boxes.length; i++) {
      for (let j = i + 1; j < p.boxes.length; j++) {
        const a = p.boxes[i];
        const b = p.boxes[j];
        const apart =
          Math.abs(a.x - b.x) >= (a.width + b.width) / 2 || Math.abs(a.y - b.y) >= (a.height + b.height) / 2;
        expect(apart).toBe(true);
      }
    }
    // runtime.main calls main.main: above it
    const at = (name: string) => p.boxes[g.nodes.findIndex((n) => n.name === name)];
    expect(at('runtime.main').y).toBeLessThan(at('main.main').y);
    for (const a of p.arrows) {
      expect(a.points.length).toBeGreaterThanOrEqual(2);
    }
  });

  it('draws every arrow of a real graph, and of a dense one the heaviest in of every box', () => {
    expect(drawnArrows(g).every(Boolean)).toBe(true);
    // a deep recursion over random names, trimmed to 80 functions: hundreds of dotted arrows
    const rows: Array<[number, string, number, number]> = [[0, 'total', 0, 0]];
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let t = 0; t < 60; t++) {
      const depth = 30 + Math.floor(rnd() * 30);
      for (let l = 1; l <= depth; l++) {
        rows.push([l, `main.f${Math.floor(rnd() * 120)}`, 0, 0]);
      }
      rows[rows.length - 1][3] = 1 + Math.floor(rnd() * 9);
    }
    // totals: each row's self plus its subtree's
    for (let i = rows.length - 1; i >= 0; i--) {
      let total = rows[i][3];
      for (let j = i + 1; j < rows.length && rows[j][0] > rows[i][0]; j++) {
        if (rows[j][0] === rows[i][0] + 1) {
          total += rows[j][2];
        }
      }
      rows[i][2] = total;
    }
    const dense = callGraph(readFlameData(nestedSet(rows)));
    const drawn = drawnArrows(dense);
    expect(dense.edges.length).toBeGreaterThan(200);
    expect(drawn.filter(Boolean).length).toBe(Math.max(100, Math.ceil(1.5 * dense.nodes.length)));
    for (const n of dense.nodes) {
      if (n.in.length) {
        expect(drawn[Math.min(...n.in)]).toBe(true);
      }
    }
    const p = placeCallGraph(dense, (t, size) => t.length * size * 0.6, ns);
    expect(p.hidden).toBe(dense.edges.length - drawn.filter(Boolean).length);
    expect(p.arrows.filter((a) => a.drawn && a.points.length >= 2).length).toBe(drawn.filter(Boolean).length);
  });

  it('splits names as pprof does, and keeps what is after a line granularity name', () => {
    expect(nameLines('encoding/json.(*decodeState).value')).toEqual(['json', '(*decodeState)', 'value']);
    expect(nameLines('crypto/internal/fips140/sha256.blockSHANI')).toEqual(['sha256', 'blockSHANI']);
    expect(nameLines('main.parseJSON /src/app/main.go:42')).toEqual(['main', 'parseJSON', 'main.go:42']);
    expect(nameLines('slices.pdqsortOrdered[go.shape.int]')).toEqual(['slices', 'pdqsortOrdered[go.shape.int]']);
  });
});
