// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * The inverted flamegraph and the panel's ignore and hide against google/pprof: the frame is made
 * from `go tool pprof -traces` of a real profile, the expected numbers are pprof's own `-top`
 * reports of the same profile (internal/fixtures/profiles/*.top.txt, made with
 * `go tool pprof -top -nodecount=0 -nodefraction=0 -edgefraction=0 -unit=ns [-ignore=… | -hide=…]`).
 */
import fs from 'fs';
import path from 'path';
import { FlameData } from '../../shared/flameData';
import { flameOfTraces } from '../testing/frames';
import { parseTop } from '../testing/pprofText';
import { invertFlameData } from './invert';
import { hideFrames, ignoreFrames } from './sampleFilters';
import { topTable } from './topTable';
import { buildIndex } from './flameIndex';

const PROFILES = path.join(__dirname, '../../../internal/fixtures/profiles');
const read = (file: string) => fs.readFileSync(path.join(PROFILES, file), 'utf8');

/** The value of each child of the root, by name. */
function roots(data: FlameData): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 1; i < data.count; i++) {
    if (data.level[i] === 1) {
      const name = data.names[data.nameIdx[i]];
      out.set(name, (out.get(name) ?? 0) + data.value[i]);
    }
  }
  return out;
}

const flats = (top: ReturnType<typeof parseTop>) =>
  new Map([...top.rows].filter(([, r]) => r.flat !== 0).map(([name, r]) => [name, r.flat]));

describe.each(['browser', 'virtual'])('the inverted flamegraph of %s.cpu.pb.gz', (name) => {
  const data = flameOfTraces(read(`${name}.cpu.traces.txt`));
  const top = parseTop(read(`${name}.cpu.top.txt`));
  const inverted = invertFlameData(data);

  it("has each function's flat from pprof -top at its root, and the same total", () => {
    expect(inverted.value[0]).toBe(top.shown);
    expect(roots(inverted)).toEqual(flats(top));
  });

  it("puts each function's callers above it: a root's children are its direct callers", () => {
    // every stack of the original graph that ends in f is a path from f's root node upwards
    const leaf = [...flats(top)].sort((a, b) => b[1] - a[1])[0][0];
    const root = [...Array(inverted.count).keys()].find(
      (i) => inverted.level[i] === 1 && inverted.names[inverted.nameIdx[i]] === leaf
    )!;
    let callers = 0;
    for (let i = root + 1; i < inverted.count && inverted.level[i] > 1; i++) {
      if (inverted.level[i] === 2) {
        callers += inverted.value[i];
      }
    }
    // what is not under a caller is the function's self as a root of a stack of its own
    expect(callers).toBeLessThanOrEqual(inverted.value[root]);
    expect(inverted.self[root]).toBe(inverted.value[root] - callers);
  });
});

describe('ignore and hide on a flamegraph, against pprof -ignore and -hide of browser.cpu.pb.gz', () => {
  const data = flameOfTraces(read('browser.cpu.traces.txt'));
  const cases: Array<[string, (d: FlameData) => FlameData]> = [
    ['browser.cpu.ignore-sha256.top.txt', (d) => ignoreFrames(d, /sha256/)],
    ['browser.cpu.hide-runtime.top.txt', (d) => hideFrames(d, /^runtime\./)],
  ];
  it.each(cases)("keeps pprof's total, flat and cum per function (%s)", (file, filter) => {
    const top = parseTop(read(file));
    const shown = filter(data);
    expect(shown.value[0]).toBe(top.shown);
    expect(top.percentOf).toBe(data.value[0]);
    const rows = topTable(buildIndex(shown));
    const ours = new Map(rows.map((r) => [shown.names[r.nameIdx], { flat: r.self, cum: r.total }]));
    expect(ours).toEqual(top.rows);
  });
});
