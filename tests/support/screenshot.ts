// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import type { Locator, Page } from '@playwright/test';
import path from 'node:path';
import { REPO } from './playground';

/** Where the screenshots go: test-results/screenshots/. */
export const SCREENSHOTS = path.join(REPO, 'test-results', 'screenshots');

/**
 * Saves a screenshot of what a test shows, for a person to look at, when EMBERSCOPE_SCREENSHOTS=1
 * (`EMBERSCOPE_SCREENSHOTS=1 npm run e2e`). No test compares them, and each costs the browser a
 * capture and a PNG, so the test command takes none.
 */
export async function screenshot(
  target: Page | Locator,
  name: string,
  options: { fullPage?: boolean } = {}
): Promise<void> {
  if (process.env.EMBERSCOPE_SCREENSHOTS !== '1') {
    return;
  }
  await target.screenshot({ path: path.join(SCREENSHOTS, name), ...options });
}
