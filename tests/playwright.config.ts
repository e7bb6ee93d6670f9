// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/browser';

/**
 * Every browser test against `emberscope playground` serving the page embedded in it (see
 * tests/support/playground.ts): the flamegraph (e2e/) and the query editor (editor/).
 * `npm run e2e` builds the page, then global-setup builds the emberscope binary once.
 */
export default defineConfig({
  globalSetup: require.resolve('./support/globalSetup'),
  globalTeardown: require.resolve('./support/globalTeardown'),
  outputDir: '../test-results/playwright',
  timeout: 120_000,
  workers: 1,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [
    { name: 'e2e', testDir: './e2e', use: { viewport: { width: 1280, height: 900 } } },
    { name: 'editor', testDir: './editor', testMatch: '*.spec.ts', use: { viewport: { width: 1280, height: 1000 } } },
  ],
});
