// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { expect, Page, test } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { nodeBox } from '../support/canvas';
import { Playground, REPO, redated, startPlayground } from '../support/playground';
import { screenshot } from '../support/screenshot';

/**
 * The app's pages (src/app) hosted by the playground at /a/emberscope-app, on real recorded
 * profiles and on the demo's recorded profiles, checked against google/pprof's totals of the
 * same files (src/shared/testdata/appTotals.json: `go tool pprof -top` and `-tagfocus`).
 */

const PROFILES = path.join(REPO, 'internal', 'fixtures', 'profiles');
const APP = '/a/emberscope-app';
type Totals = { total: number; route: Record<string, number> };
const oracle: {
  profiles: Record<string, Totals>;
  demo: { files: string[]; total: number; vehicle: Record<string, number> };
} = JSON.parse(fs.readFileSync(path.join(REPO, 'src', 'shared', 'testdata', 'appTotals.json'), 'utf8'));
const R1 = oracle.profiles['routes-1.cpu.pb.gz'];
const R2 = oracle.profiles['routes-2.cpu.pb.gz'];
const BROWSER = oracle.profiles['browser.cpu.pb.gz'];
const CATS = oracle.profiles['categories.cpu.pb.gz'];

let pg: Playground;
const MIN = 60_000;
let now: number;
let from: number;
let to: number;
// when the two shop profiles were filed
let t1: number;
let t2: number;

async function push(file: string, service: string, at: number) {
  const body = redated(fs.readFileSync(path.join(PROFILES, file)), new Date(at));
  const name = encodeURIComponent(`app{service_name=${service}}`);
  const res = await fetch(`${pg.storeUrl}/ingest?name=${name}&format=pprof`, { method: 'POST', body });
  expect(res.ok, `ingest ${file}: HTTP ${res.status} ${await res.text()}`).toBe(true);
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  pg = await startPlayground();
  now = Math.floor(Date.now() / MIN) * MIN;
  from = now - 60 * MIN;
  to = now + 2 * MIN;
  t1 = now - 40 * MIN;
  t2 = now - 10 * MIN;
  await push('routes-1.cpu.pb.gz', 'shop', t1);
  await push('routes-2.cpu.pb.gz', 'shop', t2);
  await push('browser.cpu.pb.gz', 'browser', now - 5 * MIN);
  await push('categories.cpu.pb.gz', 'categories', now - 20 * MIN);
  // the demo's recorded profiles, one a minute, as the demo's service
  for (const [i, f] of oracle.demo.files.entries()) {
    await push(path.join('demo-cpu', f), 'ride-share-app', now - (30 - i) * MIN);
  }
});

test.afterAll(async () => {
  await pg?.stop();
});

const url = (p: string, extra = '') => `${pg.url}${APP}/${p}?from=${from}&to=${to}${extra}`;

/** Fails when a visible control or text of the page sticks out of the viewport or the page scrolls sideways. */
async function expectNothingCutOff(page: Page) {
  const problems = await page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > vw + 1) {
      out.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${vw}`);
    }
    const sel = 'button, a, input, h3, h4, td, [data-testid], label';
    for (const el of Array.from(document.querySelectorAll(sel))) {
      // the flame graph panel clips its own canvas and table (its own tests check them)
      if (el.closest('[data-testid="panel-box"]')) {
        continue;
      }
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) {
        continue;
      }
      if (r.left < -0.5 || r.right > vw + 0.5) {
        out.push(`${el.tagName} ${el.getAttribute('data-testid') ?? el.textContent?.slice(0, 30)}: ${Math.round(r.left)}..${Math.round(r.right)} outside 0..${vw}`);
      }
    }
    return out;
  });
  expect(problems).toEqual([]);
}

async function rowTotal(page: Page, service: string) {
  const row = page.locator(`[data-testid="service-row"][data-service="${service}"]`);
  await expect(row).toBeVisible();
  return Number(await row.getAttribute('data-total'));
}

test('the services page lists the services pushed, sorted by total, with pprof totals and shares', async ({ page }) => {
  await page.goto(url('services'));
  await expect(page.getByTestId('service-row')).toHaveCount(4);
  const expected: Record<string, number> = {
    categories: CATS.total,
    shop: R1.total + R2.total,
    'ride-share-app': oracle.demo.total,
    browser: BROWSER.total,
  };
  for (const [s, total] of Object.entries(expected)) {
    expect(await rowTotal(page, s), s).toBe(total);
  }
  const sorted = Object.entries(expected).sort((a, b) => b[1] - a[1]).map(([s]) => s);
  await expect(page.getByTestId('service-link')).toHaveText(sorted);
  const all = Object.values(expected).reduce((a, b) => a + b, 0);
  const shop = page.locator('[data-testid="service-row"][data-service="shop"]');
  const share = ((R1.total + R2.total) / all) * 100;
  await expect(shop.getByTestId('service-share')).toHaveText(`${share.toFixed(share < 10 ? 2 : 1)}%`);
  await expect(shop.getByTestId('service-total')).toHaveText('3.10 s');
  await screenshot(page, 'app-01-services.png');

  // filter by name; the address keeps it
  await page.getByLabel('Filter services by name').fill('sho');
  await expect(page.getByTestId('service-link')).toHaveText(['shop']);
  expect(new URL(page.url()).searchParams.get('q')).toBe('sho');
  await page.reload();
  await expect(page.getByTestId('service-link')).toHaveText(['shop']);
  await expect(page.getByLabel('Filter services by name')).toHaveValue('sho');
});

test('opening a service shows its flame graph with pprof total, and its address reloads to it', async ({ page }) => {
  await page.goto(url('services'));
  await page.locator('[data-testid="service-row"][data-service="ride-share-app"]').getByTestId('service-link').click();
  await expect(page).toHaveURL(/\/a\/emberscope-app\/service\?.*service=ride-share-app/);
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  await expect(page.getByTestId('flame-total')).toHaveAttribute('data-total', String(oracle.demo.total));
  const root = await nodeBox(page, 'total');
  await page.mouse.move(root.x + root.width / 2, root.y + root.height / 2);
  await expect(page.getByTestId('flamegraph-tooltip').getByTestId('tooltip-total')).toContainText('5 s');
  await screenshot(page, 'app-02-service.png');
  await page.reload();
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  await expect(page.getByTestId('flame-total')).toHaveAttribute('data-total', String(oracle.demo.total));
  await expect(page.getByTestId('service-name')).toHaveText('ride-share-app');
});

test('a label value filter narrows the series and the flame graph to the value pprof -tagfocus gives', async ({ page }) => {
  await page.goto(url('labels', '&service=ride-share-app'));
  const card = page.locator('[data-testid="label-card"][data-label="vehicle"]');
  await expect(card).toBeVisible();
  for (const [v, total] of Object.entries(oracle.demo.vehicle)) {
    await expect(card.locator(`[data-testid="label-value"][data-value="${v}"]`)).toHaveAttribute('data-total', String(total));
  }
  await screenshot(page, 'app-03-labels.png');
  await card.getByRole('button', { name: 'Include vehicle=car' }).click();
  await expect(page).toHaveURL(/\/service\?/);
  const car = String(oracle.demo.vehicle.car);
  await expect(page.getByTestId('flame-total')).toHaveAttribute('data-total', car);
  await expect(page.getByTestId('legend-item')).toHaveCount(1);
  await expect(page.getByTestId('legend-item')).toHaveAttribute('data-total', car);
  await expect(page.getByTestId('filter-chip')).toHaveText('vehicle="car"');
  await page.reload();
  await expect(page.getByTestId('flame-total')).toHaveAttribute('data-total', car);

  // exclude: everything but car
  await page.goto(url('labels', '&service=ride-share-app'));
  await card.getByRole('button', { name: 'Exclude vehicle=car' }).click();
  await expect(page.getByTestId('flame-total')).toHaveAttribute('data-total', String(oracle.demo.total - oracle.demo.vehicle.car));

  // the profiles without a route (pprof: the total less every route's -tagfocus total)
  await page.goto(url('labels', '&service=shop'));
  const routes = page.locator('[data-testid="label-card"][data-label="route"]');
  await routes.getByRole('button', { name: 'Include route=(no route)' }).click();
  const tagged = [R1, R2].reduce((n, p) => n + Object.values(p.route).reduce((a, b) => a + b, 0), 0);
  await expect(page.getByTestId('flame-total')).toHaveAttribute('data-total', String(R1.total + R2.total - tagged));
  await expect(page.getByTestId('filter-chip')).toHaveText('route=""');

  // series by a label from the labels API: one series per route of the shop, with -tagfocus totals
  await page.goto(url('service', '&service=shop&by=route'));
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  const legend = page.getByTestId('legend-item');
  await expect(legend.filter({ hasText: '/checkout' })).toHaveAttribute('data-total', String(R1.route['/checkout'] + R2.route['/checkout']));
  await expect(legend.filter({ hasText: '/search' })).toHaveAttribute('data-total', String(R1.route['/search'] + R2.route['/search']));
});

/** Drags on the diff's series across [a, b] (ms). */
async function dragRange(page: Page, a: number, b: number) {
  const box = (await page.getByTestId('diff-series').boundingBox())!;
  // the series' plot area: 8 px padding each side
  const x = (t: number) => box.x + 8 + ((t - from) / (to - from)) * (box.width - 16);
  const y = box.y + box.height / 2;
  await page.mouse.move(x(a), y);
  await page.mouse.down();
  await page.mouse.move((x(a) + x(b)) / 2, y, { steps: 4 });
  await page.mouse.move(x(b), y, { steps: 4 });
  await page.mouse.up();
}

test('a diff of two dragged ranges shows the diff of those ranges', async ({ page }) => {
  await page.goto(url('diff', '&service=shop'));
  await expect(page.getByTestId('diff-series').locator('circle')).toHaveCount(2);
  await dragRange(page, t1 - 5 * MIN, t1 + 5 * MIN);
  await expect(page.getByTestId('band-baseline')).toBeVisible();
  await dragRange(page, t2 - 5 * MIN, t2 + 5 * MIN);
  await expect(page.getByTestId('band-comparison')).toBeVisible();
  const totals = page.getByTestId('diff-totals');
  await expect(totals).toHaveAttribute('data-baseline', String(R1.total));
  await expect(totals).toHaveAttribute('data-comparison', String(R2.total));
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  const root = await nodeBox(page, 'total');
  await page.mouse.move(root.x + root.width / 2, root.y + root.height / 2);
  const tip = page.getByTestId('flamegraph-tooltip');
  await expect(tip.getByTestId('tooltip-baseline')).toHaveText(/Baseline\s*1\.84 s \(100%\)/);
  await expect(tip.getByTestId('tooltip-comparison')).toHaveText(/Comparison\s*1\.26 s \(100%\)/);
  await screenshot(page, 'app-04-diff.png');
  // the address holds both ranges
  await page.reload();
  await expect(page.getByTestId('diff-totals')).toHaveAttribute('data-baseline', String(R1.total));
  await expect(page.getByTestId('diff-totals')).toHaveAttribute('data-comparison', String(R2.total));
});

test('a starred service and a starred view survive a reload', async ({ page }) => {
  await page.goto(url('services'));
  await page.getByRole('button', { name: 'Star browser' }).click();
  await expect(page.getByRole('button', { name: 'Unstar browser' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Unstar browser' })).toBeVisible();
  await page.goto(url('labels', '&service=shop'));
  await page.getByTestId('star-view').click();
  await expect(page.getByTestId('star-view')).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await expect(page.getByTestId('star-view')).toHaveAttribute('aria-pressed', 'true');
  await page.goto(url('favourites'));
  await expect(page.getByTestId('favourite')).toHaveCount(2);
  await page.reload();
  await expect(page.getByTestId('favourite')).toHaveCount(2);
  await page.getByTestId('favourite').filter({ hasText: 'browser' }).getByRole('link').click();
  await expect(page.getByTestId('service-name')).toHaveText('browser');
  await expect(page.getByTestId('flame-total')).toHaveAttribute('data-total', String(BROWSER.total));
});

test('spans and novelty: the heatmap opens a slot, the novelty score is drawn', async ({ page }) => {
  await page.goto(url('spans', '&service=shop'));
  await expect(page.getByTestId('heat-cell')).toHaveCount(2);
  await expect(page.getByTestId('novelty-series')).toBeVisible();
  await screenshot(page, 'app-05-spans.png');
  await page.reload();
  await expect(page.getByTestId('heat-cell')).toHaveCount(2);
  // the cell's profile has its exemplar drawn on the cell: click the cell where the exemplar is not
  await expect(page.getByTestId('heat-exemplar')).toHaveCount(2);
  const cell = page.getByTestId('heat-cell').first();
  const box = (await cell.boundingBox())!;
  const spot = await cell.evaluate((el) => {
    const r = el.getBoundingClientRect();
    for (let fx = 0.05; fx < 1; fx += 0.1) {
      for (const fy of [0.5, 0.1, 0.9]) {
        const x = r.left + fx * r.width;
        const y = r.top + fy * r.height;
        if (document.elementFromPoint(x, y) === el) {
          return { x: x - r.left, y: y - r.top };
        }
      }
    }
    return undefined;
  });
  expect(spot, `a spot of the cell (${box.width}×${box.height}) not under its exemplar`).toBeTruthy();
  await cell.click({ position: spot! });
  // the slot's range holds the first profile and not the second
  const opened = new URL(page.url()).searchParams;
  expect(Number(opened.get('from'))).toBeLessThanOrEqual(t1);
  expect(Number(opened.get('to'))).toBeGreaterThan(t1);
  expect(Number(opened.get('to'))).toBeLessThan(t2);
  await expect(page.getByTestId('flame-total')).toHaveAttribute('data-total', String(R1.total));
});

test('Open in Explore and Add to dashboard carry the same query', async ({ page }) => {
  await page.goto(url('service', '&service=shop&f=route%3D%22%2Fsearch%22'));
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  let posted: { dashboard: { panels: Array<{ targets: Array<{ labelSelector: string; profileTypeId: string }> }> } } | undefined;
  // the playground has no dashboards API: answer Grafana's, and keep what the app sent
  await page.route('**/api/dashboards/db', async (route) => {
    posted = route.request().postDataJSON();
    await route.fulfill({ json: { url: `${APP}/favourites`, uid: 'x', status: 'success' } });
  });
  await page.getByTestId('add-dashboard').click();
  await expect(page).toHaveURL(/favourites/);
  const targets = posted!.dashboard.panels.flatMap((p) => p.targets);
  expect(targets.map((t) => t.labelSelector)).toEqual(['{service_name="shop", route="/search"}', '{service_name="shop", route="/search"}']);
  await page.goBack();
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  await page.getByTestId('open-explore').click();
  const u = new URL(page.url());
  expect(u.pathname).toBe('/explore');
  const panes = JSON.parse(u.searchParams.get('panes')!);
  const q = Object.values(panes as Record<string, { queries: Array<{ labelSelector: string }> }>)[0].queries[0];
  expect(q.labelSelector).toBe('{service_name="shop", route="/search"}');
});

for (const [zoom, label] of [
  [1, '100'],
  [2, '200'],
] as const) {
  test(`at ${label}% zoom on 1280×800 every page is usable, nothing cut off`, async ({ browser }) => {
    const context = await browser.newContext({
      viewport: { width: Math.round(1280 / zoom), height: Math.round(800 / zoom) },
      deviceScaleFactor: zoom,
    });
    const page = await context.newPage();
    const views: Array<[string, string, string]> = [
      ['services', '', 'service-row'],
      ['service', '&service=shop&by=route', 'flamegraph-canvas'],
      ['labels', '&service=shop', 'label-card'],
      ['diff', `&service=shop&bFrom=${t1 - 5 * MIN}&bTo=${t1 + 5 * MIN}&cFrom=${t2 - 5 * MIN}&cTo=${t2 + 5 * MIN}`, 'flamegraph-canvas'],
      ['spans', '&service=shop', 'heat-cell'],
      ['favourites', '', 'no-favourites'],
      ['openfile', '', 'openfile-drop'],
    ];
    for (const [p, extra, ready] of views) {
      await page.goto(url(p, extra));
      await expect(page.getByTestId(ready).first()).toBeVisible();
      await expectNothingCutOff(page);
      await screenshot(page, `app-zoom-${label}-${p}.png`);
    }
    await context.close();
  });
}
