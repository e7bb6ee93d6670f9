import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/browser';

/** Browser tests of the flamegraph against `emberscope playground` (see tests/support/playground.ts). */
export default defineConfig({
  testDir: './e2e',
  outputDir: '../test-results/e2e',
  timeout: 120_000,
  workers: 1,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 900 },
  },
});
