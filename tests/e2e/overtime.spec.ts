// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import fs from 'fs';
import { expect, Page, test } from '@playwright/test';
import { nodeBox } from '../support/canvas';
import { BROWSER_PROFILE, Playground, redated, startPlayground } from '../support/playground';
import { callSiteTotal, pprofTraces, Trace } from '../support/traces';

// "Show over time" on a bar: the call path's value per step and its share of the step's whole, from
// the callSiteSeries query. The real browser.cpu.pb.gz is filed once 40 minutes ago and twice 15
// minutes ago; google/pprof's traces of the file are the oracle.
const SERVICE = 'e2e-overtime';
const EXPR = `process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="${SERVICE}"}`;

let pg: Playground;
let from: number;
let to: number;
let traces: Trace[];
const filed: Array<{ at: number; copies: number }> = [];

async function ingestAt(at: number) {
  const body = redated(fs.readFileSync(BROWSER_PROFILE), new Date(at));
  const name = encodeURIComponent(`e2e{service_name=${SERVICE}}`);
  const res = await fetch(`${pg.storeUrl}/ingest?name=${name}&format=pprof`, { method: 'POST', body });
  expect(res.ok, `ingest: HTTP ${res.status}`).toBe(true);
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  pg = await startPlayground();
  const now = Date.now();
  filed.push({ at: now - 40 * 60_000, copies: 1 }, { at: now - 15 * 60_000, copies: 2 });
  for (const f of filed) {
    for (let i = 0; i < f.copies; i++) {
      await ingestAt(f.at);
    }
  }
  to = now + 60_000;
  from = to - 3_600_000;
  traces = pprofTraces(BROWSER_PROFILE, '-sample_index=cpu', '-unit=ns');
});

test.afterAll(async () => {
  await pg?.stop();
});

interface Dot {
  time: number;
  value: number;
}

async function dots(page: Page, name: 'value' | 'share'): Promise<Dot[]> {
  return page
    .getByTestId(`over-time-${name}`)
    .locator('circle')
    .evaluateAll((cs) =>
      cs.map((c) => ({ time: Number(c.getAttribute('data-time')), value: Number(c.getAttribute('data-value')) }))
    );
}

/** Right-clicks the bar of fn, picks "Show over time", and checks each step against pprof's traces. */
async function showOverTime(page: Page, fn: string) {
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  const b = await nodeBox(page, fn);
  await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2, { button: 'right' });
  await page.getByRole('menuitem', { name: 'Show over time' }).click();
  const modal = page.getByTestId('over-time');
  await expect(modal.getByTestId('over-time-value')).toBeVisible();
  const path = ((await modal.getByTitle(/›/).first().getAttribute('title')) ?? '').split(' › ');
  expect(path[path.length - 1]).toBe(fn);

  const site = callSiteTotal(traces, path);
  const whole = callSiteTotal(traces, []);
  expect(site, `pprof has samples under ${path.join(' › ')}`).toBeGreaterThan(0);
  const values = await dots(page, 'value');
  const shares = await dots(page, 'share');
  expect(values.length).toBeGreaterThan(2);
  const step = values[1].time - values[0].time;
  // per step: pprof's total of the path over the profiles filed in it, and its share of their whole
  for (const [i, d] of values.entries()) {
    const copies = filed.filter((f) => f.at >= d.time && f.at < d.time + step).reduce((n, f) => n + f.copies, 0);
    expect(d.value, `value at ${new Date(d.time).toISOString()}`).toBe(copies * site);
    expect(shares[i].value, `share at ${new Date(d.time).toISOString()}`).toBeCloseTo(copies ? site / whole : 0, 12);
  }
  expect(values.filter((d) => d.value > 0)).toHaveLength(2);

  // the query a dashboard panel takes
  const query = JSON.parse((await modal.getByTestId('over-time-query').textContent()) ?? '{}');
  expect(query).toMatchObject({ queryType: 'callSiteSeries', callSite: path });
}

test('the playground: Show over time draws the call path per step as pprof counts it', async ({ page }) => {
  await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
  await showOverTime(page, 'main.hashBlocks');
});

test('the app: Show over time draws the call path per step as pprof counts it', async ({ page }) => {
  await page.goto(`${pg.url}/a/emberscope-app/service?from=${from}&to=${to}&service=${SERVICE}`);
  await showOverTime(page, 'main.hashBlocks');
});
