// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { pct } from '../support/frame';
import { nodeBox } from '../support/canvas';
import { ingestPushedProfile, Playground, REPO, startPlayground } from '../support/playground';
import { screenshot } from '../support/screenshot';

/**
 * A diff opened in the playground: two real CPU profiles (labeled, 3.77 s, the baseline;
 * bench-sort, 23.52 s, the comparison) and the tooltip's baseline, comparison and change,
 * checked against `go tool pprof -top` of the same files (src/shared/testdata/pprofTop.json).
 */

const CPU = 'process_cpu:cpu:nanoseconds:cpu:nanoseconds';
// both profiles were taken on 2026-12-01 between 07:20 and 07:22 UTC (their time_nanos)
const FROM = Date.parse('2026-12-01T07:00:00Z');
const TO = Date.parse('2026-12-01T08:00:00Z');

type Top = { total: number; functions: Record<string, { flat: number; cum: number }> };
const pprof: { profiles: Record<string, Top> } = JSON.parse(
  fs.readFileSync(path.join(REPO, 'src', 'shared', 'testdata', 'pprofTop.json'), 'utf8')
);
const LABELED = pprof.profiles['labeled.cpu.redated.pb.gz'];
const SORT = pprof.profiles['bench-sort.cpu.redated.pb.gz'];

let pg: Playground;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  pg = await startPlayground();
  await ingestPushedProfile(pg.storeUrl, 'labeled.cpu.redated.pb.gz', 'labeled');
  await ingestPushedProfile(pg.storeUrl, 'bench-sort.cpu.redated.pb.gz', 'sort');
});

test.afterAll(async () => {
  await pg?.stop();
});

/** The panel's change: the relative change of the share, clamped to ±100%. */
function change(left: number, right: number): string {
  const pl = left / LABELED.total;
  const pr = right / SORT.total;
  const c = Math.max(-1, Math.min(1, (pr - pl) / pl));
  return `${c >= 0 ? '+' : ''}${(c * 100).toFixed(1)}%`;
}

test('a diff shows the baseline, the comparison and the change pprof gives', async ({ page }) => {
  const expr = `${CPU}{service_name="labeled"}`;
  await page.goto(`${pg.url}/?query=${encodeURIComponent(expr)}&from=${FROM}&to=${TO}`);
  await page.getByTestId('options-summary').click();
  await page.getByRole('radio', { name: 'Diff' }).click();
  const selector = page.getByLabel('Comparison selector');
  await selector.fill('{service_name="sort"}');
  await page.getByLabel('Comparison from').fill(new Date(FROM).toISOString());
  await page.getByLabel('Comparison to').fill(new Date(TO).toISOString());
  const ran = page.waitForResponse(
    (r) => r.url().endsWith('/api/ds/query') && (r.request().postData() ?? '').includes('service_name=\\"sort\\"')
  );
  await page.getByLabel('Comparison to').blur();
  expect((await ran).ok()).toBe(true);
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();

  const tip = page.getByTestId('flamegraph-tooltip');
  // the root: each side's whole profile
  const root = await nodeBox(page, 'total');
  await page.mouse.move(root.x + root.width / 2, root.y + root.height / 2);
  await expect(tip.getByTestId('tooltip-name')).toHaveText('total');
  await expect(tip.getByTestId('tooltip-baseline')).toHaveText(/Baseline\s*3\.77 s \(100%\)/);
  await expect(tip.getByTestId('tooltip-comparison')).toHaveText(/Comparison\s*23\.5 s \(100%\)/);
  await expect(tip.getByTestId('tooltip-change')).toHaveText(/Change\s*\+0\.0%/);

  // runtime.mcall has one node on each side, so its values are pprof's cum
  const name = 'runtime.mcall';
  const l = LABELED.functions[name].cum;
  const r = SORT.functions[name].cum;
  expect([l, r]).toEqual([290_000_000, 1_160_000_000]);
  const b = await nodeBox(page, name);
  await page.mouse.move(b.x + Math.min(10, b.width / 2), b.y + b.height / 2);
  await expect(tip.getByTestId('tooltip-name')).toHaveText(name);
  await expect(tip.getByTestId('tooltip-baseline')).toContainText(`290 ms (${pct(l / LABELED.total)})`);
  await expect(tip.getByTestId('tooltip-comparison')).toContainText(`1.16 s (${pct(r / SORT.total)})`);
  await expect(tip.getByTestId('tooltip-change')).toContainText(change(l, r));
  await screenshot(page, 'diff-tooltip.png');
});
