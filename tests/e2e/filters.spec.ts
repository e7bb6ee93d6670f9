// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { expect, Page, test } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { nodeBox } from '../support/canvas';
import { pct } from '../support/frame';
import { ingestRealProfile, Playground, REPO, startPlayground } from '../support/playground';

/**
 * Ignore, hide, relative percentages and the inverted flame graph, set in the header of the
 * playground's panel on the real browser.cpu.pb.gz. The expected numbers are google/pprof's own
 * `-top` reports of that profile, checked in beside it (internal/fixtures/profiles/*.top.txt:
 * plain, `-ignore=sha256`, `-hide='^runtime\.'`).
 */

const SERVICE = 'e2e-filters';
const EXPR = `process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="${SERVICE}"}`;
const REPORTS = path.join(REPO, 'internal', 'fixtures', 'profiles');

interface Report {
  /** What the rows account for. */
  shown: number;
  /** What pprof's percentages are of. */
  of: number;
  rows: Map<string, { flat: number; cum: number }>;
}

/** A pprof -top -unit=ns report: its header's totals and its rows by name (inline mark dropped). */
function readReport(file: string): Report {
  const text = fs.readFileSync(path.join(REPORTS, file), 'utf8');
  const head = text.match(/^Showing nodes accounting for (\d+)(?:ns)?, [0-9.]+% of (\d+)(?:ns)? total/m);
  expect(head, `${file} has its total line`).toBeTruthy();
  const rows = new Map<string, { flat: number; cum: number }>();
  for (const row of text.split('\n')) {
    const m = row.match(/^\s*(\d+)(?:ns)?\s+\S+\s+\S+\s+(\d+)(?:ns)?\s+\S+\s+(.+?)( \((?:partial-)?inline\))?$/);
    if (m) {
      rows.set(m[3], { flat: Number(m[1]), cum: Number(m[2]) });
    }
  }
  return { shown: Number(head![1]), of: Number(head![2]), rows };
}

/** The top table as the page shows it: each row's name and its self and total percentages. */
async function tableRows(page: Page) {
  return page.getByTestId('top-table-row').evaluateAll((rows) =>
    rows.map((r) => ({
      name: r.getAttribute('title') ?? '',
      self: r.querySelectorAll('[role=cell]')[1]?.getAttribute('title') ?? '',
      total: r.querySelectorAll('[role=cell]')[2]?.getAttribute('title') ?? '',
    }))
  );
}

/**
 * The rows the page draws (the table draws those in view) are functions of pprof's report, each
 * with its flat and cum as shares of base; the mismatches, in words (none once the table follows).
 */
async function tableMismatches(page: Page, report: Report, base: number): Promise<string[]> {
  const rows = await tableRows(page);
  const out = rows.length < 10 ? [`only ${rows.length} rows drawn`] : [];
  for (const t of rows) {
    const want = report.rows.get(t.name);
    if (!want) {
      out.push(`${t.name} is not a row of pprof's report`);
    } else if (t.self !== pct(want.flat / base) || t.total !== pct(want.cum / base)) {
      out.push(`${t.name}: ${t.self} ${t.total}, pprof ${pct(want.flat / base)} ${pct(want.cum / base)}`);
    }
  }
  return out;
}

async function expectTable(page: Page, report: Report, base: number) {
  await expect.poll(() => tableMismatches(page, report, base), { timeout: 30_000 }).toEqual([]);
}

/** The root bar's tooltip "Total" line. */
async function rootTotalText(page: Page): Promise<string> {
  const b = await nodeBox(page, 'total');
  await page.mouse.move(b.x + 5, b.y + b.height / 2);
  const line = page.getByTestId('flamegraph-tooltip').getByTestId('tooltip-total');
  await expect(line).toBeVisible();
  return (await line.textContent()) ?? '';
}

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

async function open(page: Page) {
  await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  await expect(page.getByTestId('top-table-row').first()).toBeVisible();
}

/** Opens the header's filters toggletip unless it is open. */
async function openFilters(page: Page) {
  if (!(await page.getByLabel('Ignore', { exact: true }).isVisible())) {
    await page.getByTestId('sample-filter-menu').click();
  }
}

/** Closes the filters toggletip (its trigger toggles it), so it covers nothing of the graph. */
async function closeFilters(page: Page) {
  await page.getByTestId('sample-filter-menu').click();
  await expect(page.getByLabel('Ignore', { exact: true })).toBeHidden();
}

async function setRegex(page: Page, label: 'Ignore' | 'Hide', text: string) {
  await openFilters(page);
  const box = page.getByLabel(label, { exact: true });
  await box.fill(text);
  await box.press('Enter');
  await closeFilters(page);
}

test("ignore in the header drops pprof's samples; percentages of the whole unless relative", async ({ page }) => {
  const report = readReport('browser.cpu.ignore-sha256.top.txt');
  expect(report.shown).toBeLessThan(report.of);
  await open(page);
  await setRegex(page, 'Ignore', 'sha256');

  // shares of the whole profile, as pprof's header ("… of 1310000000ns total")
  await expectTable(page, report, report.of);
  expect(await rootTotalText(page)).toContain(`${pct(report.shown / report.of)} of total`);

  // relative: shares of what is shown, as pprof's -relative_percentages
  await openFilters(page);
  await page.getByLabel('Relative percentages').click({ force: true });
  await closeFilters(page);
  await expectTable(page, report, report.shown);
  expect(await rootTotalText(page)).toContain('100% of total');
});

test("hide in the header removes the frames and keeps pprof's values under their callers", async ({ page }) => {
  const report = readReport('browser.cpu.hide-runtime.top.txt');
  await open(page);
  await setRegex(page, 'Hide', '^runtime\\.');
  await expectTable(page, report, report.of);
  const names = (await tableRows(page)).map((r) => r.name);
  expect(names.filter((n) => n.startsWith('runtime.'))).toEqual([]);
});

test("the datasource hides by pprof's rule: a frame whose file matches goes too", async ({ page }) => {
  // time.now lives in runtime/timestub.go: pprof's -hide=runtime removes it, by its file name,
  // which only the datasource (ignore/hide written into the playground's query) can see
  const report = readReport('browser.cpu.hide-runtime-files.top.txt');
  expect(report.rows.has('time.now')).toBe(false);
  expect(readReport('browser.cpu.top.txt').rows.has('time.now')).toBe(true);
  await open(page);
  await setRegex(page, 'Hide', 'runtime');
  await expectTable(page, report, report.of);
  // the table narrowed to the search (main.compress shows it has; the search ignores case, so
  // time.Now matches too), without time.now
  await page.getByLabel('Search functions').fill('^time\\.now$|^main\\.compress$');
  const titles = () => page.getByTestId('top-table-row').evaluateAll((rs) => rs.map((r) => r.getAttribute('title')));
  await expect.poll(titles, { timeout: 30_000 }).toEqual(['main.compress', 'time.Now']);
});

test("the inverted flame graph has each function's flat at its root, and the top table is unchanged", async ({
  page,
}) => {
  const report = readReport('browser.cpu.top.txt');
  const fn = 'main.compress';
  const want = report.rows.get(fn)!;
  expect(want.flat).toBeLessThan(want.cum);
  await open(page);
  await openFilters(page);
  await page.getByLabel('Inverted flame graph').click({ force: true });
  await closeFilters(page);

  // the function's widest bar sits right next to the root, as wide as its flat
  const root = await nodeBox(page, 'total');
  const b = await nodeBox(page, fn);
  expect(Math.abs(b.y - root.y)).toBeLessThan(root.height * 1.6);
  await page.mouse.move(b.x + Math.min(10, b.width / 2), b.y + b.height / 2);
  const tip = page.getByTestId('flamegraph-tooltip');
  await expect(tip.getByTestId('tooltip-name')).toHaveText(fn);
  await expect(tip.getByTestId('tooltip-total')).toContainText(`(${pct(want.flat / report.of)} of total`);

  // search and the top table work on the inverted view: the table keeps pprof's flat and cum
  await page.getByLabel('Search functions').fill('^main\\.compress$');
  const row = page.locator(`[data-testid="top-table-row"][title="${fn}"]`);
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  await expect(row.getByRole('cell').nth(1)).toHaveAttribute('title', pct(want.flat / report.of));
  await expect(row.getByRole('cell').nth(2)).toHaveAttribute('title', pct(want.cum / report.of));
});
