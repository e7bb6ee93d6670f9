#!/usr/bin/env node
// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Counts the tests of one runner, fails on a skipped test that the allow-list
// (scripts/skip-allowlist.txt) does not name, and prints the totals of all
// runners. Used by scripts/test.sh; needs only Node.
//
//   go test -json ... | node scripts/test-report.mjs go SUMMARY.json
//   node scripts/test-report.mjs jest JEST.json SUMMARY.json
//   node scripts/test-report.mjs playwright PLAYWRIGHT.json SUMMARY.json
//   node scripts/test-report.mjs totals DIR
//
// A summary is {runner, passed, failed, skipped: [{id, reason}]}. A test's id
// is what the allow-list names: "go <package> <Test/sub>", "jest <file> > <name>",
// "playwright <file> > <title>".
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const ALLOW_FILE = path.join(ROOT, 'scripts', 'skip-allowlist.txt');

/** The allow-list: test id → reason. A line is "<id> -- <reason>"; # starts a comment. */
function allowList() {
  const allowed = new Map();
  if (!fs.existsSync(ALLOW_FILE)) {
    return allowed;
  }
  fs.readFileSync(ALLOW_FILE, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const text = line.trim();
      if (text === '' || text.startsWith('#')) {
        return;
      }
      const at = text.indexOf(' -- ');
      if (at < 0 || text.slice(at + 4).trim() === '') {
        throw new Error(`${ALLOW_FILE}:${i + 1}: "${text}" gives no reason (write "<test id> -- <reason>")`);
      }
      allowed.set(text.slice(0, at).trim(), text.slice(at + 4).trim());
    });
  return allowed;
}

/** Writes the summary and fails (exit 1) on skips the allow-list does not name. */
function finish(summary, out) {
  fs.writeFileSync(out, JSON.stringify(summary, null, 2));
  const allowed = allowList();
  const bad = summary.skipped.filter((s) => !allowed.has(s.id));
  console.log(
    `${summary.runner}: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped.length} skipped` +
      (summary.skipped.length > bad.length ? ` (${summary.skipped.length - bad.length} allowed)` : '')
  );
  for (const s of summary.skipped) {
    const why = allowed.get(s.id);
    console.log(`  ${why ? 'allowed skip' : 'SKIPPED, not in scripts/skip-allowlist.txt'}: ${s.id}${s.reason ? ` (${s.reason})` : ''}`);
  }
  if (bad.length > 0) {
    console.log(`${bad.length} skipped test(s) not in scripts/skip-allowlist.txt: a skipped test fails the run`);
  }
  process.exitCode = summary.failed > 0 || bad.length > 0 ? 1 : 0;
}

/** Reads `go test -json` from stdin, prints what a person needs to see, and counts. */
async function goReport(out) {
  const summary = { runner: 'go', passed: 0, failed: 0, skipped: [] };
  const outputs = new Map(); // "pkg test" → output lines
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    let ev;
    try {
      ev = JSON.parse(line);
    } catch {
      console.log(line); // not an event: the go command's own message
      continue;
    }
    if (ev.Action === 'build-output') {
      process.stdout.write(ev.Output ?? '');
      continue;
    }
    const key = `${ev.Package} ${ev.Test ?? ''}`;
    if (ev.Action === 'output') {
      if (!ev.Test) {
        // package lines: "ok ...", "FAIL ...", panics and build failures
        const text = ev.Output ?? '';
        if (!/^(PASS|=== |--- )/.test(text) && !/^\?\s/.test(text)) {
          process.stdout.write(text);
        }
        if (outputs.has(key)) {
          outputs.get(key).push(text);
        }
        continue;
      }
      if (!outputs.has(key)) {
        outputs.set(key, []);
      }
      outputs.get(key).push(ev.Output ?? '');
      continue;
    }
    if (!ev.Test) {
      continue; // a package's result: its tests are counted one by one
    }
    const id = `go ${ev.Package} ${ev.Test}`;
    if (ev.Action === 'pass') {
      summary.passed++;
    } else if (ev.Action === 'fail') {
      summary.failed++;
      process.stdout.write(`--- FAIL: ${ev.Package} ${ev.Test}\n${(outputs.get(key) ?? []).join('')}`);
    } else if (ev.Action === 'skip') {
      const lines = (outputs.get(key) ?? []).filter((l) => !/^\s*(=== |--- SKIP)/.test(l));
      summary.skipped.push({ id, reason: lines.join(' ').replace(/\s+/g, ' ').trim() });
    }
    if (['pass', 'fail', 'skip'].includes(ev.Action)) {
      outputs.delete(key);
    }
  }
  finish(summary, out);
}

/** Counts Jest's --json output. */
function jestReport(file, out) {
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  const summary = { runner: 'jest', passed: 0, failed: 0, skipped: [] };
  for (const suite of r.testResults ?? []) {
    const rel = path.relative(ROOT, suite.name);
    for (const a of suite.assertionResults ?? []) {
      if (a.status === 'passed') {
        summary.passed++;
      } else if (a.status === 'failed') {
        summary.failed++;
      } else {
        summary.skipped.push({ id: `jest ${rel} > ${a.fullName}`, reason: a.status });
      }
    }
    if (suite.status === 'failed' && (suite.assertionResults ?? []).length === 0) {
      summary.failed++; // a file that failed to run
      console.log(`jest: ${rel} failed to run: ${suite.message}`);
    }
  }
  finish(summary, out);
}

/** Counts Playwright's json reporter output. */
function playwrightReport(file, out) {
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  const summary = { runner: 'playwright', passed: 0, failed: 0, skipped: [] };
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const id = `playwright ${spec.file} > ${spec.title}${t.projectName ? ` [${t.projectName}]` : ''}`;
        if (t.status === 'expected' || t.status === 'flaky') {
          summary.passed++;
        } else if (t.status === 'skipped') {
          const why = (t.annotations ?? []).map((a) => a.description ?? a.type).join('; ');
          summary.skipped.push({ id, reason: why });
        } else {
          summary.failed++;
        }
      }
    }
    (suite.suites ?? []).forEach(walk);
  };
  (r.suites ?? []).forEach(walk);
  for (const e of r.errors ?? []) {
    summary.failed++;
    console.log(`playwright: ${e.message ?? JSON.stringify(e)}`);
  }
  finish(summary, out);
}

/** Prints the totals of every summary in dir. */
function totals(dir) {
  const rows = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.summary.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
  const byRunner = new Map();
  for (const r of rows) {
    const t = byRunner.get(r.runner) ?? { passed: 0, failed: 0, skipped: 0 };
    t.passed += r.passed;
    t.failed += r.failed;
    t.skipped += r.skipped.length;
    byRunner.set(r.runner, t);
  }
  const all = { passed: 0, failed: 0, skipped: 0 };
  console.log(`${'tests'.padEnd(12)}${'passed'.padStart(8)}${'failed'.padStart(8)}${'skipped'.padStart(9)}`);
  for (const [runner, t] of byRunner) {
    console.log(`${runner.padEnd(12)}${String(t.passed).padStart(8)}${String(t.failed).padStart(8)}${String(t.skipped).padStart(9)}`);
    all.passed += t.passed;
    all.failed += t.failed;
    all.skipped += t.skipped;
  }
  console.log(`${'all'.padEnd(12)}${String(all.passed).padStart(8)}${String(all.failed).padStart(8)}${String(all.skipped).padStart(9)}`);
}

const [cmd, ...args] = process.argv.slice(2);
try {
  if (cmd === 'go') {
    await goReport(args[0]);
  } else if (cmd === 'jest') {
    jestReport(args[0], args[1]);
  } else if (cmd === 'playwright') {
    playwrightReport(args[0], args[1]);
  } else if (cmd === 'totals') {
    totals(args[0]);
  } else {
    throw new Error(`unknown command ${cmd ?? '(none)'}: go, jest, playwright or totals`);
  }
} catch (err) {
  console.error(`test-report: ${err.message}`);
  process.exitCode = 1;
}
