import { expect, Page, Request, test } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { ingestRealProfile, Playground, REPO } from '../support/playground';
import { buildHarness, startPlaygroundServing } from './server';

const SHOTS = path.join(REPO, 'test-results', 'screenshots');
const SERVICE = 'e2e-editor';
const CPU = 'process_cpu:cpu:nanoseconds:cpu:nanoseconds';

let pg: Playground;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const dir = buildHarness();
  pg = await startPlaygroundServing(dir);
  // two real runtime/pprof CPU profiles labelled route=/api/orders and route=/api/archive
  await ingestRealProfile(pg.storeUrl, SERVICE);
  await ingestRealProfile(pg.storeUrl, SERVICE);
});

test.afterAll(async () => {
  await pg?.stop();
});

/** The query the page ran last, as it sent it. */
async function lastRun(page: Page) {
  const text = await page.getByTestId('last-run').textContent();
  return JSON.parse(text || '{}');
}

const suggestions = (page: Page) => page.getByRole('listbox').getByRole('option');

async function open(page: Page) {
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
  await expect(suggestions(page)).toHaveText(['route', 'service_name']);
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
  await expect(page.getByTestId('series-count')).toHaveText('1 series');
  await page.screenshot({ path: path.join(SHOTS, 'editor-01-completion.png') });

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
  await expect(suggestions(page)).toHaveText(['route']);
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
  await expect(page.getByTestId('series-count')).toHaveText('1 series');
  await page.getByRole('radio', { name: 'Profile' }).click();
  await expect.poll(async () => (await lastRun(page)).queryType).toBe('profile');
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  await expect(page.getByTestId('series-count')).toHaveText('0 series');
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
  await expect(page.getByTestId('series-names')).toContainText('{route="/api/archive"}');
  await expect(page.getByTestId('series-names')).toContainText('{route="/api/orders"}');
  const n = Number((await page.getByTestId('series-count').textContent())!.split(' ')[0]);
  expect(n === 2 || n === 3).toBe(true);
  await page.screenshot({ path: path.join(SHOTS, 'editor-02-group-by.png') });
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
  await expect(page.getByTestId('flame-range')).toHaveText(`flamegraph of ${body.from}–${body.to}`);
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
