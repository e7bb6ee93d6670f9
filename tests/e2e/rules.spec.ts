// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { expect, Page, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { nodeBox } from '../support/canvas';
import { Playground, REPO, redated, startPlayground } from '../support/playground';
import { screenshot } from '../support/screenshot';

/**
 * Recording rules in the app (/a/emberscope-app/rules, served by the playground with its store):
 * "Track as a metric" on a frame of the Service page's flame graph opens a new rule's form
 * prefilled; its preview's points are google/pprof's cum of that function in each profile
 * pushed (`go tool pprof -top` on the same files, each at its own minute); the rule is saved,
 * listed, and deleted after a confirm.
 */

const PROFILES = path.join(REPO, 'internal', 'fixtures', 'profiles');
const APP = '/a/emberscope-app';
const CPU = 'process_cpu:cpu:nanoseconds:cpu:nanoseconds';
const FN = 'main.burnCheckout';
const FILES = ['routes-1.cpu.pb.gz', 'routes-2.cpu.pb.gz'];
const MIN = 60_000;

let pg: Playground;
let now: number;
/** When each file was filed: 40 and 10 minutes ago. */
let times: number[];

/** google/pprof's cum of fn in a profile file, in nanoseconds. */
function pprofCum(file: string, fn: string): number {
  const out = execFileSync(
    'go',
    [
      'tool',
      'pprof',
      '-top',
      '-nodecount=0',
      '-nodefraction=0',
      '-edgefraction=0',
      '-unit=ns',
      path.join(PROFILES, file),
    ],
    {
      encoding: 'utf8',
    }
  );
  for (const l of out.split('\n')) {
    const m = l.match(/^\s*(\S+)\s+\S+\s+\S+\s+(\d+)ns\s+\S+\s+(.+)$/);
    if (m && m[3].trim() === fn) {
      return Number(m[2]);
    }
  }
  throw new Error(`pprof -top lists no ${fn} in ${file}:\n${out}`);
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  pg = await startPlayground();
  now = Math.floor(Date.now() / MIN) * MIN;
  times = [now - 40 * MIN, now - 10 * MIN];
  for (const [i, f] of FILES.entries()) {
    const body = redated(fs.readFileSync(path.join(PROFILES, f)), new Date(times[i]));
    const name = encodeURIComponent('rules{service_name=shop}');
    const res = await fetch(`${pg.storeUrl}/ingest?name=${name}&format=pprof`, { method: 'POST', body });
    expect(res.ok, `ingest ${f}: HTTP ${res.status} ${await res.text()}`).toBe(true);
  }
});

test.afterAll(async () => {
  await pg?.stop();
});

/** Right-clicks the widest frame of fn, opening the chain it is collapsed in first when it is. */
async function openMenuOn(page: Page, fn: string) {
  const drawn = await page
    .getByTestId('flamegraph-canvas')
    .evaluate(
      (el, n) =>
        Boolean((el as HTMLCanvasElement & { emberscope: { rectOf: (n: string) => unknown } }).emberscope.rectOf(n)),
      fn
    );
  if (!drawn) {
    throw new Error(`${fn} is not drawn on its own in the flame graph`);
  }
  const b = await nodeBox(page, fn);
  await page.mouse.click(b.x + Math.min(20, b.width / 2), b.y + b.height / 2, { button: 'right' });
}

test('Track as a metric: the preview is pprof’s cum per profile; save, list, delete', async ({ page, browser }) => {
  const cums = FILES.map((f) => pprofCum(f, FN));
  expect(cums.every((c) => c > 0)).toBe(true);

  await page.goto(
    `${pg.url}${APP}/service?service=shop&type=${encodeURIComponent(CPU)}&from=${now - 60 * MIN}&to=${now + 2 * MIN}`
  );
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  await openMenuOn(page, FN);
  await page.getByText('Track as a metric', { exact: true }).click();

  // the form, prefilled from the frame and the page's query
  const editor = page.getByTestId('rule-editor');
  await expect(editor).toBeVisible();
  await expect(page).toHaveURL(/\/a\/emberscope-app\/rules\?/);
  await expect(editor.getByTestId('rule-functionName')).toHaveValue(FN);
  await expect(editor.getByTestId('rule-selector')).toHaveValue('{service_name="shop"}');
  await expect(editor.getByTestId('rule-metricName')).toHaveValue('profiles_recorded_burn_checkout');
  await expect(editor.getByText('cpu · cpu (nanoseconds)')).toBeVisible();

  // a name the server would refuse is refused as it is typed, in the server's words
  await editor.getByTestId('rule-metricName').fill('checkout cpu');
  await expect(
    editor.getByText('metric_name "checkout cpu" is invalid: invalid metric name: checkout cpu')
  ).toBeVisible();
  await expect(editor.getByTestId('rule-save')).toBeDisabled();
  await editor.getByTestId('rule-metricName').fill('profiles_recorded_checkout_cpu');

  // the preview: one point per profile, at its step, worth pprof's cum of the function
  const preview = editor.getByTestId('rule-preview');
  await expect(preview).toBeVisible();
  await expect(editor.getByTestId('rule-preview-series')).toBeVisible();
  const step = Number(await preview.getAttribute('data-step'));
  const series: Array<{ labels: Record<string, string>; times: number[]; values: number[] }> = JSON.parse(
    (await preview.getAttribute('data-series'))!
  );
  expect(series).toHaveLength(1);
  expect(series[0].times).toEqual(times.map((t) => Math.floor(t / step) * step));
  expect(series[0].values).toEqual(cums);

  // grouped by a label the profiles lack: still one series, its value unchanged
  await editor.getByTestId('rule-groupBy').fill('region');
  await editor.getByTestId('rule-preview-button').click();
  await expect(editor.getByTestId('rule-preview-series')).toBeVisible();
  expect(JSON.parse((await editor.getByTestId('rule-preview').getAttribute('data-series'))!)[0].values).toEqual(cums);

  await editor.getByTestId('rule-save').click();
  await expect(editor).toBeHidden();
  const row = page.locator('[data-testid="rule-row"][data-rule="profiles_recorded_checkout_cpu"]');
  await expect(row).toBeVisible();
  await expect(row.getByTestId('rule-function')).toHaveText(FN);
  await expect(row).toContainText(CPU);
  await expect(row).toContainText('region');

  // at 200 % zoom on 1280 px the list fits the width (the long matchers and profile type wrap)
  const narrow = await browser.newContext({ viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 });
  const small = await narrow.newPage();
  await small.goto(`${pg.url}${APP}/rules`);
  await expect(small.getByTestId('rules-table')).toBeVisible();
  const sideways = await small.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
  expect(sideways, 'the page scrolls sideways by this many pixels').toBeLessThanOrEqual(1);
  await screenshot(small, 'rules-zoom-200.png');
  await narrow.close();

  // the rule is the store's: Pyroscope's API answers it
  const listed = await fetch(`${pg.storeUrl}/settings.v1.RecordingRulesService/ListRecordingRules`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  }).then((r) => r.json());
  expect(listed.rules.map((r: { metricName: string }) => r.metricName)).toEqual(['profiles_recorded_checkout_cpu']);

  // an edit saved over a newer version is refused, and the server's words are shown as they are
  await row.getByRole('button', { name: 'Edit profiles_recorded_checkout_cpu' }).click();
  await expect(editor).toBeVisible();
  const stored = listed.rules[0];
  const bump = await fetch(`${pg.storeUrl}/settings.v1.RecordingRulesService/UpsertRecordingRule`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...stored, profileType: undefined, provisioned: undefined }),
  });
  expect(bump.ok, `update behind the form's back: HTTP ${bump.status} ${await bump.text()}`).toBe(true);
  await editor.getByTestId('rule-groupBy').fill('env');
  await editor.getByTestId('rule-save').click();
  await expect(editor.getByTestId('rule-save-error')).toContainText('conflicting update, please try again');
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toContainText('region');

  await row.getByRole('button', { name: 'Delete profiles_recorded_checkout_cpu' }).click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(row).toBeHidden();
  await expect(page.getByTestId('rules-empty')).toBeVisible();
});
