// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/browser';

/** Browser benchmark (npm run bench:browser): measures, never asserts. */
export default defineConfig({
  testDir: '.',
  testMatch: process.env.BENCH_SPEC || 'run.spec.ts',
  outputDir: '../../test-results/bench',
  timeout: 30 * 60_000,
  workers: 1,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS, '--js-flags=--expose-gc', '--enable-precise-memory-info'],
    },
    viewport: { width: 1280, height: 900 },
    deviceScaleFactor: 1,
  },
});
