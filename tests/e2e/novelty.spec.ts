// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { Playground, REPO, startPlayground } from '../support/playground';
import { screenshot } from '../support/screenshot';

const EXPR = 'process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="novelty"}';

let pg: Playground;
let from: number;
let to: number;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  pg = await startPlayground();
  // 8 recorded profiles of the demo service's handlers a minute apart, then the logindex
  // batch job (a different program) a minute later: one novel profile
  execFileSync('go', ['run', './tests/support/noveltyseed', '-store', pg.storeUrl, '-ago', '2m'], {
    cwd: REPO,
    stdio: 'inherit',
  });
  to = Date.now() + 60_000;
  from = to - 3_600_000;
});

test.afterAll(async () => {
  await pg?.stop();
});

test('a novel point opens, in one click, the diff against its most similar earlier profile', async ({ page }) => {
  const sent: Array<Record<string, unknown>> = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/ds/query') && r.method() === 'POST') {
      sent.push(JSON.parse(r.postData() || '{}').queries?.[0] ?? {});
    }
  });
  await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
  await page.getByTestId('options-summary').click();
  await page.getByRole('radio', { name: 'Novelty' }).click();
  await expect(page.getByTestId('series-graph')).toBeVisible();
  const point = page.getByTestId('novel-point');
  await expect(point).toHaveCount(1);
  // the batch job's package, or its own functions (new to the series, tested on their inclusive shares)
  await expect(point).toContainText(/Moved most: (compress\/flate|main\.\S+ \(with callees\) 0(\.0)? % → 9\d %)/);
  // the surprise under the series' own variation, its threshold as a false-alarm rate, and each
  // moved function as shares and σ
  await expect(point).toContainText(/surprise \d+\.\d; threshold \d+\.\d: 1 false alarm a day at a push every /);
  await expect(point).toContainText(/Moved most: .+? \d+(\.\d)? % → \d+(\.\d)? % \(\+\d+ σ\)/);
  await screenshot(page, 'novelty-01-novel-point.png');

  await point.getByTestId('novel-point-diff').click();
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  const diff = sent[sent.length - 1];
  expect(diff.queryType).toBe('diff');
  const baseline = diff.baseline as { from: string; to: string };
  const comparison = diff.comparison as { from: string; to: string };
  expect(Number(baseline.from)).toBeLessThan(Number(comparison.from));
  // the novel profile's functions are drawn in the diff
  const canvas = page.getByTestId('flamegraph-canvas');
  await expect
    .poll(() =>
      canvas.evaluate(
        (el) =>
          !!(el as HTMLCanvasElement & { emberscope: { rectOf: (n: string) => unknown } }).emberscope.rectOf(
            'compress/flate.(*compressor).deflate'
          )
      )
    )
    .toBe(true);
  await screenshot(page, 'novelty-02-diff.png');
});
