// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { nodeBox } from '../support/canvas';
import { Playground, redated, REPO, startPlayground } from '../support/playground';

// internal/fixtures/cmd/pgoprog's own CPU profile: main.checksum calls main.mix in a hot loop.
const PROFILE = path.join(REPO, 'internal', 'fixtures', 'profiles', 'pgoprog.cpu.pb.gz');
const SOURCE_ROOT = path.join(REPO, 'internal', 'fixtures', 'cmd', 'pgoprog');
const SERVICE = 'e2e-source';
const COMMIT = '9245b2a0c1d2e3f405162738495a6b7c8d9e0f1a';
const FN = 'main.checksum';
const CPU = 'process_cpu:cpu:nanoseconds:cpu:nanoseconds';
const EXPR = `${CPU}{service_name="${SERVICE}"}`;
// two recordings of one shop program (internal/fixtures/profiles/README.md), the baseline and the comparison of a diff
const ROUTES_OLD = path.join(REPO, 'internal', 'fixtures', 'profiles', 'routes-1.cpu.pb.gz');
const ROUTES_NEW = path.join(REPO, 'internal', 'fixtures', 'profiles', 'routes-2.cpu.pb.gz');
// the standard library, where the routes' regexp backtracker comes from
const GO_SRC = path.join(execFileSync('go', ['env', 'GOROOT'], { encoding: 'utf8' }).trim(), 'src');

type PprofLine = { line: number; flat: number; cum: number };

/** pprof's own file name for fn (the build machine's path), from its -lines report. */
function recordedFile(fn: string): string {
  const out = execFileSync('go', ['tool', 'pprof', '-top', '-lines', '-nodecount=0', PROFILE], { encoding: 'utf8' });
  const m = out.match(new RegExp(`${fn.replace(/[.*()[\]]/g, '\\$&')} (\\S+\\.go):\\d+`));
  if (!m) {
    throw new Error(`pprof -lines names no file of ${fn}:\n${out}`);
  }
  return m[1];
}

/** `go tool pprof -list` of fn, pointed at the source root: each line's flat and cum in ns. */
function pprofList(fn: string): PprofLine[] {
  return pprofListOf(fn, [`-source_path=${SOURCE_ROOT}`, `-trim_path=${path.dirname(recordedFile(fn))}`, PROFILE]);
}

/** `go tool pprof -list` of fn with args (flags, then the profiles): each line's flat and cum in ns. */
function pprofListOf(fn: string, args: string[]): PprofLine[] {
  const out = execFileSync(
    'go',
    ['tool', 'pprof', '-list', `^${fn.replace(/[.*()[\]]/g, '\\$&')}$`, '-unit=ns', ...args],
    {
      encoding: 'utf8',
    }
  );
  const num = (s: string) => (s === '.' ? 0 : Number(s.replace(/ns$/, '')));
  const lines: PprofLine[] = [];
  for (const l of out.split('\n')) {
    const m = l.match(/^\s*(-?\S+)\s+(-?\S+)\s+(\d+):/);
    if (m) {
      lines.push({ line: Number(m[3]), flat: num(m[1]), cum: num(m[2]) });
    }
  }
  if (lines.length === 0) {
    throw new Error(`pprof -list printed no lines of ${fn}:\n${out}`);
  }
  return lines;
}

let pg: Playground;
let from: number;
let to: number;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  pg = await startPlayground(['-source-root', SOURCE_ROOT, '-source-root', GO_SRC]);
  const labels = [
    `service_name=${SERVICE}`,
    'service_repository=https://github.com/acme/pgoprog',
    `service_git_ref=${COMMIT}`,
    `service_root_path=${path.dirname(recordedFile(FN))}`,
  ].join(',');
  const body = redated(fs.readFileSync(PROFILE), new Date());
  const res = await fetch(`${pg.storeUrl}/ingest?name=${encodeURIComponent(`pgoprog{${labels}}`)}&format=pprof`, {
    method: 'POST',
    body,
  });
  expect(res.ok, await res.text()).toBe(true);
  for (const [file, service] of [
    [ROUTES_OLD, 'e2e-routes-old'],
    [ROUTES_NEW, 'e2e-routes-new'],
  ]) {
    const r = await fetch(`${pg.storeUrl}/ingest?name=${encodeURIComponent(service)}&format=pprof`, {
      method: 'POST',
      body: redated(fs.readFileSync(file), new Date()),
    });
    expect(r.ok, await r.text()).toBe(true);
  }
  to = Date.now() + 60_000;
  from = to - 3_600_000;
});

test.afterAll(async () => {
  await pg?.stop();
});

test('context menu → Source marks the hottest line with pprof -list numbers and links the commit', async ({ page }) => {
  await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();

  const rightClick = async () => {
    const b = await nodeBox(page, FN);
    await page.mouse.click(b.x + Math.min(20, b.width / 2), b.y + b.height / 2, { button: 'right' });
  };
  // runtime.main → main.main → main.checksum is one chain, drawn collapsed under its head: open it
  await rightClick();
  await page.getByText(/^Expand \d+ collapsed frames$/).click();
  await rightClick();
  await page.getByText('Source', { exact: true }).click();
  await expect(page.getByText(`Source of ${FN}`)).toBeVisible();
  const view = page.getByTestId('source-view');
  await expect(view.getByTestId('source-file')).toBeVisible();

  const listed = pprofList(FN);
  const hottest = listed.reduce((a, l) => (l.cum > a.cum ? l : a));
  const row = view.locator('[data-hot="hottest"]');
  await expect(row).toHaveAttribute('data-line', String(hottest.line));
  await expect(row).toHaveAttribute('data-self', String(hottest.flat));
  await expect(row).toHaveAttribute('data-total', String(hottest.cum));
  await expect(row).toContainText('mix(');
  await expect(row).toBeInViewport();
  // every line pprof lists has pprof's numbers
  for (const l of listed) {
    const r = view.locator(`[data-testid="source-line"][data-line="${l.line}"]`);
    await expect(r).toHaveAttribute('data-self', String(l.flat));
    await expect(r).toHaveAttribute('data-total', String(l.cum));
  }
  const link = view.getByTestId('source-link');
  await expect(link).toHaveAttribute('href', `https://github.com/acme/pgoprog/blob/${COMMIT}/main.go#L${hottest.line}`);
});

test('a top-table row opens the same source view', async ({ page }) => {
  await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
  const row = page.getByTestId('top-table-row').filter({ hasText: FN }).first();
  await row.getByTestId('row-source').click();
  const hottest = pprofList(FN).reduce((a, l) => (l.cum > a.cum ? l : a));
  await expect(page.getByTestId('source-view').locator('[data-hot="hottest"]')).toHaveAttribute(
    'data-line',
    String(hottest.line)
  );
});

/** The line pprof lists with the largest cum. */
const hottestOf = (lines: PprofLine[]) => lines.reduce((a, l) => (l.cum > a.cum ? l : a));

test('a call-tree row opens the source view, by its </> button and by S on the keyboard', async ({ page }) => {
  await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
  await page.getByRole('radio', { name: 'Call tree' }).click();
  const tree = page.getByTestId('call-tree');
  const rows = tree.getByTestId('call-tree-row');
  const mix = rows.and(page.locator('[title="main.mix"]'));
  // open the widest path until main.mix's row shows (main.checksum calls it in a hot loop)
  for (let i = 0; i < 6 && (await mix.count()) === 0; i++) {
    await rows.and(page.locator('[aria-expanded="false"]')).first().click();
  }
  const hottest = hottestOf(pprofList('main.mix'));
  const view = page.getByTestId('source-view');

  await mix.getByTestId('row-source').click();
  await expect(page.getByText('Source of main.mix')).toBeVisible();
  await expect(view.locator('[data-hot="hottest"]')).toHaveAttribute('data-line', String(hottest.line));
  await expect(view.locator('[data-hot="hottest"]')).toHaveAttribute('data-total', String(hottest.cum));
  await page.keyboard.press('Escape');
  await expect(view).toHaveCount(0);

  // the keyboard: the row under the cursor, then S
  await mix.click();
  await tree.focus();
  await page.keyboard.press('s');
  await expect(page.getByText('Source of main.mix')).toBeVisible();
  await expect(view.locator('[data-hot="hottest"]')).toHaveAttribute('data-self', String(hottest.flat));
});

test("the sandwich's Source menu opens the function's and its caller's source", async ({ page }) => {
  await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
  const row = page.getByTestId('top-table-row').filter({ hasText: 'main.mix' }).first();
  await row.getByTestId('top-table-sandwich').click();
  await expect(page.getByTestId('sandwich-view')).toBeVisible();
  const menuButton = page.getByRole('button', { name: 'Source of main.mix, its callers or callees' });
  await menuButton.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: `Source of ${FN}` }).click();
  await expect(page.getByText(`Source of ${FN}`)).toBeVisible();
  const hottest = hottestOf(pprofList(FN));
  const view = page.getByTestId('source-view');
  await expect(view.locator('[data-hot="hottest"]')).toHaveAttribute('data-line', String(hottest.line));
  await expect(view.locator('[data-hot="hottest"]')).toHaveAttribute('data-total', String(hottest.cum));
  await expect(view.locator('[data-hot="hottest"]')).toContainText('mix(');
});

test("on a diff, each line shows the baseline's, the comparison's and their difference as pprof -diff_base", async ({
  page,
}) => {
  const fn = 'regexp.(*Regexp).tryBacktrack';
  await page.goto(
    `${pg.url}/?query=${encodeURIComponent(`${CPU}{service_name="e2e-routes-old"}`)}&from=${from}&to=${to}`
  );
  await page.getByTestId('options-summary').click();
  await page.getByRole('radio', { name: 'Diff' }).click();
  await page.getByLabel('Comparison selector').fill('{service_name="e2e-routes-new"}');
  await page.getByLabel('Comparison from').fill(new Date(from).toISOString());
  await page.getByLabel('Comparison to').fill(new Date(to).toISOString());
  const ran = page.waitForResponse(
    (r) => r.url().endsWith('/api/ds/query') && (r.request().postData() ?? '').includes('e2e-routes-new')
  );
  await page.getByLabel('Comparison to').blur();
  expect((await ran).ok()).toBe(true);
  // the table shows the rows in view: search brings the function's row up
  await page.getByLabel('Search functions').fill('^regexp\\.\\(\\*Regexp\\)\\.tryBacktrack$');
  await page.getByRole('button', { name: `Source of ${fn}` }).click();
  await expect(page.getByText(`Source diff of ${fn}`)).toBeVisible();
  const view = page.getByTestId('source-view');
  await expect(view.getByTestId('source-file')).toBeVisible();

  const diff = pprofListOf(fn, ['-diff_base', ROUTES_OLD, ROUTES_NEW]);
  const base = new Map(pprofListOf(fn, [ROUTES_OLD]).map((l) => [l.line, l]));
  const comp = new Map(pprofListOf(fn, [ROUTES_NEW]).map((l) => [l.line, l]));
  expect(diff.some((l) => l.cum !== 0)).toBe(true);
  for (const l of diff) {
    const r = view.locator(`[data-testid="source-line"][data-line="${l.line}"]`);
    await expect(r).toHaveAttribute('data-self', String(l.flat));
    await expect(r).toHaveAttribute('data-total', String(l.cum));
    await expect(r.getByTestId('source-baseline-self')).toHaveAttribute(
      'data-value',
      String(base.get(l.line)?.flat ?? 0)
    );
    await expect(r.getByTestId('source-baseline-total')).toHaveAttribute(
      'data-value',
      String(base.get(l.line)?.cum ?? 0)
    );
    await expect(r.getByTestId('source-comparison-self')).toHaveAttribute(
      'data-value',
      String(comp.get(l.line)?.flat ?? 0)
    );
    await expect(r.getByTestId('source-comparison-total')).toHaveAttribute(
      'data-value',
      String(comp.get(l.line)?.cum ?? 0)
    );
  }
  // the most changed line is marked
  const most = diff.reduce((a, l) => (Math.abs(l.cum) > Math.abs(a.cum) ? l : a));
  await expect(view.locator('[data-hot="hottest"]')).toHaveAttribute('data-total', String(most.cum));
});
