// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { orderByKey } from './keyOrder';

/** The order a comparison sort gives: by key, ties in the order of ids. */
function bySort(keys: Float64Array, ids: Int32Array, descending: boolean): number[] {
  const dir = descending ? -1 : 1;
  const at = new Map(Array.from(ids, (id, i) => [id, i]));
  return Array.from(ids).sort((a, b) => dir * (keys[a] - keys[b]) || at.get(a)! - at.get(b)!);
}

function seeded(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

describe('orderByKey', () => {
  const rnd = seeded(7);
  const n = 5000;
  const cases: Record<string, (i: number) => number> = {
    'whole sample counts with many ties': () => Math.floor(rnd() * 50),
    'nanoseconds past 2^32': () => Math.floor(rnd() * 1e13),
    'fractions and negatives': () => (rnd() - 0.5) * 10 ** Math.floor(rnd() * 12 - 4),
    'zeros, -0 and the largest numbers': (i) => [0, -0, Number.MAX_VALUE, -Number.MAX_VALUE, 1, -1][i % 6],
  };
  for (const [name, key] of Object.entries(cases)) {
    it(`orders ${name} as a stable comparison sort does, both ways`, () => {
      const keys = Float64Array.from({ length: n }, (_, i) => key(i));
      // the ids of half of the keys, in a shuffled order
      const ids = Int32Array.from({ length: n / 2 }, (_, i) => (i * 7919) % (n / 2));
      for (const descending of [false, true]) {
        expect(Array.from(orderByKey(keys, ids, descending))).toEqual(bySort(keys, ids, descending));
      }
    });
  }

  it('keeps the given order when every key is the same', () => {
    expect(Array.from(orderByKey(new Float64Array([3, 3, 3, 3]), Int32Array.from([2, 0, 3, 1]), true))).toEqual([
      2, 0, 3, 1,
    ]);
  });
});
