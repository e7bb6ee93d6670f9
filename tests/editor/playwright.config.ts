import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/browser';

/**
 * Browser tests of the query editor: `npx playwright test -c tests/editor/playwright.config.ts`.
 * They build the editor's test page (harness/) and serve it with `emberscope playground -static`,
 * so every query and resource call goes through the real pkg/plugin and embedded store.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../../test-results/editor',
  timeout: 120_000,
  workers: 1,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 1000 },
  },
});
