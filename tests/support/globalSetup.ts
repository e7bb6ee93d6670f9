// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN_ENV, buildEmberscope, PAGE_INDEX } from './playground';

/**
 * Runs once before all browser tests: checks that the playground page is built, then builds the
 * emberscope binary once (embedding the page) unless $EMBERSCOPE_TEST_BIN already names one
 * (scripts/test.sh passes the bin/emberscope it built after the page); the test workers find it
 * in $EMBERSCOPE_TEST_BIN.
 */
export default function globalSetup() {
  if (!fs.existsSync(PAGE_INDEX)) {
    throw new Error(`${PAGE_INDEX} is missing: run "npm run build:playground" first (npm run e2e does)`);
  }
  const given = process.env[BIN_ENV];
  if (given) {
    if (!fs.existsSync(given)) {
      throw new Error(`$${BIN_ENV} names ${given}, which does not exist: build it after the page, or unset it`);
    }
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberscope-bin-'));
  process.env[BIN_ENV] = buildEmberscope(dir);
  process.env.EMBERSCOPE_TEST_BIN_DIR = dir;
}
