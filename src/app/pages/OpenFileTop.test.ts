// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { createDataFrame, FieldType } from '@grafana/data';
import { selfByFunction } from './OpenFileTop';

describe('selfByFunction', () => {
  it('sums the self of every row of a function, largest first, without the root', () => {
    const frame = createDataFrame({
      fields: [
        { name: 'level', type: FieldType.number, values: [0, 1, 2, 1, 2] },
        { name: 'value', type: FieldType.number, values: [10, 6, 4, 4, 3] },
        { name: 'self', type: FieldType.number, values: [0, 2, 4, 1, 3] },
        { name: 'label', type: FieldType.string, values: ['total', 'a', 'b', 'c', 'b'] },
      ],
    });
    expect(selfByFunction(frame)).toEqual([
      { name: 'b', self: 7, right: undefined },
      { name: 'a', self: 2, right: undefined },
      { name: 'c', self: 1, right: undefined },
    ]);
  });

  it('reads enum labels and orders a diff by the size of the change', () => {
    const frame = createDataFrame({
      fields: [
        { name: 'level', type: FieldType.number, values: [0, 1, 1] },
        { name: 'value', type: FieldType.number, values: [10, 6, 4] },
        { name: 'self', type: FieldType.number, values: [0, 6, 4] },
        { name: 'valueRight', type: FieldType.number, values: [10, 7, 0] },
        { name: 'selfRight', type: FieldType.number, values: [0, 7, 0] },
        { name: 'label', type: FieldType.enum, values: [0, 1, 2], config: { type: { enum: { text: ['total', 'grew', 'gone'] } } } },
      ],
    });
    expect(selfByFunction(frame).map((f) => [f.name, (f.right ?? 0) - f.self])).toEqual([
      ['gone', -4],
      ['grew', 1],
    ]);
  });
});
