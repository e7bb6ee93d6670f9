// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { runChunks } from './idle';
import { RepeatedNames } from './repeatedNames';

const names = (n: number) => Array.from({ length: n }, (_, i) => `pkg.f${i}`);

describe('RepeatedNames', () => {
  it('finds no repeat in distinct names, over several chunks', () => {
    const r = new RepeatedNames(names(20_000));
    let chunks = 0;
    runChunks(() => (chunks++, r.chunk()));
    expect(r.found).toBe(false);
    expect(chunks).toBeGreaterThan(1);
  });

  it('finds a name repeated in a later chunk', () => {
    const list = names(20_000);
    list[19_999] = 'pkg.f3';
    const r = new RepeatedNames(list);
    runChunks(() => r.chunk());
    expect(r.found).toBe(true);
  });
});
