// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { expect, Page, Request, test } from '@playwright/test';
import fs from 'node:fs';
import { ingestRealProfile, Playground, startPlayground } from '../support/playground';
import { screenshot } from '../support/screenshot';

const SERVICE = 'e2e-editor';
const CPU = 'process_cpu:cpu:nanoseconds:cpu:nanoseconds';

let pg: Playground;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  pg = await startPlayground();
  // two real runtime/pprof CPU profiles labelled route=/api/orders and route=/api/archive
  await ingestRealProfile(pg.storeUrl, SERVICE);
  await ingestRealProfile(pg.storeUrl, SERVICE);
});

test.afterAll(async () => {
  await pg?.stop();
});

/** The queries the page sent to /api/ds/query, in order (see open). */
const sentQueries = new WeakMap<Page, Array<Record<string, unknown>>>();

/** The query the page ran last, as it sent it (not counting a series point's flamegraph). */
async function lastRun(page: Page) {
  const sent = (sentQueries.get(page) ?? []).filter((q) => !q.selection);
  return sent[sent.length - 1] ?? {};
}

/** Series names in the series graph's legend. */
const legend = (page: Page) => page.getByTestId('series-legend-item');

const suggestions = (page: Page) => page.getByRole('listbox').getByRole('option');

async function open(page: Page) {
  const sent: Array<Record<string, unknown>> = [];
  sentQueries.set(page, sent);
  let lastMain: string | undefined;
  page.on('request', (r: Request) => {
    if (r.url().endsWith('/api/ds/query') && r.method() === 'POST') {
      const body = JSON.parse(r.postData() || '{}');
      const q = body.queries?.[0] ?? {};
      // a series point's flamegraph: the ran query as a profile over a narrower range
      const selection = lastMain !== undefined && q.queryType === 'profile' && body.from !== lastMain;
      if (!selection) {
        lastMain = body.from;
      }
      sent.push({ ...q, selection });
    }
  });
  await page.goto(pg.url + '/');
  // the editor picks the CPU type by itself from the profileTypes resource
  await expect(page.getByLabel('Profile type')).toHaveValue('process_cpu / cpu');
}

/** Types the selector with completion and runs it with Shift+Enter. */
async function selectService(page: Page) {
  const input = page.getByRole('combobox', { name: 'Label selector' });
  await input.click();
  await input.press('Control+a');
  await input.press('Backspace');
  await input.pressSequentially('{');
  await expect(suggestions(page)).toHaveText(['pyroscope_spy', 'route', 'service_name']);
  await input.pressSequentially('serv');
  await expect(suggestions(page)).toHaveText(['service_name']);
  await input.press('Enter');
  await input.pressSequentially('="');
  await expect(suggestions(page).filter({ hasText: SERVICE })).toHaveCount(1);
  await input.pressSequentially('e2e-ed');
  await expect(suggestions(page)).toHaveText([SERVICE + 'service_name']);
  await input.press('Enter');
  await input.pressSequentially('}');
  await expect(input).toHaveValue(`{service_name="${SERVICE}"}`);
  await input.press('Shift+Enter');
  await expect.poll(async () => (await lastRun(page)).labelSelector).toBe(`{service_name="${SERVICE}"}`);
}

test('typing a selector and a query text with completion', async ({ page }) => {
  await open(page);
  await selectService(page);
  await expect(page.getByTestId('matcher-chip-1')).toContainText(SERVICE);
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  await expect(legend(page)).toHaveCount(1);
  await screenshot(page, 'editor-01-completion.png');

  const text = page.getByRole('combobox', { name: 'Query text' });
  await text.click();
  await text.pressSequentially('rev');
  await expect(suggestions(page)).toHaveText(['reversereverse(q)']);
  await text.press('Enter');
  await expect(text).toHaveValue('reverse(');
  await text.pressSequentially('process_cpu');
  await expect(suggestions(page).first()).toContainText(CPU);
  await text.press('Enter');
  await text.pressSequentially('{ro');
  await expect(suggestions(page)).toHaveText(['route', 'pyroscope_spy']);
  await text.press('Enter');
  await text.pressSequentially('=');
  await expect(suggestions(page)).toHaveText(['/api/archiveroute', '/api/ordersroute']);
  await text.press('ArrowDown');
  await text.press('Enter');
  await text.pressSequentially('})');
  await expect(text).toHaveValue(`reverse(${CPU}{route="/api/orders"})`);
  await text.press('Shift+Enter');
  await expect.poll(async () => (await lastRun(page)).expr).toBe(`reverse(${CPU}{route="/api/orders"})`);
  await expect(page.getByTestId('query-error')).toHaveCount(0);
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
});

test('switching the query type', async ({ page }) => {
  await open(page);
  await selectService(page);
  await page.getByTestId('options-summary').click();
  await page.getByRole('radio', { name: 'Metric' }).click();
  await expect.poll(async () => (await lastRun(page)).queryType).toBe('metrics');
  await expect(page.getByTestId('options-summary')).toHaveText('Type: metrics, Max nodes: 16384');
  await expect(page.getByTestId('flamegraph-canvas')).toHaveCount(0);
  await expect(legend(page)).toHaveCount(1);
  await page.getByRole('radio', { name: 'Profile' }).click();
  await expect.poll(async () => (await lastRun(page)).queryType).toBe('profile');
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  await expect(page.getByTestId('series-graph')).toHaveCount(0);
});

test('picking a group-by gives one series per value', async ({ page }) => {
  await open(page);
  await selectService(page);
  await page.getByTestId('options-summary').click();
  await page.getByLabel('Group by').click();
  await page.getByText('route', { exact: true }).click();
  await expect.poll(async () => (await lastRun(page)).groupBy).toEqual(['route']);
  await expect(page.getByTestId('options-summary')).toHaveText('Type: both, Group by: route, Max nodes: 16384');
  // one series per route, plus the samples without a route label (runtime work outside pprof.Do)
  await expect(legend(page).filter({ hasText: '{route="/api/archive"}' })).toHaveCount(1);
  await expect(legend(page).filter({ hasText: '{route="/api/orders"}' })).toHaveCount(1);
  const n = await legend(page).count();
  expect(n === 2 || n === 3).toBe(true);
  await screenshot(page, 'editor-02-group-by.png');
});

test('clicking a series point loads that point’s flamegraph', async ({ page }) => {
  await open(page);
  await selectService(page);
  const point = page.getByTestId('series-graph').locator('circle').first();
  await expect(point).toBeVisible();
  const sent = page.waitForRequest(
    (r: Request) =>
      r.url().endsWith('/api/ds/query') && JSON.parse(r.postData() || '{}').queries?.[0]?.queryType === 'profile'
  );
  await point.click();
  const body = JSON.parse((await sent).postData()!);
  const width = Number(body.to) - Number(body.from);
  const run = await lastRun(page);
  expect(body.queries[0].labelSelector).toBe(run.labelSelector);
  // one point's step (15 s minimum step over an hour), not the whole range
  expect(width).toBeGreaterThan(0);
  expect(width).toBeLessThan(3_600_000 / 10);
  const hhmmss = (ms: number) => new Date(ms).toTimeString().slice(0, 8);
  await expect(page.getByTestId('selection-range')).toContainText(
    `flamegraph of ${hhmmss(Number(body.from))}–${hhmmss(Number(body.to))}`
  );
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  await expect(page.getByTestId('series-selection')).toBeVisible();
});

test('Download pprof saves the merged profile of the query, Download JSON the frames shown', async ({ page }) => {
  await open(page);
  await selectService(page);
  const [pprof] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download pprof' }).click(),
  ]);
  expect(pprof.suggestedFilename()).toMatch(/^emberscope-process_cpu-\d{8}T\d{6}Z-\d{8}T\d{6}Z\.pb\.gz$/);
  const bytes = fs.readFileSync((await pprof.path())!);
  // a gzip stream (pprof files are gzipped protobuf)
  expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
  expect(bytes.length).toBeGreaterThan(200);
  await expect(page.getByTestId('export-error')).toHaveCount(0);

  const [json] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download JSON' }).click(),
  ]);
  const frames = JSON.parse(fs.readFileSync((await json.path())!, 'utf8'));
  const names = frames.flatMap((f: { schema: { fields: Array<{ name: string }> } }) =>
    f.schema.fields.map((x) => x.name)
  );
  expect(names).toEqual(expect.arrayContaining(['level', 'value', 'self', 'label', 'time']));
});

test('the Top table query type shows a table of symbols by self and total', async ({ page }) => {
  await open(page);
  await selectService(page);
  await page.getByTestId('options-summary').click();
  // the query editor's query type, not the flamegraph header's view of the same name
  await page.getByTestId('emberscope-query-editor').getByRole('radio', { name: 'Top table' }).click();
  await expect.poll(async () => (await lastRun(page)).queryType).toBe('topTable');
  const table = page.getByTestId('result-table');
  await expect(table).toBeVisible();
  await expect(table.locator('thead th')).toHaveText(['symbol', 'self', 'total']);
  // the functions of the recorded profile (internal/fixtures/profiles/browser.cpu.pb.gz) are rows of the table
  await expect(table.getByTestId('result-table-row').filter({ hasText: 'main.hashBlocks' })).toHaveCount(1);
  await expect(table.getByTestId('result-table-row').filter({ hasText: 'main.compress' })).toHaveCount(1);
  await expect(page.getByTestId('flamegraph-canvas')).toHaveCount(0);
  await expect(page.getByTestId('series-graph')).toHaveCount(0);
  await screenshot(page, 'editor-03-top-table.png');
});

test('the Novelty query type shows a score series and says when there is too little history', async ({ page }) => {
  await open(page);
  await selectService(page);
  await page.getByTestId('options-summary').click();
  await page.getByRole('radio', { name: 'Novelty' }).click();
  await expect.poll(async () => (await lastRun(page)).queryType).toBe('novelty');
  await expect(page.getByTestId('query-error')).toHaveCount(0);
  await expect(page.getByTestId('series-graph')).toBeVisible();
  await expect(legend(page)).toHaveText(['novelty']);
  await expect(page.getByTestId('series-graph').locator('circle').first()).toBeVisible();
  // two profiles are too few to call one novel
  await expect(page.getByTestId('response-notice')).toHaveText(
    '1 of 1 series have 5 or fewer profiles: a profile can be novel only after 5 of history. Widen the time range.'
  );
  await expect(page.getByTestId('series-marker')).toHaveCount(0);
  await screenshot(page, 'editor-04-novelty.png');
});

test('the legend names each series in its colour and a click hides and shows it', async ({ page }) => {
  await open(page);
  await selectService(page);
  await page.getByTestId('options-summary').click();
  await page.getByLabel('Group by').click();
  await page.getByText('route', { exact: true }).click();
  const orders = legend(page).filter({ hasText: '{route="/api/orders"}' });
  await expect(orders).toHaveAttribute('aria-pressed', 'true');
  const lines = page.getByTestId('series-graph').locator('polyline');
  const before = await lines.count();
  await orders.click();
  await expect(orders).toHaveAttribute('aria-pressed', 'false');
  await expect(lines).toHaveCount(before - 1);
  await orders.click();
  await expect(lines).toHaveCount(before);
});

test('a live query is polled every live interval and says so', async ({ page }) => {
  await open(page);
  await selectService(page);
  await page.getByTestId('options-summary').click();
  await page.getByLabel('Live interval').fill('1s');
  await page.getByLabel('Live window').fill('5m');
  await page.getByLabel('Live window').blur();
  await page.getByTestId('live-switch').click({ force: true });
  await expect.poll(async () => (await lastRun(page)).live).toBe(true);
  await expect(page.getByTestId('live-badge')).toHaveText('live (polling) every 1s, last 5m');
  await expect(page.getByTestId('options-summary')).toContainText('Live: 5m every 1s');
  const sent = sentQueries.get(page)!;
  const n = sent.length;
  // two more runs arrive without anyone pressing anything
  await expect.poll(() => sent.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(n + 2);
  const last = sent[sent.length - 1];
  expect(last).toMatchObject({ live: true, liveWindow: '5m', liveInterval: '1s' });
  await expect(page.getByTestId('query-error')).toHaveCount(0);
});

test('the Labels query type shows each value of the group-by label with its total and share', async ({ page }) => {
  await open(page);
  await selectService(page);
  await page.getByTestId('options-summary').click();
  await page.getByLabel('Group by').click();
  await page.getByText('route', { exact: true }).click();
  await expect.poll(async () => (await lastRun(page)).groupBy).toEqual(['route']);
  await page.getByRole('radio', { name: 'Labels' }).click();
  await expect.poll(async () => (await lastRun(page)).queryType).toBe('labels');
  const table = page.getByTestId('result-table');
  await expect(table.locator('thead th')).toHaveText(['route', 'total', 'share']);
  const orders = table.getByTestId('result-table-row').filter({ hasText: '/api/orders' });
  await expect(orders).toHaveCount(1);
  // a share is a percentage of the whole
  await expect(orders.locator('td').nth(2)).toHaveText(/^\d+(\.\d+)?%$/);
});
