// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { BrowserContext, expect, Page, test } from '@playwright/test';
import { nodeBox } from '../support/canvas';
import { ingestRealProfile, Playground, startPlayground } from '../support/playground';

// "Copy link" carries what the flame graph shows (zoom, view, search, sandwich) into a fresh page
const SERVICE = 'e2e-share';
const EXPR = `process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="${SERVICE}"}`;
const SEARCH = 'main\\.(hashBlocks|parseJSON)';

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

interface Seen {
  found: string;
  sandwich: string;
}

/** Zooms, sets the view, searches and opens the search's sandwich; returns what it shows and the copied link. */
async function lookAndCopy(page: Page): Promise<{ seen: Seen; link: string }> {
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  const b = await nodeBox(page, 'main.handleRequest');
  await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
  await expect(page.getByTestId('flamegraph-breadcrumbs')).toContainText('main.handleRequest');
  const graphView = (p: Page) =>
    p.getByTestId('flamegraph-header').getByRole('radio', { name: 'Flame graph', exact: true });
  await graphView(page).click({ force: true });
  await expect(graphView(page)).toBeChecked();
  await page.getByLabel('Search functions').fill(SEARCH);
  const found = page.getByTestId('flamegraph-search-result');
  await expect(found).toContainText('match');
  await page.getByTestId('search-sandwich').click();
  await expect(page.getByTestId('sandwich-view')).toBeVisible();
  const seen = {
    found: (await found.textContent()) ?? '',
    sandwich: (await page.getByTestId('sandwich-summary').getAttribute('title')) ?? '',
  };
  await page.getByTestId('copy-link').click();
  const link = (await page.getByTestId('copy-link').getAttribute('data-link')) ?? '';
  expect(link).toContain('flame');
  return { seen, link };
}

/** Opens link in a fresh page of context: the same sandwich, search and count, and under it the same zoom and view. */
async function expectSamePicture(context: BrowserContext, link: string, seen: Seen) {
  const fresh = await context.newPage();
  await fresh.goto(link);
  await expect(fresh.getByTestId('sandwich-view')).toBeVisible();
  await expect(fresh.getByTestId('sandwich-summary')).toHaveAttribute('title', seen.sandwich);
  await expect(fresh.getByLabel('Search functions')).toHaveValue(SEARCH);
  await expect(fresh.getByTestId('flamegraph-search-result')).toHaveText(seen.found);
  await fresh.getByTestId('flamegraph-view').press('Escape');
  await expect(fresh.getByTestId('sandwich-view')).toHaveCount(0);
  await expect(fresh.getByTestId('flamegraph-breadcrumbs')).toContainText('main.handleRequest');
  await expect(
    fresh.getByTestId('flamegraph-header').getByRole('radio', { name: 'Flame graph', exact: true })
  ).toBeChecked();
  await expect(fresh.getByTestId('top-table-row')).toHaveCount(0);
  await fresh.close();
}

test('the playground: a copied link reopens the same picture', async ({ page, context }) => {
  await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
  const { seen, link } = await lookAndCopy(page);
  await expectSamePicture(context, link, seen);
});

test('the app: a copied link reopens the same picture', async ({ page, context }) => {
  await page.goto(`${pg.url}/a/emberscope-app/service?from=${from}&to=${to}&service=${SERVICE}`);
  const { seen, link } = await lookAndCopy(page);
  await expectSamePicture(context, link, seen);
});

// a line of the recorded profile, as lines granularity names it (granularity.spec.ts)
const LINE = 'main.compress workloads.go:243';

test('the playground: a link made at lines granularity reopens the lines graph at the same zoom', async ({
  page,
  context,
}) => {
  await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  await page.getByTestId('options-summary').click();
  await page.getByRole('radio', { name: 'Lines' }).click();
  await expect(page.getByTestId('options-summary')).toContainText('Granularity: lines');
  await page.getByLabel('Search functions').fill('workloads\\.go:243');
  const found = page.getByTestId('flamegraph-search-result');
  await expect(found).toContainText('match');
  const b = await nodeBox(page, LINE);
  await page.mouse.click(b.x + Math.min(20, b.width / 2), b.y + b.height / 2);
  await expect(page.getByTestId('flamegraph-breadcrumbs')).toContainText(LINE);
  const seenFound = (await found.textContent()) ?? '';
  await page.getByTestId('copy-link').click();
  const link = (await page.getByTestId('copy-link').getAttribute('data-link')) ?? '';

  const fresh = await context.newPage();
  await fresh.goto(link);
  await expect(fresh.getByTestId('options-summary')).toContainText('Granularity: lines');
  await expect(fresh.getByTestId('flamegraph-breadcrumbs')).toContainText(LINE);
  await expect(fresh.getByLabel('Search functions')).toHaveValue('workloads\\.go:243');
  await expect(fresh.getByTestId('flamegraph-search-result')).toHaveText(seenFound);
  await fresh.close();
});
