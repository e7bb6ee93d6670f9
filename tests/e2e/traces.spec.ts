// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { expect, Page, Response, test } from '@playwright/test';
import { Playground, startPlayground } from '../support/playground';
import { nextQuery, runSeed } from '../support/seed';
import { screenshot } from '../support/screenshot';

const SERVICE = 'traced-demo';
const EXPR = `process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="${SERVICE}"}`;

/** What tests/support/spanseed sent, with the totals google/pprof's profile package gives. */
interface Expected {
  profiles: Array<{ timeMs: number; total: number }>;
  span: { id: string; total: number };
}

let pg: Playground;
let expected: Expected;
let from: number;
let to: number;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  pg = await startPlayground();
  // the three span-labelled profiles of the traced demo service, 50 s apart, the last 50 s ago
  const out = runSeed('spanseed', ['-store', pg.storeUrl, '-app', SERVICE]);
  expected = JSON.parse(out);
  to = Date.now() + 60_000;
  from = to - 10 * 60_000;
});

test.afterAll(async () => {
  await pg?.stop();
});

/** The root value (the total) of the flamegraph frame of an answer. */
async function flameTotal(r: Response): Promise<number> {
  const body = await r.json();
  const frames = body.results.A.frames as Array<{
    schema: { fields: Array<{ name: string }> };
    data: { values: unknown[][] };
  }>;
  const f = frames.find((x) => x.schema.fields.some((y) => y.name === 'level'));
  expect(f, 'a flamegraph frame').toBeTruthy();
  const k = f!.schema.fields.findIndex((y) => y.name === 'value');
  return Number(f!.data.values[k][0]);
}

async function openOptions(page: Page) {
  await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
  await expect(page.getByTestId('series-graph')).toBeVisible();
  await page.getByTestId('options-summary').click();
}

test('a series with exemplars: a click on one opens exactly that profile’s flamegraph', async ({ page }) => {
  await openOptions(page);
  await page.getByLabel('Exemplars').click({ force: true });
  const exemplars = page.getByTestId('series-exemplar');
  await expect(exemplars).toHaveCount(expected.profiles.length);
  await expect(page.getByTestId('options-summary')).toContainText('Exemplars');
  await screenshot(page, 'traces-01-exemplars.png');

  // every exemplar opens its own profile: the one taken at its time, whose pprof total it shows
  const opened = new Set<string>();
  for (let i = 0; i < expected.profiles.length; i++) {
    const ex = exemplars.nth(i);
    const id = (await ex.getAttribute('data-id'))!;
    expect(await ex.getAttribute('data-kind')).toBe('profile');
    const answer = nextQuery(page, (q) => Array.isArray(q.profileIdSelector));
    await ex.dispatchEvent('mouseup');
    const { query, response } = await answer;
    expect(query.queryType).toBe('profile');
    expect(query.profileIdSelector).toEqual([id]);
    const total = await flameTotal(response);
    expect(expected.profiles.map((p) => p.total)).toContain(total);
    await expect(page.getByTestId('exemplar-picked')).toContainText(`flamegraph of profile ${id}`);
    await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
    opened.add(`${id}:${total}`);
  }
  expect(opened.size).toBe(expected.profiles.length);
  const totals = [...opened].map((s) => Number(s.split(':')[1])).sort();
  expect(totals).toEqual(expected.profiles.map((p) => p.total).sort());
  await screenshot(page, 'traces-02-exemplar-profile.png');
});

test('a span id typed in the editor gives that span’s flamegraph', async ({ page }) => {
  await openOptions(page);
  const answer = nextQuery(page, (q) => Array.isArray(q.spanSelector));
  const input = page.getByLabel('Span IDs');
  await input.fill(expected.span.id);
  await input.press('Enter');
  const { query, response } = await answer;
  expect(query.spanSelector).toEqual([expected.span.id]);
  expect(await flameTotal(response)).toBe(expected.span.total);
  const whole = expected.profiles.reduce((a, p) => a + p.total, 0);
  expect(expected.span.total).toBeLessThan(whole);
  await expect(page.getByTestId('options-summary')).toContainText(`Spans: ${expected.span.id}`);
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  await screenshot(page, 'traces-03-span-profile.png');

  // not a span id: the editor says so and sends nothing
  await input.fill('not-a-span');
  await input.press('Enter');
  await expect(page.getByText('"not-a-span" is not a span id')).toBeVisible();
});
