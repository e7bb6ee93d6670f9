// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { expect, Page, test } from '@playwright/test';
import { ingestRealProfile, Playground, startPlayground } from '../support/playground';

/**
 * The panel's header: its search box and controls come in the graph's first frame on one row, the
 * graph never moves, and what a search found sits inside the search box.
 */

const SERVICE = 'e2e-header';
const EXPR = `process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="${SERVICE}"}`;

let pg: Playground;
let from: number;
let to: number;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  pg = await startPlayground();
  await ingestRealProfile(pg.storeUrl, SERVICE);
  to = Date.now() + 60_000;
  from = to - 3_600_000;
});

test.afterAll(async () => {
  await pg?.stop();
});

/**
 * Records, at every animation frame (before its paint), whether the header's search box is in the
 * page, the header's height and the graph's box, from the first frame with a graph on.
 */
function recordFrames(page: Page) {
  return page.addInitScript(() => {
    const frames: Array<{ search: boolean; header: number; graph: number[] }> = [];
    (window as Window & { __frames?: typeof frames }).__frames = frames;
    const tick = () => {
      const hit = document.querySelector('[data-testid="flamegraph-hit"]');
      const header = document.querySelector('[data-testid="flamegraph-header"]');
      if (hit && header) {
        const r = hit.getBoundingClientRect();
        frames.push({
          search: document.querySelector('[data-testid="flamegraph-search"]') !== null,
          header: header.getBoundingClientRect().height,
          graph: [r.x, r.y, r.width, r.height],
        });
      }
      if (frames.length < 20) {
        requestAnimationFrame(tick);
      }
    };
    requestAnimationFrame(tick);
  });
}

const recorded = (page: Page) =>
  page.evaluate(
    () => (window as Window & { __frames?: Array<{ search: boolean; header: number; graph: number[] }> }).__frames ?? []
  );

for (const theme of ['light', 'dark'] as const) {
  test(`the header comes with the graph on one row and the graph never moves (${theme} theme)`, async ({ page }) => {
    await page.setViewportSize({ width: 1600, height: 900 });
    await recordFrames(page);
    await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}&theme=${theme}`);
    await expect(page.getByTestId('flamegraph-search')).toBeVisible();
    await expect.poll(async () => (await recorded(page)).length).toBeGreaterThan(3);
    const frames = await recorded(page);
    // the graph's first frame has the search box and the controls, on one row
    expect(frames[0]).toMatchObject({ search: true, header: 38 });
    for (const f of frames) {
      expect(f.header).toBe(38);
      expect(f.graph).toEqual(frames[0].graph);
    }
    await expect(page.getByTestId('header-controls')).toBeVisible();
  });
}

test('typing a search keeps the header on one row and the graph where it was; its count is in the box', async ({
  page,
}) => {
  // 1,280 px: the row holds the search box and the controls with a few px to spare
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
  await expect(page.getByTestId('header-controls')).toBeVisible();
  const header = page.getByTestId('flamegraph-header');
  const graph = page.getByTestId('flamegraph-hit');
  const before = { header: (await header.boundingBox())!, graph: (await graph.boundingBox())! };
  expect(before.header.height).toBe(38);
  await page.getByLabel('Search functions').fill('main');
  const result = page.getByTestId('flamegraph-search-result');
  await expect(result).toHaveAttribute('title', /^\d+ match(es)? · [\d.]+% of total$/);
  // the count, the sandwich and Clear sit inside the search box, right of what was typed
  const box = (await page.getByLabel('Search functions').boundingBox())!;
  for (const el of [result, page.getByTestId('search-sandwich'), page.getByRole('button', { name: 'Clear search' })]) {
    const r = (await el.boundingBox())!;
    expect(r.x).toBeGreaterThanOrEqual(box.x);
    expect(r.x + r.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
  }
  // what is typed keeps its room: the input's text area, between its paddings, ends where the suffix starts
  const text = await page.getByLabel('Search functions').evaluate((e) => {
    const cs = getComputedStyle(e);
    return e.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  });
  expect(text).toBeGreaterThanOrEqual(60);
  expect({ header: (await header.boundingBox())!, graph: (await graph.boundingBox())! }).toEqual(before);
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(page.getByLabel('Search functions')).toHaveValue('');
  await expect(result).toHaveCount(0);
});
