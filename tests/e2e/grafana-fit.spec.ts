// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { Browser, expect, Page, test } from '@playwright/test';
import { nodeBox } from '../support/canvas';
import { ingestPushedProfile, Playground, startPlayground } from '../support/playground';

/**
 * What broke in a real Grafana 12.4, in the playground made as strict as Grafana (panels in a
 * box with `contain: size layout` moved by a transform, dashboard variables and range in the
 * address, series links built by the datasource and processed by @grafana/data's link code):
 * - the step link opens that step's flamegraph, with the total google/pprof gives, from the
 *   Explore-like page and from a dashboard with variables; "Add … to the selector" keeps the
 *   dashboard's range;
 * - the tooltip stays at the cursor in the contained, offset panel;
 * - every query type is reachable at 200 % zoom and at 1280×800.
 *
 * The profile: labeled.cpu.redated.pb.gz, one real CPU profile of 3.77 s taken at
 * 2026-12-01T07:20:00Z, whose samples carry `route` (internal/fixtures/pyroscope/README.md).
 * Per route, `go tool pprof -tags` of the file: /bike 680 ms, /car 640 ms, /scooter 350 ms.
 */

const CPU = 'process_cpu:cpu:nanoseconds:cpu:nanoseconds';
const SERVICE = 'fit';
const PPROF_BY_ROUTE: Record<string, number> = { '/bike': 680e6, '/car': 640e6, '/scooter': 350e6 };
// a dashboard's "last 6 hours" around the profile (07:20)
const FROM = Date.parse('2026-12-01T04:00:00Z');
const TO = Date.parse('2026-12-01T10:00:00Z');

let pg: Playground;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  pg = await startPlayground();
  await ingestPushedProfile(pg.storeUrl, 'labeled.cpu.redated.pb.gz', SERVICE);
});

test.afterAll(async () => {
  await pg?.stop();
});

/** The root total of the flamegraph answers the page gets (the profile queries' root value). */
function profileAnswers(
  page: Page
): Array<{ from: number; to: number; query: Record<string, unknown>; total: number }> {
  const seen: Array<{ from: number; to: number; query: Record<string, unknown>; total: number }> = [];
  page.on('response', async (r) => {
    if (!r.url().endsWith('/api/ds/query')) {
      return;
    }
    const req = r.request().postDataJSON();
    const q = req.queries[0];
    if (q.queryType !== 'profile') {
      return;
    }
    const body = await r.json();
    const frame = body.results[q.refId].frames.find((f: { schema: { fields: Array<{ name: string }> } }) =>
      f.schema.fields.some((x) => x.name === 'level')
    );
    const value = frame.schema.fields.findIndex((x: { name: string }) => x.name === 'value');
    seen.push({ from: Number(req.from), to: Number(req.to), query: q, total: frame.data.values[value][0] });
  });
  return seen;
}

/**
 * Clicks the point of the series of route /car (the circles of the series all sit at the
 * profile's step, the only one with data; the legend names each series, in the circles' order)
 * and returns the links shown for it.
 */
async function clickPoint(page: Page) {
  const svg = page.getByTestId('series-graph');
  await expect(svg.locator('circle').first()).toBeVisible();
  const names = await page.getByTestId('series-legend-item').allInnerTexts();
  const i = names.findIndex((n) => n.includes('route="/car"'));
  expect(i, `the legend lists route="/car": ${names.join(' | ')}`).toBeGreaterThanOrEqual(0);
  const box = (await svg.locator('circle').nth(i).boundingBox())!;
  // the playground also loads the point's range below the series: wait for it
  const selected = page.waitForResponse(
    (r) => r.url().endsWith('/api/ds/query') && r.request().postDataJSON().queries[0].queryType === 'profile'
  );
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await selected;
  const links = page.getByTestId('point-link');
  await expect(links.first()).toBeVisible();
  return links;
}

/** Follows the step link of a clicked point and checks the flamegraph it opens against pprof. */
async function followStepLink(page: Page) {
  const links = await clickPoint(page);
  const titles = await links.allInnerTexts();
  expect(titles[0]).toBe('Flamegraph of this step');
  const route = /Add route="([^"]+)" to the selector/.exec(titles.join('\n'))?.[1];
  expect(route, `a route series: ${titles.join(' | ')}`).toBeDefined();
  const href = (await links.first().getAttribute('href'))!;
  // Grafana interpolated the step from the time fields: numbers, no variable left
  expect(href).not.toContain('$');
  expect(href).not.toContain('NaN');
  const panes = JSON.parse(new URL(href, pg.url).searchParams.get('panes')!);
  const range = panes[Object.keys(panes)[0]].range;
  // the step window in Unix ms, as the time fields hold it: not their display text (a date, or
  // "1.80 Tri" for a text field with the unit "short")
  expect(range.from).toMatch(/^\d+$/);
  expect(range.to).toMatch(/^\d+$/);

  const answers = profileAnswers(page);
  const navigated = page.waitForEvent('framenavigated');
  await links.first().click();
  expect((await navigated).url()).toContain('/explore?schemaVersion=1&panes=');
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  await expect(page.getByText('Query failed')).toHaveCount(0);
  await expect.poll(() => answers.length).toBeGreaterThan(0);
  const a = answers[answers.length - 1];
  // that step: a window of at most the step, holding 07:20:00
  const at = Date.parse('2026-12-01T07:20:00Z');
  expect([a.from, a.to]).toEqual([Number(range.from), Number(range.to)]);
  expect(a.from).toBeLessThanOrEqual(at);
  expect(a.to).toBeGreaterThanOrEqual(at);
  expect(a.to - a.from).toBeLessThan(TO - FROM);
  expect(String(a.query.expr ?? a.query.labelSelector)).toContain(`route="${route}"`);
  expect(a.total).toBe(PPROF_BY_ROUTE[route!]);
}

test('the step link opens that step’s flamegraph with pprof’s total, from the Explore-like page', async ({ page }) => {
  const expr = `${CPU}{service_name="${SERVICE}"} by (route)`;
  await page.goto(`${pg.url}/?query=${encodeURIComponent(expr)}&from=${FROM}&to=${TO}`);
  await followStepLink(page);
});

test('the step link opens that step’s flamegraph from a dashboard with variables', async ({ page }) => {
  const expr = `$profile_type{service_name="$service"} by (route)`;
  const vars = `var-profile_type=${encodeURIComponent(CPU)}&var-service=${SERVICE}`;
  await page.goto(`${pg.url}/?query=${encodeURIComponent(expr)}&${vars}&from=${FROM}&to=${TO}`);
  await followStepLink(page);
});

test('"Add … to the selector" keeps the dashboard’s variables and range', async ({ page }) => {
  const expr = `$profile_type{service_name="$service"} by (route)`;
  const vars = `var-profile_type=${encodeURIComponent(CPU)}&var-service=${SERVICE}`;
  await page.goto(`${pg.url}/?query=${encodeURIComponent(expr)}&${vars}&from=${FROM}&to=${TO}`);
  const links = await clickPoint(page);
  const add = links.filter({ hasText: 'to the selector' }).first();
  const href = (await add.getAttribute('href'))!;
  expect(href).toContain('/explore?left=');
  expect(href).not.toContain('%24service');
  const sent = page.waitForRequest((r) => r.url().endsWith('/api/ds/query'));
  await add.click();
  const body = (await sent).postDataJSON();
  // the dashboard's six hours, not Explore's default hour
  expect([Number(body.from), Number(body.to)]).toEqual([FROM, TO]);
  expect(body.queries[0].profileTypeId ?? body.queries[0].expr).toContain(CPU);
  expect(JSON.stringify(body.queries[0])).toContain(`service_name=\\"${SERVICE}\\"`);
});

test('the tooltip is at the cursor in a contained, transformed, offset panel', async ({ page }) => {
  const expr = `${CPU}{service_name="${SERVICE}"}`;
  await page.goto(`${pg.url}/?query=${encodeURIComponent(expr)}&from=${FROM}&to=${TO}`);
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  const panel = page.getByTestId('panel-box');
  const style = await panel.evaluate((el) => {
    const s = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    return { contain: s.contain, transform: s.transform, top: r.top, left: r.left };
  });
  // as Grafana's panel box: the containing block of fixed descendants, away from (0, 0)
  expect(style.contain).toContain('size');
  expect(style.contain).toContain('layout');
  expect(style.transform).not.toBe('none');
  expect(style.top).toBeGreaterThan(100);
  expect(style.left).toBeGreaterThan(0);

  // runtime.main heads the chain runtime.main → main.main, collapsed into one bar by default
  for (const name of ['total', 'runtime.main']) {
    const b = await nodeBox(page, name);
    const x = Math.round(b.x + Math.min(20, b.width / 2));
    const y = Math.round(b.y + b.height / 2);
    await page.mouse.move(x, y);
    const tip = page.getByTestId('flamegraph-tooltip');
    await expect(tip.getByTestId('tooltip-name')).toHaveText(name);
    const t = (await tip.boundingBox())!;
    // at the cursor + 12 px (or flipped to its other side near the viewport's edge)
    const dx = Math.min(Math.abs(t.x - (x + 12)), Math.abs(t.x + t.width - (x - 12)));
    const dy = Math.min(Math.abs(t.y - (y + 12)), Math.abs(t.y + t.height - (y - 12)));
    expect([name, dx <= 3, dy <= 3]).toEqual([name, true, true]);
  }
});

/** Every query type button can be seen and clicked in the viewport, and "Max nodes" fits its label. */
async function everyControlReachable(browser: Browser, viewport: { width: number; height: number }, scale: number) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: scale });
  const page = await context.newPage();
  const expr = `${CPU}{service_name="${SERVICE}"}`;
  await page.goto(`${pg.url}/?query=${encodeURIComponent(expr)}&from=${FROM}&to=${TO}`);
  await page.getByTestId('options-summary').click();
  const editor = page.getByTestId('emberscope-query-editor');
  const group = page.getByRole('radiogroup', { name: 'Query type' });
  await expect(group).toBeVisible();
  for (const label of ['Metric', 'Profile', 'Both', 'Top table', 'Histogram', 'Labels', 'Diff', 'Novelty']) {
    const button = group.getByRole('radio', { name: label });
    // scroll the page only: scrollIntoView would also scroll a clipping (overflow: hidden) box,
    // bringing into view what a person cannot reach
    await button.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - 40));
    const b = (await button.boundingBox())!;
    const e = (await editor.boundingBox())!;
    const vw = page.viewportSize()!.width;
    // wholly inside the viewport and the editor (Grafana clips what overflows its query row,
    // and a page does not scroll sideways), and not hidden: the point at its centre is it
    expect([label, b.x >= 0, b.x + b.width <= Math.min(vw, e.x + e.width) + 1]).toEqual([label, true, true]);
    const hit = await button.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      // the radio, or its label (Grafana lays one over the other)
      const labels = Array.from((el as HTMLInputElement).labels ?? []);
      return Boolean(at && (el === at || labels.some((l) => l === at || l.contains(at))));
    });
    expect([label, hit]).toEqual([label, true]);
  }
  await group.getByRole('radio', { name: 'Novelty' }).click();
  await expect(page.getByTestId('options-summary')).toContainText('Type: novelty');
  for (const name of ['Max nodes', 'Limit']) {
    const label = page.locator('label', { hasText: name }).first();
    const fits = await label.evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
    expect([name, fits]).toEqual([name, true]);
  }
  await context.close();
}

test('every control is reachable at 200 % zoom', async ({ browser }) => {
  // Chrome's 200 % zoom: twice the device pixels per CSS pixel, so 1280×800 shows 640×400 CSS
  // px (deviceScaleFactor 2 and the viewport halved, rather than CSS zoom, which also scales
  // the page's own measurements); and a window of 960 px at 200 %, as narrow as a query editor
  // in Explore with its outline open
  await everyControlReachable(browser, { width: 640, height: 400 }, 2);
  await everyControlReachable(browser, { width: 480, height: 400 }, 2);
});

test('every control is reachable at 1280×800', async ({ browser }) => {
  await everyControlReachable(browser, { width: 1280, height: 800 }, 1);
});
