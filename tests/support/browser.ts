// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/** Chromium from Debian (Playwright's own browser download is not reachable here). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Flags every launch uses: no sandbox (root in CI), no GPU, no background traffic. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
