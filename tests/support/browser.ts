// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import fs from 'node:fs';

/** Chromium from Debian (Playwright's own browser download is not reachable here). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * The browser the tests drive: Debian's chromium-headless-shell (the same Blink and V8 as its
 * chromium, without the desktop browser around them), which loads a page for half the CPU of
 * `chromium --headless`; the full chromium when the shell is not installed. The benchmark keeps
 * the full chromium (CHROMIUM_PATH): its numbers are a user's browser's.
 */
export const TEST_BROWSER_PATH =
  process.env.CHROMIUM_HEADLESS_SHELL_PATH ||
  (fs.existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : CHROMIUM_PATH);

/** Flags every launch uses: no sandbox (root in CI), no GPU, no background traffic. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
