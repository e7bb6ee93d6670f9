// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { expect, test } from '@playwright/test';
import { Playground, startPlayground } from '../support/playground';

/**
 * `emberscope playground` started from an empty temporary directory (startPlayground's
 * working directory) serves the page embedded in the binary, with the fonts and icons
 * @grafana/ui asks for.
 */

let pg: Playground;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  pg = await startPlayground();
});

test.afterAll(async () => {
  await pg?.stop();
});

test('the page, its fonts and its icons come from the binary', async ({ page }) => {
  const failed: string[] = [];
  const publicFiles: string[] = [];
  page.on('response', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/public/')) {
      publicFiles.push(u.pathname);
    }
    if (r.status() >= 400) {
      failed.push(`${r.status()} ${u.pathname}`);
    }
  });
  const res = await page.goto(pg.url + '/');
  expect(res?.status()).toBe(200);
  await expect(page.getByLabel('Profile type')).toBeVisible();
  await page.evaluate(() => document.fonts.ready);
  expect(await page.evaluate(() => document.fonts.check('14px Inter'))).toBe(true);
  await expect.poll(() => publicFiles.some((p) => p.startsWith('/public/build/img/icons/'))).toBe(true);
  expect(publicFiles.some((p) => p.startsWith('/public/fonts/inter/'))).toBe(true);
  expect(failed).toEqual([]);

  for (const p of ['/public/build/img/icons/unicons/search.svg', '/public/fonts/inter/Inter-Regular.woff2']) {
    const r = await fetch(pg.url + p);
    expect(r.status, p).toBe(200);
  }
});
