// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * A quick look at the first draw alone (about 20 s, against run.spec.ts's minutes): the median
 * main-thread ms of many first renders per case, warm (renders one after the other, as a refresh)
 * or cold (FIRST_DRAW_COLD=1: each right after a forced full GC, as the first panel of a page).
 * Measures, never asserts; for before/after checks while working on the first draw.
 *
 *   webpack -c tests/bench/webpack.bench.config.ts --env production
 *   BENCH_SPEC=first-draw.spec.ts FIRST_DRAW_CASES=16k,100k FIRST_DRAW_LIBS=emberscope,grafana \
 *     playwright test -c tests/bench/playwright.bench.config.ts
 *
 * FIRST_DRAW_STAGES=1 also prints the preparation stages (bench.stages) of each case.
 * FIRST_DRAW_ONSCREEN=1 measures instead the work until the graph is on screen (bench.onScreen,
 * summed from a trace: every task until the frame that paints the graph), as run.spec.ts reports it;
 * with FIRST_DRAW_REFRESH=1, of a new frame given to the panel already on screen (a refresh).
 */
import { test } from '@playwright/test';
import path from 'node:path';
import { REPO } from '../support/playground';
import { startStaticServer } from '../support/staticServer';
import { loadInput } from './cases';
import { onScreenRuns } from './onScreen';

const CASES = [
  {
    name: '1k',
    profile: 'internal/fixtures/profiles/virtual.cpu.pb.gz',
    other: 'internal/fixtures/profiles/categories.cpu.pb.gz',
    nodes: 0,
  },
  { name: '16k', nodes: 16_000 },
  { name: '100k', nodes: 100_000 },
  { name: '500k', nodes: 500_000 },
].filter((c) => (process.env.FIRST_DRAW_CASES ?? '1k,16k,100k,500k').split(',').includes(c.name));
const LIBS = (process.env.FIRST_DRAW_LIBS ?? 'emberscope').split(',');
const COLD = process.env.FIRST_DRAW_COLD === '1';
const ON_SCREEN = process.env.FIRST_DRAW_ONSCREEN === '1';
const REFRESH = process.env.FIRST_DRAW_REFRESH === '1';

test('first draw, median of many renders', async ({ page }) => {
  const server = await startStaticServer(path.join(REPO, 'test-results', 'bench-page'));
  try {
    await page.goto(server.url);
    await page.waitForFunction(() => document.title === 'bench ready');
    for (const c of CASES) {
      await loadInput(page, c);
      if (process.env.FIRST_DRAW_STAGES) {
        const st: Record<string, number> = await page.evaluate(() => (window as any).bench.stages());
        console.log(
          c.name,
          'stages',
          Object.entries(st)
            .map(([k, v]) => `${k}=${v.toFixed(1)}`)
            .join(' ')
        );
      }
      const out: Record<string, number> = {};
      if (ON_SCREEN) {
        const cdp = await page.context().newCDPSession(page);
        for (const lib of LIBS) {
          const rs = await onScreenRuns(page, cdp, lib, COLD, lib === 'grafana' ? 5 : 11, REFRESH);
          const ms = rs.map((r) => r.workMs).sort((a, b) => a - b);
          out[lib] = Number(ms[Math.floor(ms.length / 2)].toFixed(1));
          out[`${lib} frames`] = Math.max(...rs.map((r) => r.frames));
        }
        await cdp.detach();
        console.log(c.name, REFRESH ? 'refresh' : COLD ? 'cold' : 'warm', 'on screen', JSON.stringify(out));
        continue;
      }
      for (const lib of LIBS) {
        const ms: number[] = [];
        const n = lib === 'grafana' ? 5 : 11;
        // three renders to warm up, then n timed
        for (let r = 0; r < n + 3; r++) {
          const t = await page.evaluate(
            async ([l, cold]) => {
              const bench = (window as any).bench;
              bench.unmount();
              if (cold) {
                (window as any).gc();
              }
              await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
              return bench.render(l) as number;
            },
            [lib, COLD] as const
          );
          if (r >= 3) {
            ms.push(t);
          }
        }
        ms.sort((a, b) => a - b);
        out[lib] = Number(ms[Math.floor(ms.length / 2)].toFixed(1));
      }
      console.log(c.name, COLD ? 'cold' : 'warm', JSON.stringify(out));
    }
  } finally {
    await server.close();
  }
});
