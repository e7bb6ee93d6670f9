// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * Profiles one input of the benchmark page (BENCH_SPEC=profile-sandwich.spec.ts npm run bench:browser):
 * Chromium's timeline traced through the DevTools protocol around the top table's sandwich button
 * (PROFILE_INPUT=menu: the context menu's "Sandwich view"; PROFILE_INPUT=mount: a warm mount until
 * the top table's rows are painted; PROFILE_INPUT=both: the header's "Both"
 * after a switch to the call tree, the graph and top table coming back; PROFILE_INPUT=collapse: the
 * collapse switch turned off; PROFILE_INPUT=zoom: a click on a level-1 bar), and a summary printed: the main
 * thread's tasks from the input to the frame that shows it, the JS functions with the most self
 * time, and the frames drawn. Measures, never asserts; the raw trace goes to test-results/.
 */
import { test } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from '../support/playground';
import { startStaticServer } from '../support/staticServer';
import { TraceEvent } from './trace';

const CASES: Array<[string, number, number]> = [
  ['1k', 1_000, 0],
  ['16k', 16_000, 0],
  ['500k', 500_000, 0],
  ['levels', 20_000, 5_000],
];

test('profile the sandwich switch', async ({ page }) => {
  const dir = path.join(REPO, 'test-results', 'bench-page');
  const server = await startStaticServer(dir);
  const want = (process.env.BENCH_CASES ?? '500k,levels').split(',').map((s) => s.trim());
  const input = process.env.PROFILE_INPUT ?? 'table';
  try {
    await page.goto(server.url);
    await page.waitForFunction(() => document.title === 'bench ready');
    const cdp = await page.context().newCDPSession(page);
    for (const [name, nodes, deep] of CASES.filter((c) => want.includes(c[0]))) {
      await page.evaluate(([n, d]) => (window as any).bench.load(n, d), [nodes, deep] as const);
      // a warm run first (the benchmark's medians are of warm runs), then the traced one
      for (let run = 0; run < 2; run++) {
        await page.evaluate(() => (window as any).bench.mount('emberscope'));
        // the idle prefetch done
        await page.waitForTimeout(1500);
        if (input === 'menu') {
          await page.evaluate(() => (window as any).bench.openMenu());
          await page.waitForTimeout(600);
        }
        if (input === 'both') {
          await page.evaluate(() => (window as any).bench.viewInput('Call tree'));
          await page.waitForTimeout(600);
        }
        const events: TraceEvent[] = [];
        const collect = (e: { value: unknown[] }) => events.push(...(e.value as TraceEvent[]));
        cdp.on('Tracing.dataCollected', collect);
        if (run === 1) {
          await cdp.send('Tracing.start', {
            traceConfig: {
              includedCategories: [
                'devtools.timeline',
                'disabled-by-default-devtools.timeline',
                'disabled-by-default-devtools.timeline.frame',
                'blink.user_timing',
                'v8.execute',
                'disabled-by-default-v8.cpu_profiler',
              ],
            },
          } as any);
          await page.waitForTimeout(200);
        }
        const r = await page.evaluate(
          (i) =>
            i === 'both'
              ? (window as any).bench.viewInput('Both')
              : i === 'collapse'
                ? (window as any).bench.viewInput('Collapse')
                : i === 'zoom'
                  ? (window as any).bench.zoom('emberscope')
                  : i === 'callgraph'
                    ? (window as any).bench.callGraph('emberscope')
                    : i === 'mount'
                      ? (window as any).bench.mount('emberscope', false)
                      : (window as any).bench.sandwichInput(i),
          input
        );
        await page.waitForTimeout(300);
        if (run === 0) {
          cdp.off('Tracing.dataCollected', collect);
          await page.evaluate(() => (window as any).bench.unmount());
          continue;
        }
        const done = new Promise<void>((res) => cdp.once('Tracing.tracingComplete', () => res()));
        await cdp.send('Tracing.end');
        await done;
        cdp.off('Tracing.dataCollected', collect);
        fs.writeFileSync(path.join(REPO, 'test-results', `profile-${name}-${input}.json`), JSON.stringify(events));
        console.log(`\n== ${name} ${input}: ${JSON.stringify(r)}`);
        summarize(events, input === 'mount' ? ['mount-start', 'mount-table'] : ['sandwich-input', 'sandwich-shown']);
        await page.evaluate(() => (window as any).bench.unmount());
      }
    }
  } finally {
    await server.close();
  }
});

/** Main-thread tasks, top-level events and JS self time between the input mark and the frame after it. */
function summarize(events: TraceEvent[], [startMark, endMark]: [string, string]) {
  const mark = events.find((e) => e.name === startMark);
  const markEnd = events.find((e) => e.name === endMark);
  const main = mark ? mark.tid : 0;
  const pid = mark ? mark.pid : 0;
  const from = mark ? mark.ts - 2000 : 0;
  const to = markEnd ? markEnd.ts + 40_000 : Infinity;
  const onMain = events.filter((e) => e.pid === pid && e.tid === main && e.ts >= from && e.ts <= to);
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.ph === 'X' && (e.dur ?? 0) > 500);
  const t = (x: number) => ((x - (mark?.ts ?? 0)) / 1000).toFixed(1);
  for (const task of tasks) {
    const inner = onMain.filter(
      (e) => e.ph === 'X' && e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + (task.dur ?? 0)
    );
    const top = inner
      .filter((e) => (e.dur ?? 0) > 300)
      .map(
        (e) =>
          `${e.name}${e.args?.data?.type ? `(${e.args.data.type})` : ''}${e.args?.data?.functionName ? `(${e.args.data.functionName})` : ''} ${((e.dur ?? 0) / 1000).toFixed(1)}`
      )
      .slice(0, 25);
    console.log(`task @${t(task.ts)} ms, ${((task.dur ?? 0) / 1000).toFixed(1)} ms: ${top.join(' | ')}`);
  }
  const frames = events.filter(
    (e) => (e.name === 'DrawFrame' || e.name === 'BeginFrame' || e.name === 'Commit') && e.ts >= from && e.ts <= to
  );
  console.log('frames: ' + frames.map((e) => `${e.name}@${t(e.ts)}`).join(' '));
  // JS time per task from the sampling profiler: self, and inclusive by function
  const nodes = new Map<number, { name: string; line: number; parent?: number }>();
  const samples: Array<{ id: number; ts: number }> = [];
  const profile = events.find((x) => x.name === 'Profile');
  let ts = profile?.args?.data?.startTime ?? 0;
  for (const e of events.filter((x) => x.name === 'ProfileChunk')) {
    const cp = e.args?.data?.cpuProfile;
    for (const n of cp?.nodes ?? []) {
      nodes.set(n.id, { name: n.callFrame.functionName || '(anon)', line: n.callFrame.lineNumber, parent: n.parent });
    }
    const ids: number[] = cp?.samples ?? [];
    const deltas: number[] = e.args?.data?.timeDeltas ?? [];
    ids.forEach((id, k) => {
      ts += deltas[k] ?? 0;
      samples.push({ id, ts });
    });
  }
  // the longest tasks, then every task of the window together
  const longest = tasks.filter((x) => (x.dur ?? 0) > 8000).slice(0, 10);
  const whole = { ts: from, dur: (to === Infinity ? from : to) - from } as TraceEvent;
  for (const task of [...longest, whole]) {
    const a = task.ts;
    const b = task.ts + (task.dur ?? 0);
    const self = new Map<string, number>();
    const incl = new Map<string, number>();
    for (let k = 0; k + 1 < samples.length; k++) {
      const sm = samples[k];
      if (sm.ts < a || sm.ts >= b) {
        continue;
      }
      const dt = samples[k + 1].ts - sm.ts;
      const n = nodes.get(sm.id);
      const key = (x: { name: string; line: number }) => `${x.name}:${x.line}`;
      if (!n) {
        continue;
      }
      self.set(key(n), (self.get(key(n)) ?? 0) + dt);
      const seen = new Set<string>();
      for (let c: typeof n | undefined = n; c; c = c.parent !== undefined ? nodes.get(c.parent) : undefined) {
        const kk = key(c);
        if (!seen.has(kk)) {
          seen.add(kk);
          incl.set(kk, (incl.get(kk) ?? 0) + dt);
        }
      }
    }
    const top = (m: Map<string, number>, n: number) =>
      [...m.entries()]
        .sort((x, y) => y[1] - x[1])
        .slice(0, n)
        .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`)
        .join(' | ');
    const what = task === whole ? 'all tasks' : `task @${t(a)}`;
    console.log(`  ${what} JS self: ${top(self, 14)}`);
    console.log(`  ${what} JS incl: ${top(incl, 40)}`);
  }
}
