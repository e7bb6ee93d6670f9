// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, TEST_BROWSER_PATH } from './support/browser';

/**
 * Every browser test against `emberscope playground` serving the page embedded in it (see
 * tests/support/playground.ts): the flamegraph (e2e/) and the query editor (editor/).
 * `npm run e2e` builds the page, then global-setup builds the emberscope binary once
 * (`npm run e2e:run` runs the tests on the page and binary already built).
 */
export default defineConfig({
  globalSetup: require.resolve('./support/globalSetup'),
  globalTeardown: require.resolve('./support/globalTeardown'),
  outputDir: '../test-results/playwright',
  timeout: 120_000,
  // Assertions wait for what the user would see, not for speed: Playwright's 5 s default is short
  // for a redraw on two cores shared by two browsers and the Go tests (scripts/test.sh runs them
  // side by side), so the limit is there to catch a page that never gets there.
  expect: { timeout: 30_000 },
  // Spec files run side by side, tests of one file in order in one worker (fullyParallel is off). Each
  // file starts its own playground in beforeAll (its own port, picked by the playground, and its own
  // temporary data directory), seeds its own data, and writes screenshots under names of its own, so
  // files share nothing. Two workers: a browser and a playground each, what two cores carry.
  workers: 2,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: TEST_BROWSER_PATH, args: CHROMIUM_ARGS },
  },
  projects: [
    { name: 'e2e', testDir: './e2e', use: { viewport: { width: 1280, height: 900 } } },
    { name: 'editor', testDir: './editor', testMatch: '*.spec.ts', use: { viewport: { width: 1280, height: 1000 } } },
  ],
});
