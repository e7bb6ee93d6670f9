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
const EXPR = `process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="${SERVICE}"}`;

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
  const out = execFileSync(
    'go',
    [
      'tool',
      'pprof',
      '-list',
      `^${fn.replace(/[.*()[\]]/g, '\\$&')}$`,
      '-unit=ns',
      `-source_path=${SOURCE_ROOT}`,
      `-trim_path=${path.dirname(recordedFile(fn))}`,
      PROFILE,
    ],
    { encoding: 'utf8' }
  );
  const num = (s: string) => (s === '.' ? 0 : Number(s.replace(/ns$/, '')));
  const lines: PprofLine[] = [];
  for (const l of out.split('\n')) {
    const m = l.match(/^\s*(\S+)\s+(\S+)\s+(\d+):/);
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
  pg = await startPlayground(['-source-root', SOURCE_ROOT]);
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
