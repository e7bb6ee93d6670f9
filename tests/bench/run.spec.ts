// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { CDPSession, expect, Page, test } from '@playwright/test';
import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO } from '../support/playground';
import { startStaticServer } from '../support/staticServer';
import { loadInput } from './cases';
import { longestTask, TASK_CATEGORIES } from './longTasks';
import { onScreenRuns } from './onScreen';
import { traced } from './trace';

type Lib = 'emberscope' | 'grafana';
interface Measure {
  firstDrawMs?: number;
  firstWorkMs?: number;
  /** The first draw's main-thread work right after a forced full GC (cold code, see page.tsx mount). */
  coldWorkMs?: number;
  coldDrawMs?: number;
  /**
   * The first draw until the graph is on screen (bench.onScreen, summed from a trace): every
   * main-thread task from the render to the end of the frame that paints the graph, warm and
   * cold, and the frames until then. @grafana/flamegraph draws its graph only in later tasks, so
   * firstWorkMs (the render alone) leaves its drawing out; this counts both libraries' drawing.
   */
  onScreenWorkMs?: number;
  onScreenColdWorkMs?: number;
  onScreenFrames?: number;
  onScreenColdFrames?: number;
  /** The same for a refresh: a new frame given to the panel already on screen (bench.onScreen with refresh). */
  onScreenRefreshMs?: number;
  onScreenRefreshFrames?: number;
  tableReadyMs?: number;
  hoverMs?: number;
  zoomMs?: number;
  zoomFrames?: number;
  resetMs?: number;
  resetFrames?: number;
  searchMs?: number;
  searchFrames?: number;
  heapMB?: number;
  /** Emberscope only: sandwich, collapse toggle and view switch, each {ms, frames}. */
  views?: Record<string, { ms: number; frames: number }>;
  /** The switch to the call graph (bench.callGraph), medians. */
  callGraph?: Record<string, number>;
  /** A sandwich opened until its whole merge is painted (bench.sandwichOpen), medians. */
  sandwichOpen?: Record<string, number>;
  error?: string;
}

interface Case {
  name: string;
  nodes: number;
  deep: number;
  /** A checked-in pprof file, drawn as the plugin converts it (tests/bench/frame), instead of a synthetic tree. */
  profile?: string;
  /** The other real profile a refresh alternates it with (synthetic cases use another seed). */
  other?: string;
}
const ALL_CASES: Case[] = [
  {
    name: '1k nodes (virtual.cpu.pb.gz)',
    nodes: 0,
    deep: 0,
    profile: 'internal/fixtures/profiles/virtual.cpu.pb.gz',
    other: 'internal/fixtures/profiles/categories.cpu.pb.gz',
  },
  { name: '16k nodes', nodes: 16_000, deep: 0 },
  { name: '100k nodes', nodes: 100_000, deep: 0 },
  { name: '500k nodes', nodes: 500_000, deep: 0 },
  { name: '5,000 levels', nodes: 20_000, deep: 5_000 },
];
// BENCH_CASES=16k,500k runs only the cases whose names contain one of the words
const CASES = process.env.BENCH_CASES
  ? ALL_CASES.filter((c) => process.env.BENCH_CASES!.split(',').some((w) => c.name.includes(w.trim())))
  : ALL_CASES;
// BENCH_RUNS=1 is the test command's smoke of the harness: every measure once, and a measure that
// fails fails the test (the numbers of one run are not worth keeping)
const SMOKE_RUNS = process.env.BENCH_RUNS ? Number(process.env.BENCH_RUNS) : undefined;
if (SMOKE_RUNS !== undefined && !(Number.isInteger(SMOKE_RUNS) && SMOKE_RUNS > 0)) {
  throw new Error(`BENCH_RUNS=${process.env.BENCH_RUNS}: give a whole number of runs above 0`);
}
const RUNS = SMOKE_RUNS ?? 5;
// the first draw until on screen is the aim's number and spreads more (GC, the tasks between): more runs
const ON_SCREEN_RUNS = SMOKE_RUNS ?? 9;
const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : NaN);

async function measure(page: Page, cdp: CDPSession, lib: Lib): Promise<Measure> {
  const first: number[] = [];
  const firstWork: number[] = [];
  const coldWork: number[] = [];
  const coldDraw: number[] = [];
  const table: number[] = [];
  const hover: number[] = [];
  const zoom: number[] = [];
  const zoomFrames: number[] = [];
  const reset: number[] = [];
  const resetFrames: number[] = [];
  const search: number[] = [];
  const searchFrames: number[] = [];
  let searchError: string | undefined;
  const heap: number[] = [];
  const views: Array<Record<string, { ms: number; frames: number }>> = [];
  const callGraphs: Array<Record<string, number>> = [];
  const sandwichOpens: Array<Record<string, number>> = [];
  let onScreen: Awaited<ReturnType<typeof onScreenRuns>> = [];
  let onScreenCold: typeof onScreen = [];
  let onScreenRefresh: typeof onScreen = [];
  if (process.env.BENCH_ONLY === 'open') {
    // BENCH_ONLY=open: the call graph's and the sandwich's opening alone (their longest tasks), Emberscope only
    try {
      for (let r = 0; r < RUNS && lib === 'emberscope'; r++) {
        await page.evaluate((l) => (window as any).bench.mount(l, false), lib);
        const [cg, so] = await opens(page, cdp, lib);
        callGraphs.push(cg);
        sandwichOpens.push(so);
      }
    } catch (e) {
      return { error: e instanceof Error ? e.message.split('\n')[0] : String(e) };
    } finally {
      await page.evaluate(() => (window as any).bench.unmount());
    }
    const med = (all: Array<Record<string, number>>) =>
      all.length ? Object.fromEntries(Object.keys(all[0]).map((k) => [k, median(all.map((c) => c[k]))])) : undefined;
    return { callGraph: med(callGraphs), sandwichOpen: med(sandwichOpens) };
  }
  try {
    onScreenCold = await onScreenRuns(page, cdp, lib, true, ON_SCREEN_RUNS);
    onScreen = await onScreenRuns(page, cdp, lib, false, ON_SCREEN_RUNS);
    onScreenRefresh = await onScreenRuns(page, cdp, lib, false, ON_SCREEN_RUNS, true);
    for (let r = 0; r < RUNS; r++) {
      // a mount right after a forced full GC (cold code; the heap growth), then one right after it (warm)
      const cold = await page.evaluate((l) => (window as any).bench.mount(l, true), lib);
      coldWork.push(cold.firstWorkMs);
      coldDraw.push(cold.firstDrawMs);
      heap.push(cold.heapMB);
      // the cold mount ends with a forced GC too (its heap growth): two renders first, as a page
      // that has drawn a moment ago has (the timed warm mount must not follow a forced GC)
      await page.evaluate((l) => {
        (window as any).bench.render(l);
        (window as any).bench.render(l);
      }, lib);
      const m = await page.evaluate((l) => (window as any).bench.mount(l, false), lib);
      first.push(m.firstDrawMs);
      firstWork.push(m.firstWorkMs);
      if (m.tableReadyMs !== undefined && m.tableReadyMs !== null) {
        table.push(m.tableReadyMs);
      }
      hover.push(await page.evaluate((l) => (window as any).bench.hover(l), lib));
      const z = await page.evaluate((l) => (window as any).bench.zoom(l), lib);
      zoom.push(z.ms);
      zoomFrames.push(z.frames);
      const rs = await page.evaluate((l) => (window as any).bench.reset(l), lib);
      reset.push(rs.ms);
      resetFrames.push(rs.frames);
      try {
        const sr = await page.evaluate((l) => (window as any).bench.search(l), lib);
        search.push(sr.ms);
        searchFrames.push(sr.frames);
      } catch (e) {
        searchError = e instanceof Error ? e.message.split('\n')[0] : String(e);
      }
      if (lib === 'emberscope') {
        views.push(await page.evaluate((l) => (window as any).bench.views(l), lib));
        const [cg, so] = await opens(page, cdp, lib);
        callGraphs.push(cg);
        sandwichOpens.push(so);
      }
    }
  } catch (e) {
    return { error: e instanceof Error ? e.message.split('\n')[0] : String(e) };
  } finally {
    await page.evaluate(() => (window as any).bench.unmount());
  }
  return {
    firstDrawMs: median(first),
    firstWorkMs: median(firstWork),
    coldWorkMs: median(coldWork),
    coldDrawMs: median(coldDraw),
    onScreenWorkMs: median(onScreen.map((o) => o.workMs)),
    onScreenColdWorkMs: median(onScreenCold.map((o) => o.workMs)),
    onScreenFrames: median(onScreen.map((o) => o.frames)),
    onScreenColdFrames: median(onScreenCold.map((o) => o.frames)),
    onScreenRefreshMs: median(onScreenRefresh.map((o) => o.workMs)),
    onScreenRefreshFrames: median(onScreenRefresh.map((o) => o.frames)),
    tableReadyMs: table.length === RUNS ? median(table) : undefined,
    hoverMs: median(hover),
    zoomMs: median(zoom),
    zoomFrames: median(zoomFrames),
    resetMs: median(reset),
    resetFrames: median(resetFrames),
    searchMs: searchError ? undefined : median(search),
    searchFrames: searchError ? undefined : median(searchFrames),
    heapMB: median(heap),
    callGraph: callGraphs.length
      ? Object.fromEntries(Object.keys(callGraphs[0]).map((k) => [k, median(callGraphs.map((c) => c[k]))]))
      : undefined,
    sandwichOpen: sandwichOpens.length
      ? Object.fromEntries(Object.keys(sandwichOpens[0]).map((k) => [k, median(sandwichOpens.map((c) => c[k]))]))
      : undefined,
    views: views.length
      ? Object.fromEntries(
          Object.keys(views[0]).map((k) => [
            k,
            { ms: median(views.map((v) => v[k].ms)), frames: median(views.map((v) => v[k].frames)) },
          ])
        )
      : undefined,
  };
}

/**
 * The call graph's opening, then the sandwich's from the top table and from the context menu
 * (bench.callGraph, bench.sandwichOpen), under a trace: each with its longest main-thread task
 * by the main thread's CPU time (and that task's wall time) and by wall time, beside the page's
 * own long-task API figure.
 */
async function opens(page: Page, cdp: CDPSession, lib: Lib): Promise<[Record<string, number>, Record<string, number>]> {
  let cg: Record<string, number> = {};
  let so: Record<string, number> = {};
  // OPEN_TRACE=1 samples the JS too, to see what a long task ran
  const categories =
    TASK_CATEGORIES + (process.env.OPEN_TRACE ? ',v8.execute,disabled-by-default-v8.cpu_profiler' : '');
  const events = await traced(cdp, categories, async () => {
    cg = await page.evaluate((l) => (window as any).bench.callGraph(l), lib);
    so = await page.evaluate((l) => (window as any).bench.sandwichOpen(l), lib);
  });
  if (process.env.OPEN_TRACE) {
    // OPEN_TRACE=1 keeps the trace of each run's opens for a closer look (test-results/open-trace-*.json)
    fs.writeFileSync(path.join(REPO, 'test-results', `open-trace-${Date.now()}.json`), JSON.stringify(events));
  }
  const withTasks = (r: Record<string, number>, name: string, prefix: string) => {
    const t = longestTask(events, name);
    r[`${prefix}LongestThreadMs`] = t.threadMs;
    r[`${prefix}LongestThreadWallMs`] = t.wallOfThreadMs;
    r[`${prefix}LongestWallMs`] = t.wallMs;
  };
  withTasks(cg, 'callgraph', 'trace');
  withTasks(so, 'table', 'table');
  withTasks(so, 'menu', 'menu');
  return [cg, so];
}

/**
 * BENCH_LOAD=ci runs the benchmark on a machine as busy as CI's: the Go tests with the race
 * detector (the longest step of the test command, both cores busy) run over and over beside it,
 * started before the first case and stopped after the last. The load average is recorded per case.
 */
function startLoad(): ChildProcess | undefined {
  if (process.env.BENCH_LOAD !== 'ci') {
    return undefined;
  }
  const loop = 'while true; do go test -race -count=1 ./pkg/... > /dev/null 2>&1; done';
  return spawn('bash', ['-c', loop], { cwd: REPO, detached: true, stdio: 'ignore' });
}

function stopLoad(load: ChildProcess | undefined) {
  if (load?.pid) {
    try {
      // the loop and the go commands it started are one process group
      process.kill(-load.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

const fmt = (x?: number, d = 1) => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(d));
const ratio = (g?: number, o?: number) =>
  g === undefined || o === undefined || !(o > 0) ? '–' : `${(g / o).toFixed(1)}×`;

test('flamegraph browser benchmark: Emberscope vs @grafana/flamegraph', async ({ page, browser }) => {
  // BENCH_PAGE=dir runs a page built elsewhere (a before/after pair built from two commits)
  const dir = process.env.BENCH_PAGE
    ? path.resolve(REPO, process.env.BENCH_PAGE)
    : path.join(REPO, 'test-results', 'bench-page');
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    throw new Error(`${dir}/index.html is missing: build it with "webpack -c tests/bench/webpack.bench.config.ts"`);
  }
  const server = await startStaticServer(dir);
  const results: Array<{
    case: string;
    nodes: number;
    levels: number;
    emberscope: Measure;
    grafana: Measure;
    emberscopeStagesMs: Record<string, number>;
    loadAverage: number[];
  }> = [];
  const load = startLoad();
  if (load) {
    // let the load get going (the first build of the race-enabled test binaries)
    await new Promise((r) => setTimeout(r, 60_000));
  }
  try {
    await page.goto(server.url);
    await page.waitForFunction(() => document.title === 'bench ready');
    const cdp = await page.context().newCDPSession(page);
    for (const c of CASES) {
      const nodes = await loadInput(page, c);
      const emberscopeStagesMs = await page.evaluate(() => (window as any).bench.stages());
      const emberscope = await measure(page, cdp, 'emberscope');
      // BENCH_LIBS=emberscope measures Emberscope alone (no ratios): for its own before/after runs
      const withGrafana = (process.env.BENCH_LIBS ?? 'emberscope,grafana').includes('grafana');
      const grafana: Measure = withGrafana
        ? await measure(page, cdp, 'grafana')
        : { error: 'not measured (BENCH_LIBS)' };
      const loadAverage = os.loadavg().map((x) => Number(x.toFixed(2)));
      results.push({ case: c.name, nodes, levels: c.deep || 0, emberscope, grafana, emberscopeStagesMs, loadAverage });
      console.log(c.name, JSON.stringify({ emberscope, grafana }));
      if (SMOKE_RUNS !== undefined) {
        expect(emberscope.error, `${c.name}: Emberscope's measures`).toBeUndefined();
        if (withGrafana) {
          expect(grafana.error, `${c.name}: @grafana/flamegraph's measures`).toBeUndefined();
        }
      }
    }
  } finally {
    stopLoad(load);
    await server.close();
  }
  const out = path.join(REPO, 'test-results');
  fs.mkdirSync(out, { recursive: true });
  const meta = {
    date: new Date().toISOString(),
    chromium: browser.version(),
    viewport: '1200×800 CSS px, DPR 1',
    runs: RUNS,
    load: process.env.BENCH_LOAD === 'ci' ? 'Go race tests running beside it (BENCH_LOAD=ci)' : 'none added',
    cpus: os.cpus().length,
    note: 'medians; graph and top table for both; first draw until the graph is on screen = the main-thread work of every task from the render to the end of the frame that paints the graph, summed from a Chromium trace (toplevel tasks; style, layout, paint and commit included; @grafana/flamegraph draws nothing in its first render: it measures its width, sets up its canvas and draws in later tasks), warm and cold as below, and for a refresh (the panel on screen, quiet, given the other profile of a pair of distinct ones: another real profile at 1k, another seed of the synthetic tree elsewhere); each run mounts each library twice: right after a forced full GC (cold: V8 drops the optimised code of what just ran, as on the first panel of a fresh page; the heap growth is measured on it), then again with nothing in between (warm: another panel mounted a moment after the first; a refresh of a panel on screen is its own row); graph first paint = render until two animation frames later; first render alone = the render with its commit and effects, no frame waited for (Emberscope draws its canvas in it); graph + table ready = until the top table rows are in the page and painted (Emberscope sums its table after the graph has painted, @grafana/flamegraph renders both in one go, so its two numbers are equal); heap growth is measured once both are there; hover/zoom/reset/search = main-thread work of the input (React render, commit, effects, canvas drawing); frames = animation frames from the input (dispatched at the start of a frame) to the one that shows its redraw, 1 = the next frame; zoom = a level-1 bar, reset = each library’s reset button, search = typing "handlers" (Emberscope only: @grafana/flamegraph debounces its search box); ratios are @grafana/flamegraph ÷ Emberscope (above 1× = Emberscope faster/smaller)',
  };
  fs.writeFileSync(path.join(out, 'bench-browser.json'), JSON.stringify({ meta, results }, null, 2));
  const lines = [
    '# Flamegraph browser benchmark',
    '',
    `${meta.date}, Chromium ${meta.chromium}, ${meta.viewport}, ${meta.cpus} cores, load added: ${meta.load}; load average (1, 5, 15 min) after each case: ${results.map((r) => `${r.case.split(' ')[0]} ${r.loadAverage.join('/')}`).join(', ')}. Median of ${RUNS} runs in the same page (${ON_SCREEN_RUNS} for the first draw until on screen). ${meta.note}.`,
    '',
    '| case | nodes | metric | Emberscope | @grafana/flamegraph 13.0.1 | ratio |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    const rows: Array<[string, keyof Measure, number]> = [
      ['first draw until the graph is on screen: main-thread work (ms)', 'onScreenWorkMs', 1],
      ['first draw until the graph is on screen, cold: right after a forced full GC (ms)', 'onScreenColdWorkMs', 1],
      ['first draw: frames until the graph is on screen', 'onScreenFrames', 0],
      ['first draw, cold: frames until the graph is on screen', 'onScreenColdFrames', 0],
      ['refresh (a new profile in the panel on screen) until the graph is on screen (ms)', 'onScreenRefreshMs', 1],
      ['refresh: frames until the graph is on screen', 'onScreenRefreshFrames', 0],
      ['graph first paint (ms)', 'firstDrawMs', 1],
      [
        'first render alone (Emberscope draws in it, @grafana/flamegraph does not): main-thread work (ms)',
        'firstWorkMs',
        1,
      ],
      ['first render alone, cold (ms)', 'coldWorkMs', 1],
      ['graph first paint, cold (ms)', 'coldDrawMs', 1],
      ['graph + table ready (ms)', 'tableReadyMs', 1],
      ['hover redraw (ms)', 'hoverMs', 2],
      ['zoom redraw (ms)', 'zoomMs', 1],
      ['zoom: frames to redraw', 'zoomFrames', 0],
      ['reset redraw (ms)', 'resetMs', 1],
      ['reset: frames to redraw', 'resetFrames', 0],
      ['search redraw (ms)', 'searchMs', 1],
      ['search: frames to redraw', 'searchFrames', 0],
      ['JS heap growth (MB)', 'heapMB', 1],
    ];
    for (const [k, v] of Object.entries(r.emberscope.views ?? {})) {
      lines.push(`| ${r.case} | ${r.nodes} | ${k} redraw (ms) | ${fmt(v.ms)} | – | – |`);
      lines.push(`| ${r.case} | ${r.nodes} | ${k}: frames to redraw | ${fmt(v.frames, 0)} | – | – |`);
    }
    const cg = r.emberscope.callGraph;
    if (cg) {
      for (const [label, key, d] of [
        ['switch to the call graph (ms)', 'switchMs', 1],
        ['switch to the call graph: frames to redraw', 'switchFrames', 0],
        ['call graph on screen after (wall ms)', 'readyMs', 0],
        ['call graph on screen: frames', 'readyFrames', 0],
        ['call graph: longest task over 50 ms, long-task API (wall ms; 0 = none)', 'longestTaskMs', 0],
        ["call graph: longest task's main-thread CPU (ms, trace)", 'traceLongestThreadMs', 1],
        ['call graph: that task wall (ms, trace)', 'traceLongestThreadWallMs', 1],
        ['call graph: longest task wall (ms, trace)', 'traceLongestWallMs', 1],
      ] as const) {
        lines.push(`| ${r.case} | ${r.nodes} | ${label} | ${fmt(cg[key], d)} | – | – |`);
      }
    }
    const so = r.emberscope.sandwichOpen;
    if (so) {
      for (const [label, key] of [
        ["top table's sandwich until its whole merge is on screen (wall ms)", 'tableReadyMs'],
        ["top table's sandwich: longest task over 50 ms, long-task API (wall ms; 0 = none)", 'tableLongestTaskMs'],
        ["top table's sandwich: longest task's main-thread CPU (ms, trace)", 'tableLongestThreadMs'],
        ["top table's sandwich: that task wall (ms, trace)", 'tableLongestThreadWallMs'],
        ["top table's sandwich: longest task wall (ms, trace)", 'tableLongestWallMs'],
        ["context menu's sandwich (menu opened 500 ms before) until whole on screen (wall ms)", 'menuReadyMs'],
        [
          "context menu's sandwich: longest task over 50 ms from the menu's opening, long-task API (wall ms; 0 = none)",
          'menuLongestTaskMs',
        ],
        ["context menu's sandwich: longest task's main-thread CPU (ms, trace)", 'menuLongestThreadMs'],
        ["context menu's sandwich: that task wall (ms, trace)", 'menuLongestThreadWallMs'],
        ["context menu's sandwich: longest task wall (ms, trace)", 'menuLongestWallMs'],
      ] as const) {
        lines.push(`| ${r.case} | ${r.nodes} | ${label} | ${fmt(so[key], 0)} | – | – |`);
      }
    }
    for (const [label, key, d] of rows) {
      const o = r.emberscope[key] as number | undefined;
      const g = r.grafana[key] as number | undefined;
      lines.push(
        `| ${r.case} | ${r.nodes} | ${label} | ${r.emberscope.error ?? fmt(o, d)} | ${r.grafana.error ?? fmt(g, d)} | ${ratio(g, o)} |`
      );
    }
  }
  lines.push(
    '',
    'Emberscope preparation stages inside first draw (ms):',
    '',
    '| case | ' + Object.keys(results[0]?.emberscopeStagesMs ?? {}).join(' | ') + ' |'
  );
  lines.push(
    '|---|' +
      Object.keys(results[0]?.emberscopeStagesMs ?? {})
        .map(() => '---')
        .join('|') +
      '|'
  );
  for (const r of results) {
    lines.push(
      `| ${r.case} | ${Object.values(r.emberscopeStagesMs)
        .map((v) => fmt(v))
        .join(' | ')} |`
    );
  }
  fs.writeFileSync(path.join(out, 'bench-browser.md'), lines.join('\n') + '\n');
  console.log(lines.join('\n'));
});
