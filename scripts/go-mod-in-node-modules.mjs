// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Writes node_modules/go.mod after every npm install (package.json's
// postinstall). Some npm packages ship Go source (flatted has a golang/
// folder), and the go command's ./... in the repository's root module would
// vet, build and test them as packages of ours. A go.mod makes node_modules a
// module of its own, and ./... stops at a folder holding another module, as it
// stops at x/k6: the go command's own patterns then cover exactly our packages.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const nodeModules = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'node_modules');
if (fs.existsSync(nodeModules)) {
  fs.writeFileSync(
    path.join(nodeModules, 'go.mod'),
    '// Written by scripts/go-mod-in-node-modules.mjs: keeps the Go files of npm packages\n' +
      "// out of the repository module's ./... patterns.\n" +
      'module emberscope.invalid/node_modules\n'
  );
}
