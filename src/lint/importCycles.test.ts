// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { spawnSync } from 'child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import path from 'path';

// The project's cycle rule (eslint.cycles.mjs, which `npm run lint` applies to src) over two small
// modules that import each other and two that do not: only the first pair may be reported. The
// rule needs no type information, so it runs alone, without the typed program. That src has no
// cycle is `npm run lint`'s to say: walking all of src here would double its cost.
const root = path.resolve(__dirname, '../..');

describe('the import-cycle lint', () => {
  let dir = '';
  beforeAll(() => {
    // inside src, where the cycle rule applies
    dir = mkdtempSync(path.join(root, 'src', 'lint', 'cycle-'));
    writeFileSync(path.join(dir, 'ping.ts'), "import { pong } from './pong';\nexport const ping = () => pong();\n");
    writeFileSync(path.join(dir, 'pong.ts'), "import { ping } from './ping';\nexport const pong = () => ping;\n");
    writeFileSync(
      path.join(dir, 'upper.ts'),
      "import { lower } from './lower';\nexport const upper = () => lower();\n"
    );
    writeFileSync(path.join(dir, 'lower.ts'), 'export const lower = () => 1;\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails on an import cycle and names both of its modules', () => {
    const files = ['ping.ts', 'pong.ts', 'upper.ts', 'lower.ts'].map((f) => path.join(dir, f));
    // the report goes to a file: a plugin may print a notice on standard output
    const report = path.join(dir, 'report.json');
    const run = spawnSync(
      process.execPath,
      [
        path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'),
        '--no-cache',
        '--config',
        path.join(root, 'eslint.cycles.mjs'),
        '--format',
        'json',
        '--output-file',
        report,
        ...files,
      ],
      { cwd: root, encoding: 'utf8' }
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(1);
    const results: Array<{ filePath: string; messages: Array<{ ruleId: string | null }> }> = JSON.parse(
      readFileSync(report, 'utf8')
    );
    const cycles = Object.fromEntries(
      results.map((r) => [path.basename(r.filePath), r.messages.filter((m) => m.ruleId === 'import-x/no-cycle').length])
    );
    expect(cycles).toEqual({ 'ping.ts': 1, 'pong.ts': 1, 'upper.ts': 0, 'lower.ts': 0 });
  });
});
