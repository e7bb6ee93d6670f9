import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN_ENV, buildEmberscope, REPO } from './playground';

/**
 * Runs once before all browser tests: checks that the playground page is built and builds
 * the emberscope binary once; the test workers find it in $EMBERSCOPE_TEST_BIN.
 */
export default function globalSetup() {
  const page = path.join(REPO, 'dist-playground', 'index.html');
  if (!fs.existsSync(page)) {
    throw new Error(`${page} is missing: run "npm run build:playground" first (npm run e2e does)`);
  }
  if (!process.env[BIN_ENV]) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberscope-bin-'));
    process.env[BIN_ENV] = buildEmberscope(dir);
    process.env.EMBERSCOPE_TEST_BIN_DIR = dir;
  }
}
