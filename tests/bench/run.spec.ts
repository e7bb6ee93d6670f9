import { Page, test } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from '../support/playground';
import { startStaticServer } from '../support/staticServer';

type Lib = 'emberscope' | 'grafana';
interface Measure {
  firstDrawMs?: number;
  tableReadyMs?: number;
  hoverMs?: number;
  zoomMs?: number;
  heapMB?: number;
  error?: string;
}

const ALL_CASES = [
  { name: '16k nodes', nodes: 16_000, deep: 0 },
  { name: '100k nodes', nodes: 100_000, deep: 0 },
  { name: '500k nodes', nodes: 500_000, deep: 0 },
  { name: '5,000 levels', nodes: 20_000, deep: 5_000 },
];
// BENCH_CASES=16k,500k runs only the cases whose names contain one of the words
const CASES = process.env.BENCH_CASES
  ? ALL_CASES.filter((c) => process.env.BENCH_CASES!.split(',').some((w) => c.name.includes(w.trim())))
  : ALL_CASES;
const RUNS = 5;
const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : NaN);

async function measure(page: Page, lib: Lib): Promise<Measure> {
  const first: number[] = [];
  const table: number[] = [];
  const hover: number[] = [];
  const zoom: number[] = [];
  const heap: number[] = [];
  try {
    for (let r = 0; r < RUNS; r++) {
      const m = await page.evaluate((l) => (window as any).bench.mount(l), lib);
      first.push(m.firstDrawMs);
      if (m.tableReadyMs !== undefined && m.tableReadyMs !== null) {
        table.push(m.tableReadyMs);
      }
      heap.push(m.heapMB);
      hover.push(await page.evaluate((l) => (window as any).bench.hover(l), lib));
      zoom.push(await page.evaluate((l) => (window as any).bench.zoom(l), lib));
    }
  } catch (e) {
    return { error: e instanceof Error ? e.message.split('\n')[0] : String(e) };
  } finally {
    await page.evaluate(() => (window as any).bench.unmount());
  }
  return {
    firstDrawMs: median(first),
    tableReadyMs: table.length === RUNS ? median(table) : undefined,
    hoverMs: median(hover),
    zoomMs: median(zoom),
    heapMB: median(heap),
  };
}

const fmt = (x?: number, d = 1) => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(d));
const ratio = (g?: number, o?: number) =>
  g === undefined || o === undefined || !(o > 0) ? '–' : `${(g / o).toFixed(1)}×`;

test('flamegraph browser benchmark: Emberscope vs @grafana/flamegraph', async ({ page, browser }) => {
  const dir = path.join(REPO, 'test-results', 'bench-page');
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
  }> = [];
  try {
    await page.goto(server.url);
    await page.waitForFunction(() => document.title === 'bench ready');
    for (const c of CASES) {
      const nodes = await page.evaluate(([n, d]) => (window as any).bench.load(n, d), [c.nodes, c.deep] as const);
      const emberscopeStagesMs = await page.evaluate(() => (window as any).bench.stages());
      const emberscope = await measure(page, 'emberscope');
      const grafana = await measure(page, 'grafana');
      results.push({ case: c.name, nodes, levels: c.deep || 0, emberscope, grafana, emberscopeStagesMs });
      console.log(c.name, JSON.stringify({ emberscope, grafana }));
    }
  } finally {
    await server.close();
  }
  const out = path.join(REPO, 'test-results');
  fs.mkdirSync(out, { recursive: true });
  const meta = {
    date: new Date().toISOString(),
    chromium: browser.version(),
    viewport: '1200×800 CSS px, DPR 1',
    runs: RUNS,
    note: 'medians; graph and top table for both; graph first paint = render until two animation frames later; graph + table ready = until the top table rows are in the page and painted (Emberscope sums its table after the graph has painted, @grafana/flamegraph renders both in one go, so its two numbers are equal); heap growth is measured once both are there; hover/zoom = main-thread work of the input (React render, commit, effects, canvas drawing); ratios are @grafana/flamegraph ÷ Emberscope (above 1× = Emberscope faster/smaller)',
  };
  fs.writeFileSync(path.join(out, 'bench-browser.json'), JSON.stringify({ meta, results }, null, 2));
  const lines = [
    '# Flamegraph browser benchmark',
    '',
    `${meta.date}, Chromium ${meta.chromium}, ${meta.viewport}, median of ${RUNS} runs in the same page. ${meta.note}.`,
    '',
    '| case | nodes | metric | Emberscope | @grafana/flamegraph 13.0.1 | ratio |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    const rows: Array<[string, keyof Measure, number]> = [
      ['graph first paint (ms)', 'firstDrawMs', 1],
      ['graph + table ready (ms)', 'tableReadyMs', 1],
      ['hover redraw (ms)', 'hoverMs', 2],
      ['zoom redraw (ms)', 'zoomMs', 1],
      ['JS heap growth (MB)', 'heapMB', 1],
    ];
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
