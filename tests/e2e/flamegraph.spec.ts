// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { expect, Page, test } from '@playwright/test';
import { fetchFlame, pct, searchStats, widest, Flame } from '../support/frame';
import { nodeBox } from '../support/canvas';
import { ingestRealProfile, Playground, startPlayground } from '../support/playground';
import { screenshot } from '../support/screenshot';

const SERVICE = 'e2e-shop';
const EXPR = `process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="${SERVICE}"}`;

let pg: Playground;
let from: number;
let to: number;
let flame: Flame;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  pg = await startPlayground();
  await ingestRealProfile(pg.storeUrl, SERVICE);
  await ingestRealProfile(pg.storeUrl, SERVICE);
  to = Date.now() + 60_000;
  from = to - 3_600_000;
  flame = await fetchFlame(pg.url, EXPR, from, to);
});

test.afterAll(async () => {
  await pg?.stop();
});

const pageUrl = () => `${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`;

async function open(page: Page) {
  await page.goto(pageUrl());
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  await expect(page.getByTestId('top-table-row').first()).toBeVisible();
}

test('the address opens the query over its range', async ({ page }) => {
  await open(page);
  await expect(page.getByTestId('query-expr')).toHaveValue(EXPR);
  await screenshot(page, '01-opened.png');
});

test('hovering a bar shows its name, total and self', async ({ page }) => {
  await open(page);
  for (const name of ['main.hashBlocks', 'main.compress']) {
    const i = widest(flame, name);
    expect(i, `${name} is in the profile`).toBeGreaterThan(0);
    const b = await nodeBox(page, name);
    await page.mouse.move(b.x + Math.min(20, b.width / 2), b.y + b.height / 2);
    const tip = page.getByTestId('flamegraph-tooltip');
    await expect(tip.getByTestId('tooltip-name')).toHaveText(name);
    await expect(tip.getByTestId('tooltip-total')).toContainText(`(${pct(flame.value[i] / flame.value[0])} of total)`);
    await expect(tip.getByTestId('tooltip-self')).toContainText(`(${pct(flame.self[i] / flame.value[0])} of total)`);
    if (name === 'main.hashBlocks') {
      await screenshot(page, '02-tooltip.png');
    }
  }
});

test('search highlights matches and shows their count and share', async ({ page }) => {
  await open(page);
  const q = 'main\\.(hashBlocks|parseJSON)';
  await page.getByLabel('Search functions').fill(q);
  const s = searchStats(flame, new RegExp(q, 'i'));
  expect(s.count).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('flamegraph-search-result')).toHaveText(
    `${s.count} match${s.count === 1 ? '' : 'es'} · ${pct(s.share)} of total`
  );
  // the table's filter follows the search box in a deferred render: wait for it to catch up, then
  // no row is left that the search does not match
  const rows = page.getByTestId('top-table-row');
  await expect
    .poll(async () => {
      const texts = await rows.allInnerTexts();
      return texts.length > 0 ? texts.filter((r) => !/main\.(hashBlocks|parseJSON)/.test(r)) : ['(no rows)'];
    })
    .toEqual([]);
  await screenshot(page, '03-search.png');
});

test('click zooms into a node and Reset / Esc return to the root', async ({ page }) => {
  await open(page);
  const before = await nodeBox(page, 'main.hashBlocks');
  const handle = await nodeBox(page, 'main.handleRequest');
  await page.mouse.click(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await expect(page.getByTestId('flamegraph-breadcrumbs')).toContainText('main.handleRequest');
  const zoomed = await nodeBox(page, 'main.hashBlocks');
  const canvasW = (await page.getByTestId('flamegraph-canvas').boundingBox())!.width;
  const h = widest(flame, 'main.handleRequest');
  const k = widest(flame, 'main.hashBlocks');
  expect(zoomed.width).toBeGreaterThan(before.width);
  expect(zoomed.width).toBeCloseTo((flame.value[k] / flame.value[h]) * canvasW, 0);
  // the handler now fills the width
  const zh = await nodeBox(page, 'main.handleRequest');
  expect(zh.width).toBeCloseTo(canvasW, 0);
  await screenshot(page, '04-zoomed.png');
  await page.getByRole('button', { name: 'Reset zoom' }).click();
  await expect(page.getByTestId('flamegraph-breadcrumbs')).toHaveCount(0);
  expect((await nodeBox(page, 'main.hashBlocks')).width).toBeCloseTo(before.width, 0);
  // zoom again, then Esc
  await page.mouse.click(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await expect(page.getByTestId('flamegraph-breadcrumbs')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('flamegraph-breadcrumbs')).toHaveCount(0);
});

test('dragging the drawer handle resizes graph and table, and the size is remembered', async ({ page }) => {
  await open(page);
  const table = page.getByTestId('top-table');
  // the graph's box (its canvas comes from a pool and may be wider, clipped to the graph)
  const canvas = page.getByTestId('flamegraph-hit');
  const t0 = (await table.boundingBox())!;
  const c0 = (await canvas.boundingBox())!;
  const h = (await page.getByTestId('drawer-handle').boundingBox())!;
  await page.mouse.move(h.x + h.width / 2, h.y + 40);
  await page.mouse.down();
  await page.mouse.move(h.x + h.width / 2 - 75, h.y + 40, { steps: 4 });
  await page.mouse.move(h.x + h.width / 2 - 150, h.y + 40, { steps: 4 });
  await page.mouse.up();
  const t1 = (await table.boundingBox())!;
  const c1 = (await canvas.boundingBox())!;
  expect(t1.width).toBeCloseTo(t0.width + 150, 0);
  expect(c1.width).toBeCloseTo(c0.width - 150, 0);
  const panel = (await page.getByTestId('panel-box').boundingBox())!;
  expect(t1.x + t1.width).toBeLessThanOrEqual(panel.x + panel.width + 0.5);
  expect(c1.x).toBeGreaterThanOrEqual(panel.x - 0.5);
  await screenshot(page, '05-drawer-resized.png');
  await page.reload();
  await expect(page.getByTestId('top-table-row').first()).toBeVisible();
  expect((await table.boundingBox())!.width).toBeCloseTo(t1.width, 0);
});

/** Fails when a visible element of the page sticks out of the viewport or the page scrolls sideways. */
async function expectNothingCutOff(page: Page) {
  const problems = await page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > vw + 1) {
      out.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${vw}`);
    }
    const ids = [
      'query-row',
      'series-graph',
      'flamegraph-search',
      'flamegraph-search-result',
      // the graph's box: its pooled canvas may be wider than the graph and is clipped to it
      'flamegraph-hit',
      'top-table',
      'drawer-handle',
      'run-query',
    ];
    for (const id of ids) {
      for (const el of Array.from(document.querySelectorAll(`[data-testid="${id}"]`))) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) {
          continue;
        }
        if (r.left < -0.5 || r.right > vw + 0.5) {
          out.push(`${id}: ${Math.round(r.left)}..${Math.round(r.right)} outside 0..${vw}`);
        }
      }
    }
    return out;
  });
  expect(problems).toEqual([]);
}

for (const [zoom, label] of [
  [0.5, '50'],
  [2, '200'],
] as const) {
  test(`at ${label}% page zoom nothing is cut off and the canvas is sharp`, async ({ browser }) => {
    // browser zoom z on a 1280×900 window = CSS viewport 1280/z × 900/z at device pixel ratio z
    const context = await browser.newContext({
      viewport: { width: Math.round(1280 / zoom), height: Math.round(900 / zoom) },
      deviceScaleFactor: zoom,
    });
    const page = await context.newPage();
    await open(page);
    await expectNothingCutOff(page);
    const canvas = page.getByTestId('flamegraph-canvas');
    const size = await canvas.evaluate((el) => {
      const c = el as HTMLCanvasElement;
      return { w: c.width, h: c.height, cssW: c.clientWidth, cssH: c.clientHeight, dpr: window.devicePixelRatio };
    });
    expect(size.dpr).toBe(zoom);
    expect(size.w).toBe(Math.round(size.cssW * zoom));
    expect(size.h).toBe(Math.round(size.cssH * zoom));
    await screenshot(page, `06-zoom-${label}.png`);
    await context.close();
  });
}

test('in a 400 px wide panel nothing is cut off and a toggle switches graph and table', async ({ browser }) => {
  // page padding is 8 px on each side, so a 416 px viewport gives a 400 px panel
  const context = await browser.newContext({ viewport: { width: 416, height: 800 } });
  const page = await context.newPage();
  await page.goto(pageUrl());
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  expect(Math.round((await page.getByTestId('panel-box').boundingBox())!.width)).toBe(400);
  await expectNothingCutOff(page);
  await screenshot(page, '07-narrow-graph.png');
  await page.getByRole('radio', { name: 'Top table' }).click();
  await expect(page.getByTestId('top-table')).toBeVisible();
  await expect(page.getByTestId('flamegraph-canvas')).toHaveCount(0);
  await expectNothingCutOff(page);
  await screenshot(page, '08-narrow-table.png');
  await context.close();
});

test('a click on the series loads that range in the flamegraph', async ({ page }) => {
  await open(page);
  const svg = page.getByTestId('series-graph');
  const point = svg.locator('circle').first();
  await expect(point).toBeVisible();
  const pb = (await point.boundingBox())!;
  const answered = page.waitForResponse(
    (r) => r.url().endsWith('/api/ds/query') && r.request().postDataJSON().queries[0].queryType === 'profile'
  );
  await page.mouse.click(pb.x + pb.width / 2, pb.y + pb.height / 2);
  const req = (await answered).request().postDataJSON();
  expect(Number(req.to) - Number(req.from)).toBeLessThan(to - from);
  await expect(page.getByTestId('selection-range')).toBeVisible();
  await expect(page.getByText('Query failed')).toHaveCount(0);
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  // the flamegraph shown is the selected range's: the same as asking for that range directly
  const sel = await fetchFlame(pg.url, EXPR, Number(req.from), Number(req.to));
  const b = await nodeBox(page, 'main.compress');
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  const k = widest(sel, 'main.compress');
  await expect(page.getByTestId('tooltip-total')).toContainText(`(${pct(sel.value[k] / sel.value[0])} of total)`);
  await screenshot(page, '09-range-selected.png');
});

test('group by draws virtual frames and the tooltip names their label', async ({ page }) => {
  const expr = `${EXPR} by (route)`;
  await page.goto(`${pg.url}/?query=${encodeURIComponent(expr)}&from=${from}&to=${to}`);
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  const grouped = await fetchFlame(pg.url, expr, from, to);
  const i = widest(grouped, '/api/orders');
  expect(i, 'a virtual frame for route=/api/orders').toBeGreaterThan(0);
  const b = await nodeBox(page, '/api/orders');
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  const tip = page.getByTestId('flamegraph-tooltip');
  await expect(tip.getByTestId('tooltip-name')).toHaveText('/api/orders');
  await expect(tip.getByTestId('tooltip-label')).toContainText('route=/api/orders');
  await expect(tip.getByTestId('tooltip-total')).toContainText(
    `(${pct(grouped.value[i] / grouped.value[0])} of total)`
  );
  await screenshot(page, '10-virtual-frames.png');
});
