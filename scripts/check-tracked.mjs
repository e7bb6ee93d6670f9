#!/usr/bin/env node
// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Fails when git tracks a build output: an executable or object file (ELF,
// Mach-O, PE, WebAssembly, static archive) or any file over 5 MB. Fixtures are
// data (pprof, JSON, PNG), never programs; a large fixture belongs in
// scripts/tracked-large-allowlist.txt with its reason.
//
// One process reads the first bytes of every tracked file: the shell loop it
// replaces started four programs per file, seconds of CPU for a few thousand.
//
//   node scripts/check-tracked.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const LIMIT = 5 * 1024 * 1024;
const ALLOW_FILE = path.join(ROOT, 'scripts', 'tracked-large-allowlist.txt');

/** The kinds of program a file's first four bytes (as hex) announce. */
const MAGIC = [
  [/^7f454c46/, 'an ELF executable or object'],
  [/^(cffaedfe|cefaedfe|feedfacf|feedface|cafebabe)/, 'a Mach-O executable'],
  [/^0061736d/, 'a WebAssembly module'],
  [/^213c6172/, 'a static archive'],
  [/^4d5a/, 'a Windows (PE) executable'],
];

/** The large files allowed: one path a line, # starts a comment. */
function allowedLarge() {
  if (!fs.existsSync(ALLOW_FILE)) {
    return new Set();
  }
  const lines = fs.readFileSync(ALLOW_FILE, 'utf8').split('\n');
  return new Set(lines.map((l) => l.replace(/\s*#.*/, '').trim()).filter(Boolean));
}

/** What a tracked file is when it is a build output, or '' when it is not. */
function buildOutputKind(file, allowed, head) {
  const fd = fs.openSync(path.join(ROOT, file), 'r');
  let read;
  let size;
  try {
    size = fs.fstatSync(fd).size;
    read = fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  const magic = head.subarray(0, read).toString('hex');
  const program = MAGIC.find(([re]) => re.test(magic));
  if (program) {
    return program[1];
  }
  if (size > LIMIT && !allowed.has(file)) {
    return `over 5 MB (${size} bytes)`;
  }
  return '';
}

const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, maxBuffer: 1 << 28 })
  .toString('utf8')
  .split('\0')
  .filter(Boolean);
const allowed = allowedLarge();
const head = Buffer.alloc(4);
let bad = false;
for (const file of files) {
  const full = path.join(ROOT, file);
  // a tracked path deleted in the work tree, a symlink or a submodule is no file to read
  const stat = fs.lstatSync(full, { throwIfNoEntry: false });
  if (!stat || !stat.isFile()) {
    continue;
  }
  const kind = buildOutputKind(file, allowed, head);
  if (kind) {
    console.error(
      `tracked build output: ${file} is ${kind}; remove it with 'git rm --cached ${file}' and list it in .gitignore`
    );
    bad = true;
  }
}
if (bad) {
  process.exit(1);
}
console.log(`no tracked build outputs (${files.length} files checked)`);
