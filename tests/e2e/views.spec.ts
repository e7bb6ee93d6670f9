// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { expect, Page, test } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { fetchFlame, Flame, searchStats } from '../support/frame';
import { Box, nodeBox } from '../support/canvas';
import { ingestPushedProfile, ingestRealProfile, Playground, REPO, startPlayground } from '../support/playground';
import { parsePeek } from '../../src/panel/testing/pprofText';
import { screenshot } from '../support/screenshot';

/**
 * The panel's views in the playground on real checked-in profiles: the sandwich of a function
 * against `go tool pprof -peek` of the same file (internal/fixtures/profiles/browser.peek.txt; the
 * profile is ingested twice, so every number is twice pprof's), collapsed chains, the call tree,
 * the diff columns (labeled vs bench-sort, checked against pprof -top in
 * src/shared/testdata/pprofTop.json) and the header's choices kept across a reload.
 */

const SERVICE = 'e2e-views';
const EXPR = `process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="${SERVICE}"}`;
const PEEK = parsePeek(fs.readFileSync(path.join(REPO, 'internal/fixtures/profiles/browser.peek.txt'), 'utf8'));
const TIMES = 2; // ingested twice

const CPU = 'process_cpu:cpu:nanoseconds:cpu:nanoseconds';
const DIFF_FROM = Date.parse('2026-12-01T07:00:00Z');
const DIFF_TO = Date.parse('2026-12-01T08:00:00Z');
type Top = { total: number; functions: Record<string, { flat: number; cum: number }> };
const TOP: { profiles: Record<string, Top> } = JSON.parse(
  fs.readFileSync(path.join(REPO, 'src', 'shared', 'testdata', 'pprofTop.json'), 'utf8')
);

let pg: Playground;
let from: number;
let to: number;
let flame: Flame;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  pg = await startPlayground();
  await ingestRealProfile(pg.storeUrl, SERVICE);
  await ingestRealProfile(pg.storeUrl, SERVICE);
  await ingestPushedProfile(pg.storeUrl, 'labeled.cpu.redated.pb.gz', 'labeled');
  await ingestPushedProfile(pg.storeUrl, 'bench-sort.cpu.redated.pb.gz', 'sort');
  to = Date.now() + 60_000;
  from = to - 3_600_000;
  flame = await fetchFlame(pg.url, EXPR, from, to);
});

test.afterAll(async () => {
  await pg?.stop();
});

async function open(page: Page) {
  await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
  await page.evaluate(() => window.localStorage.clear());
  await page.reload();
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  await expect(page.getByTestId('top-table-row').first()).toBeVisible();
}

/** Where the canvas with test id `id` draws the widest node called name. */
async function boxIn(page: Page, id: string, name: string): Promise<Box> {
  if (id.startsWith('sandwich-')) {
    // a deep graph's sandwich is drawn cut first and replaced once merged whole in idle time
    await expect(page.getByTestId('sandwich-view')).toHaveAttribute('data-whole', 'true');
  }
  const canvas = page.getByTestId(id);
  const cb = (await canvas.boundingBox())!;
  const r = await canvas.evaluate(
    (el, n) =>
      (el as HTMLCanvasElement & { emberscope: { rectOf: (n: string) => Box | undefined } }).emberscope.rectOf(n),
    name
  );
  expect(r, `node ${name} is drawn in ${id}`).toBeTruthy();
  return { x: cb.x + r!.x, y: cb.y + r!.y, width: r!.width, height: r!.height };
}

async function hoverTotal(page: Page, id: string, name: string): Promise<string> {
  const b = await boxIn(page, id, name);
  await page.mouse.move(b.x + Math.min(6, b.width / 2), b.y + b.height / 2);
  const tip = page.getByTestId('flamegraph-tooltip');
  await expect(tip.getByTestId('tooltip-name')).toHaveText(name);
  return (await tip.getByTestId('tooltip-total').innerText()).replace(/^Total\s*/, '');
}

/** pprof's ns in the panel's format of a ns unit, as the tooltip shows it (ms below 1 s here). */
function ms(v: number): string {
  const x = (v * TIMES) / 1e6;
  return x >= 1000 ? `${(x / 1000).toPrecision(3)} s` : `${x} ms`;
}

test('sandwich from the context menu: callers and callees merged as pprof -peek counts them; Back returns to the zoom', async ({
  page,
}) => {
  await open(page);
  // zoom first: the sandwich's Back must return to this zoom
  const h = await nodeBox(page, 'main.handleRequest');
  await page.mouse.click(h.x + h.width / 2, h.y + h.height / 2);
  await expect(page.getByTestId('flamegraph-breadcrumbs')).toContainText('main.handleRequest');

  const name = 'main.parseJSON';
  const p = PEEK.get(name)!;
  expect(p.callers.get('main.handleRequest')).toBe(390_000_000);
  const b = await nodeBox(page, name);
  await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2, { button: 'right' });
  await page.getByText('Sandwich view').click();
  await expect(page.getByTestId('sandwich-view')).toBeVisible();
  await expect(page.getByTestId('sandwich-summary')).toContainText(
    `${name} · self ${p.flat ? ms(p.flat) : '0 ns'} · total ${ms(p.cum)}`
  );
  expect(await hoverTotal(page, 'sandwich-callers-canvas', name)).toContain(ms(p.cum));
  // the callers grow upward as Grafana draws them: the function in the callers' bottom row, above
  // the callees' top row (the function again), its caller in the row above it
  const fnUp = await boxIn(page, 'sandwich-callers-canvas', name);
  const callerUp = await boxIn(page, 'sandwich-callers-canvas', 'main.handleRequest');
  const fnDown = await boxIn(page, 'sandwich-callees-canvas', name);
  expect(callerUp.y + callerUp.height).toBeLessThanOrEqual(fnUp.y);
  expect(fnUp.y).toBeLessThan(fnDown.y);
  // the callers half's box (its pooled canvas may be taller, clipped to the half)
  const callersBox = (await page.getByTestId('sandwich-callers-hit').boundingBox())!;
  expect(fnUp.y + fnUp.height).toBeCloseTo(callersBox.y + callersBox.height, 0);
  for (const [caller, v] of p.callers) {
    expect(await hoverTotal(page, 'sandwich-callers-canvas', caller)).toContain(ms(v));
  }
  for (const callee of ['encoding/json.Unmarshal', 'time.Now']) {
    expect(await hoverTotal(page, 'sandwich-callees-canvas', callee)).toContain(ms(p.callees.get(callee)!));
  }
  await screenshot(page, 'views-sandwich.png');
  await page.getByRole('button', { name: 'Exit sandwich view' }).click();
  await expect(page.getByTestId('sandwich-view')).toHaveCount(0);
  await expect(page.getByTestId('flamegraph-breadcrumbs')).toContainText('main.handleRequest');
});

test('sandwich of a recursive function from the top table counts recursion once, as pprof -peek', async ({ page }) => {
  await open(page);
  const name = 'encoding/json.(*decodeState).object';
  const p = PEEK.get(name)!;
  await page.getByRole('button', { name: `Sandwich view of ${name}` }).click();
  await expect(page.getByTestId('sandwich-summary')).toContainText(`self ${ms(p.flat)} · total ${ms(p.cum)}`);
  const value = 'encoding/json.(*decodeState).value';
  expect(await hoverTotal(page, 'sandwich-callers-canvas', value)).toContain(ms(p.callers.get(value)!));
  expect(await hoverTotal(page, 'sandwich-callees-canvas', value)).toContain(ms(p.callees.get(value)!));
  expect(await hoverTotal(page, 'sandwich-callees-canvas', 'reflect.New')).toContain(ms(p.callees.get('reflect.New')!));
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('sandwich-view')).toHaveCount(0);
});

test('sandwich from a search hit', async ({ page }) => {
  await open(page);
  await page.getByLabel('Search functions').fill('handleRequest');
  await page.getByTestId('search-sandwich').click();
  const p = PEEK.get('main.handleRequest')!;
  await expect(page.getByTestId('sandwich-summary')).toContainText(
    `main.handleRequest · self 0 ns · total ${ms(p.cum)}`
  );
  for (const [callee, v] of p.callees) {
    expect(await hoverTotal(page, 'sandwich-callees-canvas', callee)).toContain(ms(v));
  }
});

/** The chain the frame collapses under node i: i and each only child carrying the same total. */
function chainFrom(f: Flame, i: number): string[] {
  const out = [f.names[i]];
  for (let j = i; ;) {
    const kids: number[] = [];
    for (let c = j + 1; c < f.level.length && f.level[c] > f.level[j]; c++) {
      if (f.level[c] === f.level[j] + 1) {
        kids.push(c);
      }
    }
    if (kids.length !== 1 || f.value[kids[0]] !== f.value[j]) {
      return out;
    }
    j = kids[0];
    out.push(f.names[j]);
  }
}

test('collapsed chains: a bar says how many frames it holds; expand one, expand all; counts unchanged', async ({
  page,
}) => {
  await open(page);
  // the widest chain of the frame that is not itself inside a chain
  const parent = flame.level.map((l, i) => {
    let p = i - 1;
    while (p >= 0 && flame.level[p] >= l) {
      p--;
    }
    return p;
  });
  const merged = new Set<number>();
  let best = -1;
  for (let i = 1; i < flame.level.length; i++) {
    if (merged.has(i)) {
      continue;
    }
    const c = chainFrom(flame, i);
    for (let k = 1; k < c.length; k++) {
      merged.add(i + k);
    }
    if (c.length > 1 && parent[i] > 0 && (best < 0 || flame.value[i] > flame.value[best])) {
      best = i;
    }
  }
  expect(best, 'the frame has a chain to collapse').toBeGreaterThan(0);
  const head = flame.names[best];
  const chain = chainFrom(flame, best);
  const b = await nodeBox(page, head);
  await page.mouse.move(b.x + Math.min(6, b.width / 2), b.y + b.height / 2);
  const tip = page.getByTestId('flamegraph-tooltip');
  await expect(tip.getByTestId('tooltip-name')).toHaveText(head);
  await expect(tip.getByTestId('tooltip-collapsed')).toContainText(`${chain.length} frames: ${chain.join(' → ')}`);

  const q = 'sha256';
  const s = searchStats(flame, new RegExp(q, 'i'));
  const result = `${s.count} match${s.count === 1 ? '' : 'es'}`;
  await page.getByLabel('Search functions').fill(q);
  await expect(page.getByTestId('flamegraph-search-result')).toContainText(result);

  // expand this chain from the context menu: its second frame is a bar of its own (the header may
  // have grown a line with the search's buttons: measure again)
  const b2 = await nodeBox(page, head);
  await page.mouse.click(b2.x + Math.min(6, b2.width / 2), b2.y + b2.height / 2, { button: 'right' });

  await page.getByText(`Expand ${chain.length} collapsed frames`).click();
  const second = await nodeBox(page, chain[1]);
  expect(second.y).toBeCloseTo(b2.y + b2.height, 0);
  await expect(page.getByTestId('flamegraph-search-result')).toContainText(result);

  // expand all: no bar holds more than one frame; collapse all brings the chain back
  await page.getByRole('button', { name: 'Expand all' }).click();
  await expect(page.getByLabel('Collapse chains')).not.toBeChecked();
  await expect(page.getByTestId('flamegraph-search-result')).toContainText(result);
  await page.getByRole('button', { name: 'Collapse all' }).click();
  await expect(page.getByLabel('Collapse chains')).toBeChecked();
  const again = await nodeBox(page, head);
  await page.mouse.move(again.x + 3, again.y + again.height / 2);
  await expect(tip.getByTestId('tooltip-collapsed')).toContainText(`${chain.length} frames`);
});

test('call tree: rows with self and total, expand on click and keys, a row zooms the graph', async ({ page }) => {
  await open(page);
  await page.getByRole('radio', { name: 'Call tree' }).click();
  const tree = page.getByTestId('call-tree');
  await expect(tree).toBeVisible();
  const rows = tree.getByTestId('call-tree-row');
  const tops = flame.level
    .map((l, i) => [l, i])
    .filter(([l]) => l === 1)
    .map(([, i]) => i);
  await expect(rows).toHaveCount(1 + tops.length);
  // by total, descending: the first child is the widest
  const widest = tops.reduce((a, c) => (flame.value[c] > flame.value[a] ? c : a));
  await expect(rows.nth(1)).toContainText(flame.names[widest]);
  // the root row: self 0, total the whole profile (twice pprof's total)
  await expect(rows.nth(0)).toContainText('total');
  await expect(rows.nth(0)).toContainText('2.62 s');
  // a click opens the row and zooms the graph to it
  await rows.nth(1).click();
  await expect(page.getByTestId('flamegraph-breadcrumbs')).toContainText(flame.names[widest]);
  await expect(rows.nth(1)).toHaveAttribute('aria-expanded', 'true');
  expect(await rows.count()).toBeGreaterThan(1 + tops.length);
  // keys: down to the first child, Enter zooms there
  await tree.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const child = (await rows.nth(2).getAttribute('title'))!;
  await expect(page.getByTestId('flamegraph-breadcrumbs')).toContainText(child.length > 0 ? child.slice(0, 10) : '');
  // sort by self
  await tree.getByRole('columnheader', { name: /Self/ }).click();
  await expect(tree.getByRole('columnheader', { name: /Self/ })).toHaveAttribute('aria-sort', 'descending');
  await screenshot(page, 'views-call-tree.png');
});

test('diff: baseline, comparison and diff % columns in the table and the call tree, a legend in both palettes', async ({
  page,
}) => {
  const expr = `${CPU}{service_name="labeled"}`;
  await page.goto(`${pg.url}/?query=${encodeURIComponent(expr)}&from=${DIFF_FROM}&to=${DIFF_TO}`);
  await page.getByTestId('options-summary').click();
  await page.getByRole('radio', { name: 'Diff' }).click();
  await page.getByLabel('Comparison selector').fill('{service_name="sort"}');
  await page.getByLabel('Comparison from').fill(new Date(DIFF_FROM).toISOString());
  await page.getByLabel('Comparison to').fill(new Date(DIFF_TO).toISOString());
  await page.getByLabel('Comparison to').blur();
  await expect(page.getByTestId('diff-legend')).toBeVisible();

  const L = TOP.profiles['labeled.cpu.redated.pb.gz'];
  const R = TOP.profiles['bench-sort.cpu.redated.pb.gz'];
  const name = 'runtime.mcall';
  const base = (100 * L.functions[name].cum) / L.total;
  const comp = (100 * R.functions[name].cum) / R.total;
  const d = ((comp - base) / base) * 100;
  const want = [`${base.toFixed(2)}%`, `${comp.toFixed(2)}%`, `${d >= 0 ? '+' : ''}${d.toFixed(1)}%`];
  await page.getByLabel('Search functions').fill('^runtime\\.mcall$');
  const row = page.getByTestId('top-table-row').first();
  await expect(row).toContainText(name);
  await expect(row.getByTestId('cell-baseline')).toHaveText(want[0]);
  await expect(row.getByTestId('cell-comparison')).toHaveText(want[1]);
  await expect(row.getByTestId('cell-diff')).toHaveText(want[2]);

  await page.getByRole('radio', { name: 'Call tree' }).click();
  const treeRow = page.getByTestId('call-tree-row').filter({ hasText: name }).first();
  await expect(treeRow.getByTestId('cell-baseline')).toHaveText(want[0]);
  await expect(treeRow.getByTestId('cell-comparison')).toHaveText(want[1]);
  await expect(treeRow.getByTestId('cell-diff')).toHaveText(want[2]);

  // pprof's -diff_base graph: each box the comparison's cum less the baseline's, red where it grew
  await page.getByRole('radio', { name: 'Call graph' }).click();
  await expect(page.getByTestId('callgraph-legend')).toContainText('Comparison less baseline');
  const box = page.locator(`[data-testid="callgraph-node"][data-name="${name}"]`);
  const grew = R.functions[name].cum - L.functions[name].cum;
  await expect(box).toHaveAttribute('data-cum', String(grew));
  const stroke = await box.locator('rect').getAttribute('stroke');
  const [r, g] = [1, 3].map((i) => parseInt(stroke!.slice(i, i + 2), 16));
  expect(grew > 0 ? r > g : g > r, `${name} ${grew > 0 ? 'grew' : 'shrank'}: ${stroke}`).toBe(true);
  await page.getByRole('radio', { name: 'Call tree' }).click();

  const bar = page.getByTestId('diff-legend-bar');
  await expect(bar).toHaveAttribute('data-from', 'rgb(46, 160, 67)');
  await expect(bar).toHaveAttribute('data-to', 'rgb(218, 54, 51)');
  await page.getByRole('radio', { name: 'Colour-blind' }).click();
  await expect(bar).toHaveAttribute('data-from', 'rgb(33, 113, 181)');
  await expect(bar).toHaveAttribute('data-to', 'rgb(230, 120, 20)');
  // the call graph takes the palette too: orange where it grew, blue where it shrank
  await page.getByRole('radio', { name: 'Call graph' }).click();
  await expect(page.getByTestId('callgraph-legend')).toContainText('orange grew, blue shrank');
  const cb = await box.locator('rect').getAttribute('stroke');
  const [cr, cg, cbl] = [1, 3, 5].map((i) => parseInt(cb!.slice(i, i + 2), 16));
  expect(grew > 0 ? cr > cg && cg > cbl : cbl > cr, `${name} in the colour-blind palette: ${cb}`).toBe(true);
  await page.getByRole('radio', { name: 'Call tree' }).click();
  await screenshot(page, 'views-diff.png');
});

test('header choices are saved as panel options and kept across a reload', async ({ page }) => {
  await open(page);
  await page.getByRole('radio', { name: 'Call tree' }).click();
  await page.getByRole('radio', { name: 'Right' }).click();
  await page.getByLabel('Collapse chains').click({ force: true });
  await page.getByLabel('Search functions').fill('main\\., compress');
  await page.getByLabel('Search functions').press('Enter');
  const s = searchStats(flame, /main\.|compress/i);
  const result = `${s.count} match${s.count === 1 ? '' : 'es'}`;
  await expect(page.getByTestId('flamegraph-search-result')).toContainText(result);
  await page.reload();
  await expect(page.getByTestId('call-tree')).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Call tree' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Right' })).toBeChecked();
  await expect(page.getByLabel('Collapse chains')).not.toBeChecked();
  await expect(page.getByLabel('Search functions')).toHaveValue('main\\., compress');
  await expect(page.getByTestId('flamegraph-search-result')).toContainText(result);
  // Escape in the search box clears it and resets
  await page.getByLabel('Search functions').press('Escape');
  await expect(page.getByLabel('Search functions')).toHaveValue('');
});

test('the header wraps without clipping at 1280×800 and at 200 % zoom', async ({ page }) => {
  for (const size of [
    { width: 1280, height: 800 },
    { width: 640, height: 400 },
  ]) {
    await page.setViewportSize(size);
    await open(page);
    const box = (await page.getByTestId('flamegraph-view').boundingBox())!;
    for (const label of ['Flame graph', 'Sandwich', 'Right']) {
      const b = (await page.getByRole('radio', { name: label }).locator('..').boundingBox())!;
      expect(b.x + b.width, `${label} inside the panel at ${size.width}px`).toBeLessThanOrEqual(box.x + box.width + 1);
    }
    const c = (await page.getByRole('button', { name: 'Collapse all' }).boundingBox())!;
    expect(c.x + c.width).toBeLessThanOrEqual(box.x + box.width + 1);
    await screenshot(page, `views-header-${size.width}.png`);
  }
});
