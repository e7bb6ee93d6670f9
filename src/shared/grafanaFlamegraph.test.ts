// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * Our backend's golden frames (pkg/datasource/plugin/testdata/grafana/, made from two real CPU profiles by
 * TestGrafanaGoldenFrames) read by @grafana/flamegraph's own data container, as Grafana's Explore
 * does, and checked against what `go tool pprof -top` says about the same profiles
 * (testdata/pprofTop.json, with the command that made it). Our panel must read the same frames
 * the same way.
 */
import fs from 'fs';
import path from 'path';
import { DataFrame, DataFrameJSON, dataFrameFromJSON, getValueFormat } from '@grafana/data';
import { baselineOf, readFlameData } from './flameData';
import pprofTop from './testdata/pprofTop.json';
import { pyroscopeName } from '../panel/testing/pprofText';

// @grafana/flamegraph's index exports only the React component; its data container and tooltip
// data are its own modules, loaded by path.
const grafanaDist = path.join(__dirname, '../../node_modules/@grafana/flamegraph/dist/cjs/FlameGraph');
const { FlameGraphDataContainer } = require(path.join(grafanaDist, 'dataTransform.cjs'));
const { getDiffTooltipData, getTooltipData } = require(path.join(grafanaDist, 'FlameGraphTooltip.cjs'));

interface LevelItem {
  itemIndexes: number[];
  value: number;
  valueRight?: number;
  parents?: LevelItem[];
}

interface Container {
  getLevels(): LevelItem[][];
  getLabel(i: number): string;
  getValue(i: number | number[]): number;
  getValueRight(i: number | number[]): number;
  getSelf(i: number | number[]): number;
  getSelfRight(i: number | number[]): number;
  getUniqueLabels(): string[];
  getNodesWithLabel(label: string): LevelItem[];
  isDiffFlamegraph(): boolean;
}

type PprofTop = { total: number; functions: Record<string, { flat: number; cum: number }> };
const LABELED: PprofTop = pprofTop.profiles['labeled.cpu.redated.pb.gz'];
const SORT: PprofTop = pprofTop.profiles['bench-sort.cpu.redated.pb.gz'];

function golden(name: string): DataFrame {
  const file = path.join(__dirname, '../../pkg/datasource/plugin/testdata/grafana', `${name}.golden.json`);
  const frames: DataFrameJSON[] = JSON.parse(fs.readFileSync(file, 'utf8'));
  expect(frames).toHaveLength(1);
  return dataFrameFromJSON(frames[0]);
}

/** pprof's flat per function, under Pyroscope's names (shapes of one function summed). */
function pprofFlat(top: PprofTop): Map<string, number> {
  const out = new Map<string, number>();
  for (const [name, { flat }] of Object.entries(top.functions)) {
    const k = pyroscopeName(name);
    out.set(k, (out.get(k) ?? 0) + flat);
  }
  return out;
}

/** pprof's cum of the functions whose name Pyroscope keeps (no generic shape to merge). */
function pprofCum(top: PprofTop): Map<string, number> {
  const out = new Map<string, number>();
  for (const [name, { cum }] of Object.entries(top.functions)) {
    if (pyroscopeName(name) === name) {
      out.set(name, cum);
    }
  }
  return out;
}

/** Per function, summed over its nodes: [self, selfRight]. */
function selfByFunction(c: Container): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (const label of c.getUniqueLabels()) {
    const nodes = c.getNodesWithLabel(label) ?? [];
    const idx = nodes.flatMap((n) => n.itemIndexes);
    out.set(label, [c.getSelf(idx), c.getSelfRight(idx)]);
  }
  return out;
}

/** Per function, its total counted once per stack (nodes under a node of the same name skipped): [left, right]. */
function totalByFunction(c: Container): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (const label of c.getUniqueLabels()) {
    let left = 0;
    let right = 0;
    for (const n of c.getNodesWithLabel(label) ?? []) {
      let recursive = false;
      for (let p = n.parents?.[0]; p && !recursive; p = p.parents?.[0]) {
        recursive = c.getLabel(p.itemIndexes[0]) === label;
      }
      if (!recursive) {
        left += c.getValue(n.itemIndexes);
        right += c.getValueRight(n.itemIndexes);
      }
    }
    out.set(label, [left, right]);
  }
  return out;
}

describe('our frames in @grafana/flamegraph', () => {
  it('profile: root total and every function self and total are pprof’s', () => {
    const frame = golden('profile_labeled');
    const c: Container = new FlameGraphDataContainer(frame, { collapsing: false });
    expect(c.isDiffFlamegraph()).toBe(false);
    const root = c.getLevels()[0][0];
    expect(root.value).toBe(LABELED.total);
    const tip = getTooltipData(c, root, root.value);
    expect(tip.unitTitle).toBe('Time');
    expect(tip.unitValue).toBe('3.77 s');
    expect(tip.percentValue).toBe(100);

    const flat = pprofFlat(LABELED);
    const self = selfByFunction(c);
    for (const [name, want] of flat) {
      expect([name, self.get(name)?.[0] ?? 0]).toEqual([name, want]);
    }
    for (const [name, [got]] of self) {
      if (name !== 'total') {
        expect([name, got]).toEqual([name, flat.get(name)]);
      }
    }
    const totals = totalByFunction(c);
    for (const [name, want] of pprofCum(LABELED)) {
      expect([name, totals.get(name)?.[0]]).toEqual([name, want]);
    }
  });

  it('diff: baseline, comparison and change at the root and per function are pprof’s', () => {
    const frame = golden('diff_labeled_vs_sort');
    const c: Container = new FlameGraphDataContainer(frame, { collapsing: false });
    expect(c.isDiffFlamegraph()).toBe(true);
    const root = c.getLevels()[0][0];
    // the bar is both sides; the tooltip's baseline is the bar minus the comparison
    expect(root.value).toBe(LABELED.total + SORT.total);
    expect(root.valueRight).toBe(SORT.total);
    const ns = getValueFormat('ns');
    const show = (v: number) => {
      const d = ns(v);
      return d.text + (d.suffix ?? '');
    };
    const rows = getDiffTooltipData(c, root, root.value);
    const valueRow = rows.find((r: { label: string }) => r.label === 'Value');
    expect(valueRow).toEqual({
      rowId: '2',
      label: 'Value',
      baseline: show(LABELED.total), // 3.77 s
      comparison: show(SORT.total), // 23.5 s
      diff: show(SORT.total - LABELED.total),
    });
    expect(valueRow.baseline).toBe('3.77 s');

    const flatL = pprofFlat(LABELED);
    const flatR = pprofFlat(SORT);
    const self = selfByFunction(c);
    const names = new Set([...flatL.keys(), ...flatR.keys()]);
    for (const name of names) {
      const [l, r] = self.get(name) ?? [0, 0];
      const wantL = flatL.get(name) ?? 0;
      const wantR = flatR.get(name) ?? 0;
      expect([name, l, r, r - l]).toEqual([name, wantL, wantR, wantR - wantL]);
    }
    const totals = totalByFunction(c);
    const cumL = pprofCum(LABELED);
    const cumR = pprofCum(SORT);
    for (const name of new Set([...cumL.keys(), ...cumR.keys()])) {
      const [l, r] = totals.get(name) ?? [0, 0];
      expect([name, l, r]).toEqual([name, cumL.get(name) ?? 0, cumR.get(name) ?? 0]);
    }
  });

  it('our panel reads the same frames as @grafana/flamegraph does', () => {
    for (const name of ['profile_labeled', 'diff_labeled_vs_sort']) {
      const frame = golden(name);
      const c: Container = new FlameGraphDataContainer(frame, { collapsing: false });
      const ours = readFlameData(frame);
      expect(ours.count).toBe(frame.length);
      const levels = c.getLevels();
      for (const level of levels) {
        for (const item of level) {
          const i = item.itemIndexes[0];
          // bar width, comparison and baseline of every node agree
          expect(ours.value[i]).toBe(item.value);
          expect(ours.valueRight?.[i] ?? 0).toBe(item.valueRight ?? 0);
          expect(baselineOf(ours, i)).toBe(item.value - (item.valueRight ?? 0));
          expect(ours.names[ours.nameIdx[i]]).toBe(c.getLabel(i));
        }
      }
    }
  });
});
