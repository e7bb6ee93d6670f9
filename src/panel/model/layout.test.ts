// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { readFlameData } from '../../shared/flameData';
import { nestedSet, SMALL } from '../testing/frames';
import { buildIndex } from './flameIndex';
import { hitTest, layoutRects, subtreeDepth } from './layout';

const index = buildIndex(readFlameData(nestedSet(SMALL)));
const byName = (rects: ReturnType<typeof layoutRects>) =>
  Object.fromEntries(rects.map((r) => [index.data.names[index.data.nameIdx[r.node]], [r.x, r.width, r.level]]));

describe('layout', () => {
  it('turns the nested set into rectangles: root on top, width proportional to total, children left to right', () => {
    const rects = byName(layoutRects(index, { focus: 0, width: 1000, rowHeight: 20 }));
    expect(rects).toEqual({
      total: [0, 1000, 0],
      'runtime.gcBgMarkWorker': [0, 300, 1],
      'main.main': [300, 700, 1],
      'encoding/json.parse': [300, 200, 2],
      'main.work': [500, 400, 2],
      'crypto/sha256.hash': [500, 350, 3],
    });
  });

  it('zooming lays out only the subtree, which fills the width, ancestors stay above', () => {
    const work = 4;
    const rects = byName(layoutRects(index, { focus: work, width: 800, rowHeight: 20 }));
    expect(rects).toEqual({
      total: [0, 800, 0],
      'main.main': [0, 800, 1],
      'main.work': [0, 800, 2],
      'crypto/sha256.hash': [0, 700, 3],
    });
    expect(subtreeDepth(index, work)).toBe(3);
  });

  it('leaves out bars narrower than the minimum width', () => {
    const rects = layoutRects(index, { focus: 0, width: 100, rowHeight: 20 }, 25);
    expect(rects.map((r) => index.data.names[index.data.nameIdx[r.node]])).not.toContain('encoding/json.parse');
  });

  it('finds the node under a point', () => {
    const p = { focus: 0, width: 1000, rowHeight: 20 };
    expect(hitTest(index, p, 10, 5)).toBe(0);
    expect(hitTest(index, p, 299, 25)).toBe(1);
    expect(hitTest(index, p, 301, 25)).toBe(2);
    expect(hitTest(index, p, 600, 65)).toBe(5);
    expect(hitTest(index, p, 950, 65)).toBe(-1); // right of hash, nothing at level 3
    expect(hitTest(index, { ...p, focus: 4 }, 10, 25)).toBe(2); // ancestor row
  });

  it('finds the node under a point when grown upward (level 0 in the bottom row)', () => {
    // levels 0..3 in rows 3..0: the root is the bottom row, level 3 the top one
    const p = { focus: 0, width: 1000, rowHeight: 20, flipAt: 3 };
    expect(hitTest(index, p, 10, 65)).toBe(0);
    expect(hitTest(index, p, 299, 45)).toBe(1);
    expect(hitTest(index, p, 301, 45)).toBe(2);
    expect(hitTest(index, p, 600, 5)).toBe(5);
    expect(hitTest(index, p, 10, 85)).toBe(-1); // below the root row
    expect(hitTest(index, p, 10, -5)).toBe(-1); // above the top row
  });

  it('indexes levels and subtrees', () => {
    expect(Array.from(index.parent)).toEqual([-1, 0, 0, 2, 2, 4]);
    expect(Array.from(index.end)).toEqual([6, 2, 6, 4, 6, 6]);
    expect(Array.from(index.start)).toEqual([0, 0, 30, 30, 50, 50]);
  });
});
