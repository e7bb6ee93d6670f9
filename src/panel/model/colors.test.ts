// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FieldType } from '@grafana/data';
import { readFlameData } from '../../shared/flameData';
import { nestedSet, Row, SMALL } from '../testing/frames';
import { computeColors, diffChange, diffColor, hsl as hsl2, hueOf, packageOf, VIRTUAL_FILL } from './colors';

describe('colours', () => {
  it('takes the package part of names', () => {
    expect(packageOf('github.com/a/b.(*T).M')).toBe('github.com/a/b');
    expect(packageOf('runtime.mallocgc')).toBe('runtime');
    expect(packageOf('main.(*server).handle')).toBe('main');
    expect(packageOf('std::vec::Vec::push')).toBe('std::vec::Vec');
    expect(packageOf('com.acme.Server.run')).toBe('com.acme.Server');
    expect(packageOf('app.py:handler')).toBe('app.py');
    expect(packageOf('total')).toBe('total');
  });

  it('gives a package the same hue every time and different packages different hues', () => {
    expect(hueOf(packageOf('runtime.mallocgc'))).toBe(hueOf(packageOf('runtime.gcBgMarkWorker')));
    expect(hueOf('runtime')).toBe(hueOf('runtime'));
    expect(hueOf('runtime')).not.toBe(hueOf('net/http'));
  });

  const hsl = (c: string) =>
    c
      .match(/hsl\((\d+), (\d+)%, (\d+)%\)/)!
      .slice(1)
      .map(Number);

  it('by self: more self is more saturated; by package: one intensity', () => {
    const d = readFlameData(nestedSet(SMALL));
    const bySelf = computeColors(d, 'selfNode');
    // hash (self 35) vs main.work (self 5)
    expect(hsl(bySelf[5])[1]).toBeGreaterThan(hsl(bySelf[4])[1]);
    // same package → same hue
    expect(hsl(bySelf[2])[0]).toBe(hsl(bySelf[4])[0]);
    const byPkg = computeColors(d, 'package');
    expect(hsl(byPkg[2])).toEqual(hsl(byPkg[4]));
    const byTotal = computeColors(d, 'total');
    expect(hsl(byTotal[2])[1]).toBeGreaterThan(hsl(byTotal[3])[1]); // main 70 vs parse 20
  });

  it('by self, colours every node of a hot function by its self over the whole graph, as pprof does', () => {
    // main.hot: 60 of self in total, spread over 12 small nodes of 5 under 12 callers;
    // main.big: one wide node with 30 of self
    const rows: Row[] = [[0, 'total', 100, 0]];
    for (let c = 0; c < 12; c++) {
      rows.push([1, `main.caller${String(c).padStart(2, '0')}`, 5, 0], [2, 'main.hot', 5, 5]);
    }
    rows.push([1, 'main.big', 30, 30], [1, 'main.cold', 10, 10]);
    const d = readFlameData(nestedSet(rows));
    const hot = rows.flatMap((r, i) => (r[1] === 'main.hot' ? [i] : []));
    const big = rows.findIndex((r) => r[1] === 'main.big');
    const cold = rows.findIndex((r) => r[1] === 'main.cold');
    expect(hot).toHaveLength(12);

    const byFunction = computeColors(d, 'self');
    // every node of main.hot has the same, strongest colour: 60 is the largest function self
    expect(new Set(hot.map((i) => byFunction[i]))).toEqual(new Set([byFunction[hot[0]]]));
    expect(byFunction[hot[0]]).toBe(hsl2(hueOf('main'), 1));
    expect(hsl(byFunction[hot[0]])[1]).toBeGreaterThan(hsl(byFunction[big])[1]);
    expect(hsl(byFunction[big])[1]).toBeGreaterThan(hsl(byFunction[cold])[1]);

    // per node, each small node of main.hot (5) looks colder than main.big (30) and main.cold (10)
    const byNode = computeColors(d, 'selfNode');
    expect(hsl(byNode[hot[0]])[1]).toBeLessThan(hsl(byNode[cold])[1]);
    expect(hsl(byNode[hot[0]])[1]).toBeLessThan(hsl(byNode[big])[1]);
  });

  it('draws virtual frames neutral', () => {
    const d = readFlameData(
      nestedSet(SMALL, {
        extra: [
          { name: 'virtual', type: FieldType.boolean, values: [false, true, false, false, false, false], config: {} },
        ],
      })
    );
    expect(computeColors(d, 'self')[1]).toBe(VIRTUAL_FILL);
  });

  it('colours diffs by change, with a colour-blind-safe palette', () => {
    expect(diffChange(10, 20, 100, 100)).toBe(1);
    expect(diffChange(20, 10, 100, 100)).toBe(-0.5);
    expect(diffChange(0, 5, 100, 100)).toBe(1);
    expect(diffColor(0, false)).toBe('rgb(200, 200, 200)');
    expect(diffColor(1, false)).toBe('rgb(218, 54, 51)'); // red: more
    expect(diffColor(-1, false)).toBe('rgb(46, 160, 67)'); // green: less
    expect(diffColor(1, true)).toBe('rgb(230, 120, 20)');
    expect(diffColor(-1, true)).toBe('rgb(33, 113, 181)');
    const d = readFlameData(
      nestedSet(SMALL, {
        extra: [
          { name: 'valueRight', type: FieldType.number, values: [50, 5, 45, 10, 30, 30], config: {} },
          { name: 'selfRight', type: FieldType.number, values: [0, 5, 5, 10, 0, 30], config: {} },
        ],
      })
    );
    const c = computeColors(d, 'self');
    // gc: baseline 30/100 → comparison 5/50: decreased → green side
    expect(c[1]).toBe(diffColor(diffChange(30, 5, 100, 50), false));
  });
});
