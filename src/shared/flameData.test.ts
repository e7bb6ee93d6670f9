// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FieldType } from '@grafana/data';
import { nestedSet, repeatedEnumFrame, SMALL } from '../panel/testing/frames';
import { baselineOf, FlameFrameError, findFlameFrame, namesDistinct, readFlameData } from './flameData';

describe('readFlameData', () => {
  it('reads enum labels, values and the unit', () => {
    const d = readFlameData(nestedSet(SMALL, { unit: 'bytes' }));
    expect(d.count).toBe(6);
    expect(Array.from(d.level)).toEqual([0, 1, 1, 2, 2, 3]);
    expect(Array.from(d.value)).toEqual([100, 30, 70, 20, 40, 35]);
    expect(Array.from(d.nameIdx).map((k) => d.names[k])).toEqual(SMALL.map((r) => r[1]));
    expect(d.unit).toBe('bytes');
    expect(d.maxLevel).toBe(3);
    expect(d.virtual).toBeUndefined();
  });

  it('with enumTextAsNames takes the enum text as the names and says they are unchecked', () => {
    const a = readFlameData(nestedSet(SMALL));
    const b = readFlameData(nestedSet(SMALL), { enumTextAsNames: true });
    expect(b.names).toEqual(SMALL.map((r) => r[1]));
    expect(Array.from(b.nameIdx).map((k) => b.names[k])).toEqual(Array.from(a.nameIdx).map((k) => a.names[k]));
    expect(a.namesUnchecked).toBeUndefined();
    expect(b.namesUnchecked).toBe(true);
    expect(namesDistinct(b)).toBe(true);
  });

  it("read in one pass, sums each name's self on the way (not for a diff, whose self is both sides)", () => {
    const rows: Array<[number, string, number, number]> = [
      [0, 'total', 100, 0],
      [1, 'main.main', 60, 10],
      [2, 'main.work', 50, 20],
      [3, 'main.main', 30, 30],
      [1, 'main.work', 40, 40],
    ];
    const d = readFlameData(nestedSet(rows), { enumTextAsNames: true });
    const byName = Object.fromEntries(d.names.map((n, k) => [n, d.selfByName![k]]));
    expect(byName).toEqual({ total: 0, 'main.main': 40, 'main.work': 60 });
    const diff = nestedSet(rows, {
      extra: [
        { name: 'valueRight', type: FieldType.number, values: [10, 5, 5, 5, 5], config: {} },
        { name: 'selfRight', type: FieldType.number, values: [0, 0, 0, 5, 5], config: {} },
      ],
    });
    expect(readFlameData(diff, { enumTextAsNames: true }).selfByName).toBeUndefined();
  });

  it('namesDistinct finds an enum whose text repeats a name; read without the option, its rows share one name', () => {
    const frame = repeatedEnumFrame();
    const fast = readFlameData(frame, { enumTextAsNames: true });
    expect(namesDistinct(fast)).toBe(false);
    const interned = readFlameData(frame);
    expect(namesDistinct(interned)).toBe(true);
    expect(interned.names).toEqual(['total', 'main.run', 'main.work']);
    expect(interned.nameIdx[2]).toBe(interned.nameIdx[3]);
  });

  it('with enumTextAsNames still says which row holds an index outside the enum', () => {
    const frame = nestedSet(SMALL);
    (frame.fields[3].values as number[])[4] = 9;
    expect(() => readFlameData(frame, { enumTextAsNames: true })).toThrow(
      'field "label" row 4: enum index 9 outside 0..5'
    );
  });

  it('reads plain string labels the same way as enum labels', () => {
    const a = readFlameData(nestedSet(SMALL));
    const b = readFlameData(nestedSet(SMALL, { plainLabels: true }));
    expect(Array.from(b.nameIdx).map((k) => b.names[k])).toEqual(Array.from(a.nameIdx).map((k) => a.names[k]));
  });

  it('reads virtual frames and their label', () => {
    const rows: Array<[number, string, number, number]> = [
      [0, 'total', 10, 0],
      [1, 'checkout', 10, 0],
      [2, 'main.run', 10, 10],
    ];
    const frame = nestedSet(rows, {
      extra: [
        { name: 'virtual', type: FieldType.boolean, values: [false, true, false], config: {} },
        { name: 'virtualLabel', type: FieldType.string, values: ['', 'route', ''], config: {} },
      ],
    });
    for (const options of [{}, { enumTextAsNames: true }, { enumTextAsNames: true }]) {
      const d = readFlameData(frame, options);
      expect(Array.from(d.virtual!)).toEqual([0, 1, 0]);
      expect(d.names[d.virtualLabelIdx![1]]).toBe('route');
      expect(d.virtualLabelIdx![2]).toBe(-1);
    }
    // the frame's own enum text is never added to (the names read as they are are copied first)
    expect(frame.fields.find((f) => f.name === 'label')!.config.type!.enum!.text).toEqual(rows.map((r) => r[1]));
  });

  it('reads diff frames', () => {
    const d = readFlameData(
      nestedSet(SMALL, {
        extra: [
          { name: 'valueRight', type: FieldType.number, values: [50, 10, 40, 10, 20, 20], config: {} },
          { name: 'selfRight', type: FieldType.number, values: [0, 10, 5, 10, 0, 20], config: {} },
        ],
      })
    );
    expect(Array.from(d.valueRight!)).toEqual([50, 10, 40, 10, 20, 20]);
    // value/self of the frame are the baseline; bars are baseline + comparison, as in @grafana/flamegraph
    expect(Array.from(d.value)).toEqual([150, 40, 110, 30, 60, 55]);
    expect(Array.from(d.self)).toEqual([0, 40, 15, 30, 5, 55]);
    expect(baselineOf(d, 2)).toBe(70);
  });

  it('leaves the frame as it was: a diff read twice gives the same bars', () => {
    const frame = nestedSet(SMALL, {
      extra: [
        { name: 'valueRight', type: FieldType.number, values: [50, 10, 40, 10, 20, 20], config: {} },
        { name: 'selfRight', type: FieldType.number, values: [0, 10, 5, 10, 0, 20], config: {} },
      ],
    });
    const before = frame.fields.map((f) => [...f.values]);
    readFlameData(frame);
    const again = readFlameData(frame);
    expect(frame.fields.map((f) => [...f.values])).toEqual(before);
    expect(Array.from(again.value)).toEqual([150, 40, 110, 30, 60, 55]);
  });

  it('reads numeric strings and bigints in the number columns', () => {
    const f = nestedSet(SMALL);
    const value = f.fields.find((x) => x.name === 'value')!;
    const level = f.fields.find((x) => x.name === 'level')!;
    value.values = value.values.map((v: number, i: number) => (i % 2 ? String(v) : BigInt(v)));
    level.values = level.values.map((v: number) => String(v));
    const d = readFlameData(f);
    expect(Array.from(d.value)).toEqual([100, 30, 70, 20, 40, 35]);
    expect(Array.from(d.level)).toEqual([0, 1, 1, 2, 2, 3]);
  });

  it('says which row breaks the nested set', () => {
    const bad = nestedSet([
      [0, 'total', 10, 0],
      [2, 'a', 10, 10],
    ]);
    expect(() => readFlameData(bad)).toThrow(FlameFrameError);
    expect(() => readFlameData(bad)).toThrow('field "level" row 1: level 2 follows level 0');
    expect(() =>
      readFlameData(
        nestedSet([
          [0, 'total', 10, 0],
          [0, 'again', 10, 10],
        ])
      )
    ).toThrow('row 1: a second root');
    expect(() => readFlameData(nestedSet([[0, 'total', 10, 20]]))).toThrow('row 0: self 20 is larger than');
  });

  it.each([
    [
      'a level jump',
      [
        [0, 'total', 10, 0],
        [1, 'a', 10, 0],
        [3, 'b', 10, 10],
      ],
      'field "level" row 2: level 3 follows level 1',
    ],
    [
      'a negative level',
      [
        [0, 'total', 10, 0],
        [-1, 'a', 10, 10],
      ],
      'field "level" row 1: -1 is not a non-negative integer',
    ],
    [
      'a fractional level',
      [
        [0, 'total', 10, 0],
        [0.5, 'a', 10, 10],
      ],
      'field "level" row 1: 0.5 is not a non-negative integer',
    ],
    [
      'a second root',
      [
        [0, 'total', 10, 0],
        [0, 'again', 10, 10],
      ],
      'row 1: a second root',
    ],
    [
      'self above total',
      [
        [0, 'total', 10, 0],
        [1, 'a', 5, 6],
      ],
      "row 1: self 6 is larger than the node's total 5",
    ],
    [
      'an infinite total',
      [
        [0, 'total', 10, 0],
        [1, 'a', Infinity, 1],
      ],
      'field "value" row 1: Infinity is not a finite number',
    ],
    [
      'a NaN self',
      [
        [0, 'total', 10, 0],
        [1, 'a', 5, NaN],
      ],
      'field "self" row 1: NaN is not a finite number',
    ],
  ] as Array<[string, Array<[number, string, number, number]>, string]>)(
    'read in one pass for the first draw, %s is reported as the column-by-column reading reports it',
    (_, rows, message) => {
      expect(() => readFlameData(nestedSet(rows))).toThrow(message);
      expect(() => readFlameData(nestedSet(rows), { enumTextAsNames: true })).toThrow(message);
    }
  );

  it('names the missing field and the fields it has', () => {
    const f = nestedSet(SMALL);
    f.fields = f.fields.filter((x) => x.name !== 'self');
    expect(() => readFlameData(f)).toThrow('has no "self" field (fields: level, value, label)');
    expect(findFlameFrame([f])).toBeUndefined();
  });

  it('needs both diff fields', () => {
    const f = nestedSet(SMALL, {
      extra: [{ name: 'valueRight', type: FieldType.number, values: [1, 1, 1, 1, 1, 1], config: {} }],
    });
    expect(() => readFlameData(f)).toThrow('needs both "valueRight" and "selfRight"');
  });
});
