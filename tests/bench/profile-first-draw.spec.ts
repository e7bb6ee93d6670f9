// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * Where Emberscope's first draw goes: a CPU profile (CDP Profiler, 50 µs sampling) of the first
 * render with its commit and effects (`bench.render`, no frame waited for), summed over several
 * renders on a warm page, plus a trace of the same renders for the browser's own work (style,
 * layout). Self time is mapped back to source files and functions with the bundle's source maps.
 * Not a test: it measures and writes test-results/bench-profile.md (and .json).
 *
 *   webpack -c tests/bench/webpack.bench.config.ts --env production --env profile
 *   BENCH_SPEC=profile-first-draw.spec.ts PROFILE_CASES=1k,16k playwright test -c tests/bench/playwright.bench.config.ts
 *
 * PROFILE_COLD=1 profiles each render right after a forced full GC (the cold first draw).
 */
import { test } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { SourceMapConsumer } from 'source-map-js';
import { REPO } from '../support/playground';
import { startStaticServer } from '../support/staticServer';
import { loadInput } from './cases';
import { traced } from './trace';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}
const CASES = [
  { name: '1k', profile: 'internal/fixtures/profiles/virtual.cpu.pb.gz', nodes: 0 },
  { name: '16k', nodes: 16_000 },
  { name: '100k', nodes: 100_000 },
  { name: '500k', nodes: 500_000 },
].filter((c) => (process.env.PROFILE_CASES ?? '1k,16k').split(',').includes(c.name));
const WARM = 5;
const RUNS = Number(process.env.PROFILE_RUNS ?? 15);

/** Maps bundle positions to sources with the bundle's .map files (cached per script). */
class Mapper {
  private maps = new Map<string, SourceMapConsumer | null>();
  constructor(private dir: string) {}
  where(cf: CallFrame): { file: string; fn: string; line: number } {
    if (!cf.url) {
      return { file: cf.functionName || '(native)', fn: cf.functionName || '(native)', line: 0 };
    }
    const base = path.basename(new URL(cf.url).pathname);
    if (!this.maps.has(base)) {
      const f = path.join(this.dir, base + '.map');
      this.maps.set(base, fs.existsSync(f) ? new SourceMapConsumer(JSON.parse(fs.readFileSync(f, 'utf8'))) : null);
    }
    const m = this.maps.get(base);
    const pos = m?.originalPositionFor({ line: cf.lineNumber + 1, column: cf.columnNumber });
    if (!pos || !pos.source) {
      return { file: base, fn: cf.functionName || '(anonymous)', line: cf.lineNumber + 1 };
    }
    const file = pos.source.replace(/^webpack:\/\/[^/]*\//, '').replace(/^\.\//, '');
    return { file, fn: pos.name || cf.functionName || '(anonymous)', line: pos.line ?? 0 };
  }
}

/** The package or source folder a file belongs to. */
function groupOf(file: string): string {
  const nm = file.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (nm) {
    return nm[1];
  }
  if (file.startsWith('src/')) {
    return file.replace(/^(src\/[^/]+(?:\/[^/]+)?)\/.*$/, '$1');
  }
  return file;
}

type Sums = Map<string, number>;
const add = (m: Sums, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
const top = (m: Sums, n: number, runs: number) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => ({ key: k, ms: v / 1000 / runs }));

/** Adds a profile's self time (and inclusive time per function) to the sums, in µs. */
function sumProfile(p: Profile, mapper: Mapper, self: { fn: Sums; file: Sums; group: Sums; incl: Sums }) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) {
    for (const c of n.children ?? []) {
      parent.set(c, n.id);
    }
  }
  const keyOf = new Map<number, { fnKey: string; file: string; group: string }>();
  const key = (id: number) => {
    let k = keyOf.get(id);
    if (!k) {
      const w = mapper.where(byId.get(id)!.callFrame);
      k = { fnKey: `${w.fn} (${w.file}:${w.line})`, file: w.file, group: groupOf(w.file) };
      keyOf.set(id, k);
    }
    return k;
  };
  for (let i = 0; i < p.samples.length; i++) {
    // a sample's time is the delta to the next sample
    const dt = i + 1 < p.timeDeltas.length ? p.timeDeltas[i + 1] : 0;
    const id = p.samples[i];
    const k = key(id);
    add(self.fn, k.fnKey, dt);
    add(self.file, k.file, dt);
    add(self.group, k.group, dt);
    const seen = new Set<string>();
    for (let a: number | undefined = id; a !== undefined; a = parent.get(a)) {
      const ka = key(a).fnKey;
      if (!seen.has(ka)) {
        seen.add(ka);
        add(self.incl, ka, dt);
      }
    }
  }
}

test('profile of Emberscope first draw', async ({ page }) => {
  const dir = path.join(REPO, 'test-results', 'bench-page');
  if (!fs.readdirSync(dir).some((f) => f.endsWith('.js.map'))) {
    throw new Error(`no source maps in ${dir}: build with "--env production --env profile"`);
  }
  const server = await startStaticServer(dir);
  const mapper = new Mapper(dir);
  const report: Record<string, unknown> = {};
  const lines: string[] = ['# Emberscope first-draw profile', ''];
  try {
    await page.goto(server.url);
    await page.waitForFunction(() => document.title === 'bench ready');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
    for (const c of CASES) {
      await loadInput(page, c);
      // warm up as the benchmark does (its first-draw median comes after its stages and earlier mounts)
      await page.evaluate(() => (window as any).bench.stages());
      for (let r = 0; r < WARM; r++) {
        await page.evaluate(() => (window as any).bench.mount('emberscope'));
      }
      const sums = { fn: new Map(), file: new Map(), group: new Map(), incl: new Map() };
      const ms: number[] = [];
      const grafanaMs: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        await page.evaluate(async (cold) => {
          (window as any).bench.unmount();
          if (cold) {
            // PROFILE_COLD=1: right after a forced full GC, which drops the optimised code (the cold first draw)
            (window as any).gc();
          }
          await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
        }, process.env.PROFILE_COLD === '1');
        await cdp.send('Profiler.start');
        ms.push(await page.evaluate(() => (window as any).bench.render('emberscope')));
        const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
        sumProfile(profile, mapper, sums);
      }
      // the same render of @grafana/flamegraph (no profile), for the ratio in this run
      for (let r = 0; r < 3; r++) {
        await page.evaluate(async () => {
          (window as any).bench.unmount();
          await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
        });
        grafanaMs.push(await page.evaluate(() => (window as any).bench.render('grafana')));
      }
      // the browser's own work in the render (style, layout, ...): top-level events of the renderer's main thread
      const events = await traced(cdp, 'devtools.timeline,blink.user_timing', async () => {
        for (let r = 0; r < 5; r++) {
          await page.evaluate(async () => {
            (window as any).bench.unmount();
            await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
            performance.mark('render-start');
            (window as any).bench.render('emberscope');
            performance.mark('render-end');
          });
        }
      });
      const marks = events.filter((e) => e.name === 'render-start' || e.name === 'render-end');
      const windows: Array<[number, number, number]> = [];
      for (let k = 0; k + 1 < marks.length; k += 2) {
        windows.push([marks[k].ts, marks[k + 1].ts, marks[k].tid]);
      }
      const browser = new Map<string, number>();
      for (const e of events) {
        if (e.ph !== 'X' || !e.dur) {
          continue;
        }
        const w = windows.find(([a, b, tid]) => e.tid === tid && e.ts >= a && e.ts <= b);
        if (
          w &&
          ['Layout', 'UpdateLayoutTree', 'ParseAuthorStyleSheet', 'HitTest', 'Paint', 'PrePaint'].includes(e.name)
        ) {
          add(browser, e.name, e.dur);
        }
      }
      const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const res = {
        renderMsMedian: med(ms),
        grafanaRenderMsMedian: med(grafanaMs),
        runs: RUNS,
        byGroup: top(sums.group, 25, RUNS),
        byFile: top(sums.file, 40, RUNS),
        selfByFunction: top(sums.fn, 50, RUNS),
        inclusiveByFunction: top(sums.incl, 80, RUNS),
        browserWorkMs: top(browser, 10, windows.length || 1),
      };
      report[c.name] = res;
      const table = (title: string, rows: Array<{ key: string; ms: number }>) => {
        lines.push(`### ${c.name}: ${title}`, '', '| ms | |', '|---|---|');
        for (const r of rows) {
          lines.push(`| ${r.ms.toFixed(2)} | ${r.key.replace(/\|/g, '\\|')} |`);
        }
        lines.push('');
      };
      lines.push(
        `## ${c.name}: render median ${res.renderMsMedian.toFixed(1)} ms under the profiler ` +
          `(@grafana/flamegraph ${res.grafanaRenderMsMedian.toFixed(1)} ms unprofiled), ms per render over ${RUNS}`,
        ''
      );
      table('self time by package / source folder', res.byGroup);
      table('self time by file', res.byFile);
      table('self time by function', res.selfByFunction);
      table('inclusive time by function', res.inclusiveByFunction);
      table('browser work inside the render (trace)', res.browserWorkMs);
    }
  } finally {
    await server.close();
  }
  const out = path.join(REPO, 'test-results');
  fs.writeFileSync(path.join(out, 'bench-profile.json'), JSON.stringify(report, null, 2));
  fs.writeFileSync(path.join(out, 'bench-profile.md'), lines.join('\n') + '\n');
  console.log(lines.join('\n'));
});
