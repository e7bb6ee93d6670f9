import { FieldType } from '@grafana/data';
import { readFlameData } from '../../shared/flameData';
import { nestedSet, SMALL } from '../testing/frames';
import { computeColors, diffChange, diffColor, hueOf, packageOf, VIRTUAL_FILL } from './colors';

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
    const bySelf = computeColors(d, 'self');
    // hash (self 35) vs main.work (self 5)
    expect(hsl(bySelf[5])[1]).toBeGreaterThan(hsl(bySelf[4])[1]);
    // same package → same hue
    expect(hsl(bySelf[2])[0]).toBe(hsl(bySelf[4])[0]);
    const byPkg = computeColors(d, 'package');
    expect(hsl(byPkg[2])).toEqual(hsl(byPkg[4]));
    const byTotal = computeColors(d, 'total');
    expect(hsl(byTotal[2])[1]).toBeGreaterThan(hsl(byTotal[3])[1]); // main 70 vs parse 20
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
