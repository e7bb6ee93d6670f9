// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FieldType } from '@grafana/data';
import { readFlameData } from '../../shared/flameData';
import { nestedSet, SMALL } from '../testing/frames';
import { buildIndex } from './flameIndex';
import { sortRows, topTable } from './topTable';

describe('top table', () => {
  it('sums self and total per symbol, leaving out the root', () => {
    const rows = topTable(buildIndex(readFlameData(nestedSet(SMALL))));
    const m = Object.fromEntries(rows.map((r) => [r.name, [r.self, r.total]]));
    expect(m).toEqual({
      'runtime.gcBgMarkWorker': [30, 30],
      'main.main': [10, 70],
      'encoding/json.parse': [20, 20],
      'main.work': [5, 40],
      'crypto/sha256.hash': [35, 35],
    });
  });

  it('counts recursion once in total', () => {
    const rows = topTable(
      buildIndex(
        readFlameData(
          nestedSet([
            [0, 'total', 12, 0],
            [1, 'a', 10, 2],
            [2, 'b', 8, 3],
            [3, 'a', 5, 5],
            [1, 'b', 2, 2],
          ])
        )
      )
    );
    const m = Object.fromEntries(rows.map((r) => [r.name, [r.self, r.total]]));
    expect(m.a).toEqual([7, 10]);
    expect(m.b).toEqual([5, 10]);
  });

  it('leaves virtual frames out', () => {
    const rows = topTable(
      buildIndex(
        readFlameData(
          nestedSet(
            [
              [0, 'total', 10, 0],
              [1, '/api/orders', 10, 0],
              [2, 'main.run', 10, 10],
            ],
            { extra: [{ name: 'virtual', type: FieldType.boolean, values: [false, true, false], config: {} }] }
          )
        )
      )
    );
    expect(rows.map((r) => r.name)).toEqual(['main.run']);
  });

  it('sums the same from the fast reading (names as the enum gives them, self summed by the reader)', () => {
    // the root's name is a function's too, and the root has a self of its own
    const frame = nestedSet([
      [0, 'main', 20, 3],
      [1, 'a', 10, 4],
      [2, 'main', 6, 6],
      [1, 'b', 7, 7],
    ]);
    const fast = readFlameData(frame, { enumTextAsNames: true });
    expect(fast.selfByName).toBeDefined();
    const rows = topTable(buildIndex(fast));
    expect(Object.fromEntries(rows.map((r) => [r.name, r.self]))).toEqual({ main: 6, a: 4, b: 7 });
    expect(rows).toEqual(topTable(buildIndex(readFlameData(frame))));
  });

  it('sorts by any column', () => {
    const rows = topTable(buildIndex(readFlameData(nestedSet(SMALL))));
    expect(sortRows(rows, 'self', true).map((r) => r.name)[0]).toBe('crypto/sha256.hash');
    expect(sortRows(rows, 'total', true).map((r) => r.name)[0]).toBe('main.main');
    expect(sortRows(rows, 'total', false).map((r) => r.name)[0]).toBe('encoding/json.parse');
    expect(sortRows(rows, 'name', false).map((r) => r.name)[0]).toBe('crypto/sha256.hash');
  });
});
