// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * The first draw walks the frame's columns instead of an index: its chains must be the ones the
 * collapse merges, and its bars the ones the index-based walk visits, on real frames (the backend's
 * golden frames of real profiles: labeled CPU, a diff, virtual label frames) and a synthetic one.
 */
import fs from 'fs';
import path from 'path';
import { DataFrameJSON, dataFrameFromJSON } from '@grafana/data';
import { FlameData, readFlameData } from '../../shared/flameData';
import { buildIndex, FlameIndex } from './flameIndex';
import { chainsOf, forEachVisibleInColumns, mergesIntoParent } from './chains';
import { collapseChains } from './collapse';
import { forEachVisible, LayoutParams } from './layout';

const REPO = path.join(__dirname, '../../..');

function frameOf(file: string): FlameData {
  const frames: DataFrameJSON[] = JSON.parse(fs.readFileSync(path.join(REPO, file), 'utf8'));
  return readFlameData(dataFrameFromJSON(frames[0]));
}

/** A spine of wrapper frames (each the only child, same total) over a few branches, repeated. */
function chainy(): FlameData {
  const level: number[] = [0];
  const value: number[] = [0];
  const self: number[] = [0];
  const nameIdx: number[] = [0];
  const names = ['total', 'main', 'wrap', 'leaf', 'zero'];
  const add = (l: number, k: number, v: number, s = 0) => {
    level.push(l);
    nameIdx.push(k);
    value.push(v);
    self.push(s);
  };
  for (let r = 0; r < 50; r++) {
    const v = 10 + (r % 7);
    add(1, 1, v);
    // a chain of r % 5 wrappers, then two leaves
    for (let d = 0; d < r % 5; d++) {
      add(2 + d, 2, v);
    }
    add(2 + (r % 5), 3, v - 4, v - 4);
    add(2 + (r % 5), 3, 4, 4);
    // a node whose first child carries its total but has a zero sibling: not a chain
    add(1, 1, 6);
    add(2, 2, 6, 6);
    add(2, 4, 0, 0);
  }
  value[0] = value.reduce((a, v, i) => a + (level[i] === 1 ? v : 0), 0);
  return {
    count: level.length,
    level: Int32Array.from(level),
    value: Float64Array.from(value),
    self: Float64Array.from(self),
    nameIdx: Int32Array.from(nameIdx),
    names,
    maxLevel: Math.max(...level),
  };
}

/** Each case: its name and its frame (every one has chains to merge). */
const CASES: Array<[string, () => FlameData]> = [
  ['a labeled CPU profile', () => frameOf('pkg/datasource/plugin/testdata/grafana/profile_labeled.golden.json')],
  ['a diff of two profiles', () => frameOf('pkg/datasource/plugin/testdata/grafana/diff_labeled_vs_sort.golden.json')],
  ['virtual label frames', () => frameOf('pkg/datasource/dataframes/testdata/flamegraph_virtual.golden.json')],
  ['frames from two labels', () => frameOf('pkg/datasource/plugin/testdata/frames_from_label.golden.json')],
  ['wrapper chains and a zero-total sibling', chainy],
];

/** The chain definition read off an index: the only child (next row, same subtree end) with the same totals, no virtual frame, parent not the root. */
function mergesByIndex(ix: FlameIndex, i: number): boolean {
  const d = ix.data;
  const p = ix.parent[i];
  return (
    p > 0 &&
    i === p + 1 &&
    ix.end[i] === ix.end[p] &&
    d.value[i] === d.value[p] &&
    (d.valueRight === undefined || d.valueRight[i] === d.valueRight[p]) &&
    (d.virtual === undefined || (d.virtual[i] === 0 && d.virtual[p] === 0))
  );
}

type Bar = [number, number, number, number, number];

describe.each(CASES)('the first draw from the columns of %s', (_, make) => {
  const data = make();
  const index = buildIndex(data);
  const collapsed = collapseChains(index);
  const shown = buildIndex(collapsed.data);

  it('finds the chains the index shows, and the collapsed depth', () => {
    const chains = chainsOf(data);
    let merged = 0;
    for (let i = 0; i < data.count; i++) {
      expect([i, mergesIntoParent(chains, i)]).toEqual([i, mergesByIndex(index, i)]);
      merged += mergesIntoParent(chains, i) ? 1 : 0;
    }
    expect(merged).toBeGreaterThan(0);
    expect(collapsed.data.count).toBe(data.count - merged);
    expect(chains.collapsedDepth).toBe(collapsed.data.maxLevel);
    expect(chains.collapsedDepth).toBe(shown.deepest[0]);
  });

  it.each([
    [1200, 1, 0, 40],
    [300, 0.5, 0, 1000],
    [800, 4, 3, 9],
    [1000, 1, 0, 0],
  ])('visits the bars the index walk visits (width %d, min %d px, levels %d..%d)', (width, minWidth, from, to) => {
    const p: LayoutParams = { focus: 0, width, rowHeight: 20 };
    for (const collapse of [true, false]) {
      const want: Bar[] = [];
      const ix = collapse ? shown : index;
      forEachVisible(ix, p, from, to, minWidth, (s, x, w, l) =>
        want.push(collapse ? [collapsed.head[s], x, w, l, collapsed.frames[s]] : [s, x, w, l, 1])
      );
      const got: Bar[] = [];
      forEachVisibleInColumns(data, collapse ? chainsOf(data) : undefined, p, from, to, minWidth, (...b) =>
        got.push(b)
      );
      expect(got).toEqual(want);
      if (to > 0 && from === 0) {
        expect(got.length).toBeGreaterThan(1);
      }
    }
  });
});

describe('the collapse built from the chains', () => {
  it('keeps the chains of expanded heads apart and merges the rest', () => {
    const data = chainy();
    const index = buildIndex(data);
    const all = collapseChains(index);
    // the first chain of four wrappers: its head is main (row of r = 4)
    const head = Array.from({ length: data.count }, (_, i) => i).find(
      (i) => data.level[i] === 1 && all.frames[all.shownOf[i]] === 5
    )!;
    const some = collapseChains(index, new Set([head]));
    expect(some.data.count).toBe(all.data.count + 4);
    for (let k = 0; k < 5; k++) {
      expect(some.frames[some.shownOf[head + k]]).toBe(1);
      expect(some.data.level[some.shownOf[head + k]]).toBe(1 + k);
    }
  });
});
