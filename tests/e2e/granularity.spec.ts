// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { pct } from '../support/frame';
import { nodeBox } from '../support/canvas';
import { ingestRealProfile, Playground, REPO, startPlayground } from '../support/playground';

/**
 * Line granularity in the playground: the real browser.cpu.pb.gz pushed once into the embedded
 * store, "Lines" picked in the query options, and a line of main.compress shown as
 * `main.compress workloads.go:243` with the self and total that google/pprof's own
 * `-top -lines` report gives (internal/fixtures/profiles/browser.cpu.lines.txt, checked in
 * beside the profile and kept true by internal/pproforacle's TestCheckedInReports).
 */

const SERVICE = 'e2e-lines';
const EXPR = `process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="${SERVICE}"}`;
const REPORTS = path.join(REPO, 'internal', 'fixtures', 'profiles');

type Line = { flat: number; cum: number };

/** The rows of pprof's -top report in file: name (without the inline mark), flat and cum. */
function readRows(file: string): { total: number; rows: Array<{ name: string } & Line> } {
  const text = fs.readFileSync(path.join(REPORTS, file), 'utf8');
  const head = text.match(/^Showing nodes accounting for (\d+)ns, [0-9.]+% of (\d+)ns total/m);
  expect(head, `${file} has its total line`).toBeTruthy();
  const rows: Array<{ name: string } & Line> = [];
  for (const row of text.split('\n')) {
    const m = row.match(/^\s*(\d+)(?:ns)?\s+\S+\s+\S+\s+(\d+)(?:ns)?\s+\S+\s+(.+?)( \((?:partial-)?inline\))?$/);
    if (m) {
      rows.push({ name: m[3], flat: Number(m[1]), cum: Number(m[2]) });
    }
  }
  return { total: Number(head![1]), rows };
}

/** pprof's -top -lines report: per row, named as the panel names lines (the file's directory dropped). */
function readReport(): { total: number; lines: Map<string, Line> } {
  const { total, rows } = readRows('browser.cpu.lines.txt');
  const lines = new Map<string, Line>();
  for (const r of rows) {
    const cut = r.name.lastIndexOf(' ');
    const place = r.name.slice(cut + 1);
    const name = `${r.name.slice(0, cut)} ${place.slice(place.lastIndexOf('/') + 1)}`;
    expect(lines.has(name), `${name} is one row of pprof -lines`).toBe(false);
    lines.set(name, { flat: r.flat, cum: r.cum });
  }
  return { total, lines };
}

const LINE = 'main.compress workloads.go:243';

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

test('lines granularity names a line pkg.Func file.go:123 with the self and total of pprof -lines', async ({
  page,
}) => {
  const report = readReport();
  const want = report.lines.get(LINE);
  expect(want, `${LINE} is a row of pprof's report`).toBeTruthy();
  expect(report.lines.size).toBeGreaterThan(50);

  await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  await expect(page.getByTestId('top-table-row').first()).toBeVisible();
  await page.getByTestId('options-summary').click();
  await expect(page.getByRole('radio', { name: 'Functions' })).toBeChecked();
  await page.getByRole('radio', { name: 'Lines' }).click();
  await expect(page.getByTestId('options-summary')).toContainText('Granularity: lines');

  // the flamegraph draws the line as a node of its own, named as pprof's graph names it
  const row = page.locator(`[data-testid="top-table-row"][title="${LINE}"]`);
  await page.getByLabel('Search functions').fill('main\\.compress workloads\\.go:243');
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  const b = await nodeBox(page, LINE);
  await page.mouse.move(b.x + Math.min(20, b.width / 2), b.y + b.height / 2);
  await expect(page.getByTestId('flamegraph-tooltip').getByTestId('tooltip-name')).toHaveText(LINE);

  // the top table's row of that line: self and total as shares of the whole, as pprof -lines has them
  const cells = row.getByRole('cell');
  await expect(cells.nth(1)).toHaveAttribute('title', pct(want!.flat / report.total));
  await expect(cells.nth(2)).toHaveAttribute('title', pct(want!.cum / report.total));

  // every row of the table is a line of pprof's report with its self and total
  await page.getByLabel('Search functions').fill('');
  // the table's filter follows the search box in a deferred render: wait for the whole table
  await expect.poll(() => page.getByTestId('top-table-row').count(), { timeout: 30_000 }).toBeGreaterThan(5);
  const texts = await page.getByTestId('top-table-row').evaluateAll((rows) =>
    rows.map((r) => ({
      name: r.getAttribute('title') ?? '',
      self: r.querySelectorAll('[role=cell]')[1]?.getAttribute('title') ?? '',
      total: r.querySelectorAll('[role=cell]')[2]?.getAttribute('title') ?? '',
    }))
  );
  expect(texts.length).toBeGreaterThan(5);
  for (const t of texts) {
    if (t.name === 'total') {
      continue;
    }
    const line = report.lines.get(t.name);
    expect(line, `${t.name} is a row of pprof -lines`).toBeTruthy();
    expect(t.self, t.name).toBe(pct(line!.flat / report.total));
    expect(t.total, t.name).toBe(pct(line!.cum / report.total));
  }
});

for (const [label, size] of [
  ['1280×800', { width: 1280, height: 800 }],
  // 200 % zoom of a 1280×800 window lays the page out in 640×400 CSS pixels
  ['1280×800 at 200 % zoom', { width: 640, height: 400 }],
] as const) {
  test(`the granularity control is reachable at ${label}`, async ({ page }) => {
    await page.setViewportSize(size);
    await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
    await page.getByTestId('options-summary').click();
    for (const name of ['Functions', 'Lines', 'Files']) {
      const radio = page.getByRole('radio', { name });
      await radio.scrollIntoViewIfNeeded();
      // the radio input is visually hidden; its label is what the user sees and clicks
      const box = (await page.locator(`label[for="${await radio.getAttribute('id')}"]`).boundingBox())!;
      expect(box, `${name} is laid out`).toBeTruthy();
      expect(box.x, `${name} starts inside the window`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${name} ends inside the window`).toBeLessThanOrEqual(size.width);
    }
    await page.getByRole('radio', { name: 'Files' }).click();
    await expect(page.getByTestId('options-summary')).toContainText('Granularity: files');
    await expect(page.getByRole('radio', { name: 'Files' })).toBeChecked();
  });
}

test('files granularity names a file by its path with the self of pprof -files', async ({ page }) => {
  // pprof -files prints a row per file and function start line: a file's flat is their sum
  const { total, rows } = readRows('browser.cpu.files.txt');
  const file = rows.find((r) => r.name.endsWith('/record/workloads.go'))!.name;
  const flat = rows.filter((r) => r.name === file).reduce((s, r) => s + r.flat, 0);
  expect(flat).toBeGreaterThan(0);
  await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
  await expect(page.getByTestId('top-table-row').first()).toBeVisible();
  await page.getByTestId('options-summary').click();
  await page.getByRole('radio', { name: 'Files' }).click();
  await page.getByLabel('Search functions').fill('/record/workloads\\.go$');
  const row = page.locator(`[data-testid="top-table-row"][title="${file}"]`);
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  await expect(row.getByRole('cell').nth(1)).toHaveAttribute('title', pct(flat / total));
  const b = await nodeBox(page, file);
  expect(b.width).toBeGreaterThan(0);

  // the address carries the whole query (json), so a reload opens the files view again
  await expect.poll(() => JSON.parse(new URL(page.url()).searchParams.get('json') ?? '{}').granularity).toBe('files');
  await page.reload();
  await expect(page.getByTestId('options-summary')).toContainText('Granularity: files');
  await expect(page.getByTestId('top-table-row').first()).toBeVisible();
  await page.getByLabel('Search functions').fill('/record/workloads\\.go$');
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  await expect(row.getByRole('cell').nth(1)).toHaveAttribute('title', pct(flat / total));
});
