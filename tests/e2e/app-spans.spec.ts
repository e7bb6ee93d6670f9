// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { expect, test } from '@playwright/test';
import { Playground, startPlayground } from '../support/playground';
import { nextQuery, runSeed } from '../support/seed';
import { screenshot } from '../support/screenshot';

/**
 * The app's Spans page on span-labelled profiles (tests/support/spanseed, as traces.spec.ts
 * seeds them): the span heatmap with its exemplars, each opening exactly that span's flame
 * graph, whose total is google/pprof's `-tagfocus span_id=<id>` total (spanseed sums it with
 * google/pprof's profile package); the profile heatmap's exemplars open their profile.
 */

const SERVICE = 'traced-demo';
const TYPE = 'process_cpu:cpu:nanoseconds:cpu:nanoseconds';

interface Expected {
  profiles: Array<{ timeMs: number; total: number }>;
  span: { id: string; total: number };
  spans: Record<string, number>;
}

/** What tests/support/noveltyseed -json sent: the novel profile's time and every profile's pprof total. */
interface NoveltySent {
  novelMs: number;
  profiles: Array<{ timeMs: number; total: number }>;
}

let pg: Playground;
let expected: Expected;
let novelty: NoveltySent;
let from: number;
let to: number;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  pg = await startPlayground();
  const out = runSeed('spanseed', ['-store', pg.storeUrl, '-app', SERVICE]);
  expected = JSON.parse(out);
  // 8 recorded profiles of the demo's handlers a minute apart, then a different program: one novel profile
  novelty = JSON.parse(runSeed('noveltyseed', ['-store', pg.storeUrl, '-ago', '2m', '-json']));
  to = Date.now() + 60_000;
  from = to - 10 * 60_000;
});

test.afterAll(async () => {
  await pg?.stop();
});

const url = (extra = '') =>
  `${pg.url}/a/emberscope-app/spans?type=${encodeURIComponent(TYPE)}&from=${from}&to=${to}&service=${SERVICE}${extra}`;

test('the span heatmap’s exemplars each open exactly that span’s flame graph, with pprof’s -tagfocus total', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const heat = nextQuery(page, (q) => q.queryType === 'histogram');
  await page.goto(url());
  // the profiles heatmap first; the toggle turns it into the span heatmap with span exemplars
  expect((await heat).query.heatmapType).toBe('individual');
  await expect(page.getByTestId('heat-exemplar').first()).toBeVisible();
  const spanHeat = nextQuery(page, (q) => q.queryType === 'histogram' && q.heatmapType === 'span');
  await page.getByRole('radio', { name: 'Spans' }).click({ force: true });
  const { query: hq } = await spanHeat;
  expect(hq).toMatchObject({
    heatmapType: 'span',
    includeExemplars: true,
    labelSelector: `{service_name="${SERVICE}"}`,
  });
  expect(new URL(page.url()).searchParams.get('heat')).toBe('span');
  await expect(page.getByTestId('heat-cell').first()).toBeVisible();
  const exemplars = page.locator('[data-testid="heat-exemplar"][data-kind="span"]');
  await expect(exemplars.first()).toBeVisible();
  const n = await exemplars.count();
  expect(n).toBeGreaterThan(0);
  expect(await page.locator('[data-testid="heat-exemplar"][data-kind="profile"]').count()).toBe(0);
  await screenshot(page, 'app-spans-01-heatmap.png');

  const whole = expected.profiles.reduce((a, p) => a + p.total, 0);
  const seen = new Set<string>();
  for (let i = 0; i < n; i++) {
    const ex = exemplars.nth(i);
    const id = (await ex.getAttribute('data-id'))!;
    expect(id, 'a span id of the seeded profiles').toMatch(/^[0-9a-f]{16}$/);
    expect(Object.keys(expected.spans)).toContain(id);
    const sent = nextQuery(page, (q) => Array.isArray(q.spanSelector));
    await ex.click({ timeout: 10_000 });
    const { query } = await sent;
    expect(query).toMatchObject({ queryType: 'profile', spanSelector: [id], profileTypeId: TYPE });
    expect(query.profileIdSelector).toBeUndefined();
    await expect(page.getByTestId('picked-title')).toHaveText(`Flame graph of span ${id}`);
    await expect(page.getByTestId('picked-total')).toHaveAttribute('data-total', String(expected.spans[id]));
    expect(expected.spans[id]).toBeLessThan(whole);
    await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
    seen.add(id);
  }
  expect(seen.size).toBe(n);
  // the settings name no tracing datasource: no trace link
  await expect(page.getByTestId('trace-link')).toHaveCount(0);
  await screenshot(page, 'app-spans-02-span-flame.png', { fullPage: true });

  // the address keeps the heatmap kind and the picked span
  const last = [...seen][seen.size - 1];
  expect(new URL(page.url()).searchParams.get('pick')).toBe(`span:${last}`);
  await page.reload();
  await expect(page.getByTestId('picked-title')).toHaveText(`Flame graph of span ${last}`);
  await expect(page.getByTestId('picked-total')).toHaveAttribute('data-total', String(expected.spans[last]));
  await expect(page.getByRole('radio', { name: 'Spans' })).toBeChecked();
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(wide).toBeLessThanOrEqual(1);
});

test('the largest span, opened from its address, shows pprof’s -tagfocus total', async ({ page }) => {
  await page.goto(url(`&heat=span&pick=span%3A${expected.span.id}`));
  await expect(page.getByTestId('picked-total')).toHaveAttribute('data-total', String(expected.span.total));
  await expect(page.locator(`[data-testid="heat-exemplar"][data-id="${expected.span.id}"]`)).toHaveCount(1);
});

test('the profile heatmap’s exemplars open that one profile’s flame graph', async ({ page }) => {
  await page.goto(url());
  const exemplars = page.locator('[data-testid="heat-exemplar"][data-kind="profile"]');
  await expect(exemplars.first()).toBeVisible();
  const n = await exemplars.count();
  const totals: number[] = [];
  for (let i = 0; i < n; i++) {
    const ex = exemplars.nth(i);
    const id = (await ex.getAttribute('data-id'))!;
    const sent = nextQuery(page, (q) => Array.isArray(q.profileIdSelector));
    await ex.click({ timeout: 10_000 });
    const { query } = await sent;
    expect(query).toMatchObject({ queryType: 'profile', profileIdSelector: [id] });
    await expect(page.getByTestId('picked-title')).toHaveText(`Flame graph of profile ${id}`);
    const total = page.getByTestId('picked-total');
    await expect(total).toHaveAttribute('data-total', /^\d+$/);
    totals.push(Number(await total.getAttribute('data-total')));
  }
  // each exemplar is one whole seeded profile, with the total google/pprof gives it
  for (const t of totals) {
    expect(expected.profiles.map((p) => p.total)).toContain(t);
  }
  expect(new Set(totals).size).toBe(n);
});

test('the novelty score marks the novel profile, whose link opens its diff against its most similar earlier profile', async ({
  page,
}) => {
  const nfrom = novelty.novelMs - 15 * 60_000;
  const nto = novelty.novelMs + 5 * 60_000;
  await page.goto(
    `${pg.url}/a/emberscope-app/spans?type=${encodeURIComponent(TYPE)}&from=${nfrom}&to=${nto}&service=novelty`
  );
  await expect(page.getByTestId('novelty-series')).toBeVisible();
  const links = page.getByTestId('novel-diff-link');
  await expect(links).toHaveCount(1);
  // the batch job's package, or its own functions (new to the series, tested on their inclusive shares)
  await expect(page.getByTestId('novel-profiles')).toContainText(
    /Moved most: (compress\/flate|main\.\S+ \(with callees\) 0(\.0)? % → 9\d %)/
  );
  await screenshot(page, 'app-spans-03-novelty.png');
  await links.click();
  await expect(page).toHaveURL(/\/a\/emberscope-app\/diff\?/);
  const p = new URL(page.url()).searchParams;
  const [bFrom, bTo, cFrom, cTo] = ['bFrom', 'bTo', 'cFrom', 'cTo'].map((k) => Number(p.get(k)));
  // the comparison holds the novel profile alone, the baseline one earlier profile
  const inRange = (a: number, b: number) => novelty.profiles.filter((x) => x.timeMs >= a && x.timeMs < b);
  expect(inRange(cFrom, cTo).map((x) => x.timeMs)).toEqual([novelty.novelMs]);
  const base = inRange(bFrom, bTo);
  expect(base).toHaveLength(1);
  expect(base[0].timeMs).toBeLessThan(novelty.novelMs);
  const novel = novelty.profiles.find((x) => x.timeMs === novelty.novelMs)!;
  const totals = page.getByTestId('diff-totals');
  await expect(totals).toHaveAttribute('data-comparison', String(novel.total));
  await expect(totals).toHaveAttribute('data-baseline', String(base[0].total));
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  await screenshot(page, 'app-spans-04-novel-diff.png');
});
