// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import fs from 'node:fs';

/** Removes the binary global-setup built (not one the caller passed in $EMBERSCOPE_TEST_BIN). */
export default function globalTeardown() {
  const dir = process.env.EMBERSCOPE_TEST_BIN_DIR;
  if (dir) {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
