// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { expect, Page, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import zlib from 'node:zlib';
import { nodeBox } from '../support/canvas';
import { BIN_ENV, Playground, REPO, redated, startPlayground } from '../support/playground';

/**
 * The app's "Open a file" page: real files dropped in (picked through its file input) show
 * what google/pprof says of them (`go tool pprof`, run here), collapsed stacks the sums of
 * their lines, a `node --cpu-prof` profile made here the self times its samples give, a file
 * against a live query of profiles ingested here pprof's -diff_base against the store's own
 * answer, the downloaded pprof what is shown, and garbage, a gzip bomb, an empty file and a file
 * over the limit a clear error.
 */

const PROFILES = path.join(REPO, 'internal', 'fixtures', 'profiles');
const APP_OPENFILE = '/a/emberscope-app/openfile';

let pg: Playground;
let tmp: string;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  pg = await startPlayground();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'emberscope-openfile-'));
});

test.afterAll(async () => {
  await pg?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** google/pprof's output for args on the files. */
function pprof(...args: string[]): string {
  return execFileSync('go', ['tool', 'pprof', ...args], { cwd: REPO, encoding: 'utf8', maxBuffer: 64 << 20 });
}

/** `go tool pprof -top` in ns: the flat value of each function and the net total. */
function pprofTop(...args: string[]): { flat: Map<string, number>; net: number } {
  const out = pprof('-top', '-nodecount=0', '-nodefraction=0', '-edgefraction=0', '-unit=ns', ...args);
  const flat = new Map<string, number>();
  let rows = false;
  let net = 0;
  for (const line of out.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f[0] === 'flat') {
      rows = true;
    } else if (rows && f.length >= 6) {
      const v = Number(f[0].replace(/ns$/, ''));
      const name = f.slice(5).join(' ').replace(/ \((partial-)?inline\)$/, '');
      flat.set(name, (flat.get(name) ?? 0) + v);
      net += v;
    }
  }
  expect(rows, `pprof printed no rows:\n${out}`).toBe(true);
  return { flat, net };
}

/** The largest n of a flat map by magnitude, shape-free names only (as the frames name them). */
function largest(flat: Map<string, number>, n: number): Array<[string, number]> {
  return [...flat.entries()]
    .filter(([name, v]) => v !== 0 && !name.includes('go.shape'))
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .slice(0, n);
}

async function openFiles(page: Page, files: Array<string | { name: string; mimeType: string; buffer: Buffer }>) {
  await page.goto(`${pg.url}${APP_OPENFILE}`);
  await expect(page.getByTestId('openfile-page')).toBeVisible();
  await page.getByTestId('openfile-input').setInputFiles(files as Parameters<Page['setInputFiles']>[1]);
}

async function total(page: Page): Promise<number> {
  const t = page.getByTestId('openfile-totals');
  await expect(t).toBeVisible();
  return Number(await t.getAttribute('data-total'));
}

async function functionValue(page: Page, name: string): Promise<number> {
  const row = page.locator(`[data-testid="openfile-top-row"][data-name="${name}"]`);
  await expect(row).toBeVisible();
  return Number(await row.getAttribute('data-value'));
}

test('a pprof file shows pprof total, top functions and labels breakdown', async ({ page }) => {
  const file = path.join(PROFILES, 'browser.cpu.pb.gz');
  await openFiles(page, [file]);
  const want = pprofTop(file);
  expect(await total(page)).toBe(want.net);
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  for (const [name, flat] of largest(want.flat, 3)) {
    expect(await functionValue(page, name), name).toBe(flat);
  }
  // the labels breakdown is pprof's -tags
  const tags = pprof('-tags', '-unit=ns', '-tagfocus=route=.', file);
  const rows = [...tags.matchAll(/^\s+(\d+)ns \(\s*[\d.]+%\): (\S+)$/gm)].map((m) => [m[2], Number(m[1])] as const);
  expect(rows.length, tags).toBeGreaterThan(0);
  await page.getByLabel('Breakdown label').fill('route');
  await page.getByLabel('Breakdown label').blur();
  for (const [value, v] of rows) {
    const row = page.locator(`[data-testid="openfile-label-row"][data-value="${value}"]`);
    await expect(row).toHaveAttribute('data-total', String(v));
  }
});

test('two files compared show the per-function differences of pprof -diff_base', async ({ page }) => {
  const base = path.join(PROFILES, 'routes-1.cpu.pb.gz');
  const comp = path.join(PROFILES, 'routes-2.cpu.pb.gz');
  await openFiles(page, [base, comp]);
  await expect(page.getByTestId('openfile-file')).toHaveCount(2);
  await page.getByRole('radio', { name: 'Compare two' }).click();
  await expect(page.getByTestId('openfile-totals')).toHaveAttribute('data-comparison', /\d+/);
  const want = pprofTop(`-diff_base=${base}`, comp);
  for (const [name, flat] of largest(want.flat, 3)) {
    await expect(page.locator(`[data-testid="openfile-top-row"][data-name="${name}"]`), name).toHaveAttribute('data-value', String(flat));
  }
});

test('collapsed stacks show the sums of their lines', async ({ page }) => {
  const text = 'main;parse;json.Unmarshal 30\nmain;hash 12\nmain;parse 5\nmain;hash 8\n';
  await openFiles(page, [{ name: 'stacks.txt', mimeType: 'text/plain', buffer: Buffer.from(text) }]);
  expect(await total(page)).toBe(55);
  expect(await functionValue(page, 'json.Unmarshal')).toBe(30);
  expect(await functionValue(page, 'hash')).toBe(20);
  expect(await functionValue(page, 'parse')).toBe(5);
});

test('a node --cpu-prof profile shows the self time its samples give', async ({ page }) => {
  const script = path.join(tmp, 'burn.js');
  fs.writeFileSync(
    script,
    `function burnAlpha(ms) { const end = Date.now() + ms; let x = 0; while (Date.now() < end) { x += Math.sqrt(x + 1); } return x; }
function burnBeta(ms) { const end = Date.now() + ms; let x = 0; while (Date.now() < end) { x += Math.sin(x + 1); } return x; }
for (let i = 0; i < 4; i++) { burnAlpha(60); burnBeta(30); }
`
  );
  const dir = path.join(tmp, 'prof');
  execFileSync('node', ['--cpu-prof', `--cpu-prof-dir=${dir}`, script]);
  const name = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!;
  const file = path.join(dir, name);
  // the oracle: sample i lasts until sample i+1, the last until endTime (µs)
  const cp = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    nodes: Array<{ id: number; callFrame: { functionName: string } }>;
    startTime: number;
    endTime: number;
    samples: number[];
    timeDeltas: number[];
  };
  const fn = new Map(cp.nodes.map((n) => [n.id, n.callFrame.functionName || '(anonymous)']));
  const self = new Map<string, number>();
  const times: number[] = [];
  let t = cp.startTime;
  for (const d of cp.timeDeltas) {
    t += d;
    times.push(t);
  }
  cp.samples.forEach((id, i) => {
    const d = Math.max(0, (i + 1 < times.length ? times[i + 1] : cp.endTime) - times[i]);
    self.set(fn.get(id)!, (self.get(fn.get(id)!) ?? 0) + d * 1000);
  });
  await openFiles(page, [file]);
  expect(await total(page)).toBe((cp.endTime - times[0]) * 1000);
  for (const f of ['burnAlpha', 'burnBeta']) {
    expect(self.get(f), `${f} has samples in the profile`).toBeGreaterThan(0);
    expect(await functionValue(page, f), f).toBe(self.get(f));
  }
});

test('garbage gets a clear error and the page keeps working', async ({ page }) => {
  await openFiles(page, [{ name: 'garbage.bin', mimeType: 'application/octet-stream', buffer: Buffer.from([0, 1, 2, 0xff, 0xfe, 7]) }]);
  await expect(page.getByTestId('openfile-error')).toContainText('garbage.bin: not a profile');
  await page.getByTestId('openfile-input').setInputFiles([path.join(PROFILES, 'browser.cpu.pb.gz')]);
  expect(await total(page)).toBe(pprofTop(path.join(PROFILES, 'browser.cpu.pb.gz')).net);
});

/** Seconds of a value the panel formats ("2.01 s", "870 ms"). */
function seconds(text: string): number {
  const m = text.match(/([\d.]+)\s*(ns|µs|ms|s|min)\b/);
  expect(m, `a duration in ${text}`).toBeTruthy();
  const scale: Record<string, number> = { ns: 1e-9, µs: 1e-6, ms: 1e-3, s: 1, min: 60 };
  return Number(m![1]) * scale[m![2]];
}

test('emberscope open serves a page showing pprof total', async ({ page }) => {
  const file = path.join(PROFILES, 'browser.cpu.pb.gz');
  const bin = process.env[BIN_ENV];
  expect(bin, 'global setup built the binary').toBeTruthy();
  const child = spawn(bin!, ['open', '-listen', '127.0.0.1:0', '-no_browser', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const onData = (b: Buffer) => {
        out += b.toString();
        const m = out.match(/ on (http:\/\/\S+)\n/);
        if (m) {
          resolve(m[1]);
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.on('exit', (code) => reject(new Error(`emberscope open exited with ${code}:\n${out}`)));
    });
    await page.goto(url);
    await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
    const root = await nodeBox(page, 'total');
    await page.mouse.move(root.x + root.width / 2, root.y + root.height / 2);
    const tip = page.getByTestId('flamegraph-tooltip');
    await expect(tip.getByTestId('tooltip-name')).toHaveText('total');
    const want = pprofTop(file).net / 1e9;
    const shown = seconds((await tip.getByTestId('tooltip-total').innerText()) ?? '');
    // the panel shows three significant digits
    expect(Math.abs(shown - want) / want).toBeLessThan(0.005);
  } finally {
    child.kill('SIGTERM');
  }
});

const CPU_TYPE = 'process_cpu:cpu:nanoseconds:cpu:nanoseconds';

/** Appends the protobuf key of field n (wire type w) or a varint to out. */
function varint(out: number[], v: bigint): void {
  while (v >= BigInt(0x80)) {
    out.push(Number(v & BigInt(0x7f)) | 0x80);
    v >>= BigInt(7);
  }
  out.push(Number(v));
}

/**
 * The store's own answer for a selector over a range: its querier.v1 SelectMergeProfile (connect,
 * protobuf), a pprof profile, written to a file for `go tool pprof`.
 */
async function storeProfile(selector: string, from: number, to: number, file: string): Promise<string> {
  const body: number[] = [];
  for (const [n, text] of [
    [1, CPU_TYPE],
    [2, selector],
  ] as const) {
    const b = Buffer.from(text);
    varint(body, BigInt((n << 3) | 2));
    varint(body, BigInt(b.length));
    body.push(...b);
  }
  for (const [n, v] of [
    [3, from],
    [4, to],
  ] as const) {
    varint(body, BigInt(n << 3));
    varint(body, BigInt(v));
  }
  const res = await fetch(`${pg.storeUrl}/querier.v1.QuerierService/SelectMergeProfile`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/proto' },
    body: Buffer.from(body),
  });
  expect(res.ok, `SelectMergeProfile: HTTP ${res.status}`).toBe(true);
  const out = path.join(tmp, file);
  fs.writeFileSync(out, Buffer.from(await res.arrayBuffer()));
  return out;
}

async function ingest(file: string, service: string) {
  const body = redated(fs.readFileSync(path.join(PROFILES, file)), new Date());
  const res = await fetch(`${pg.storeUrl}/ingest?name=${encodeURIComponent(`${service}{}`)}&format=pprof`, { method: 'POST', body });
  expect(res.ok, `ingest ${file} as ${service}: HTTP ${res.status}`).toBe(true);
}

/** The page's Download pprof, saved to a file. */
async function download(page: Page, name: string): Promise<string> {
  const saved = page.waitForEvent('download');
  await page.getByTestId('openfile-export').click();
  const out = path.join(tmp, name);
  await (await saved).saveAs(out);
  return out;
}

test('a file against a live query shows pprof -diff_base against the store, and downloads as shown', async ({ page }) => {
  // production is live in the store; the benchmark is a file (the store's answer for another
  // service, so that pprof takes both: one sample type each)
  await ingest('routes-1.cpu.pb.gz', 'prod');
  await ingest('routes-2.cpu.pb.gz', 'bench');
  const from = Date.now() - 3_600_000;
  const to = Date.now() + 60_000;
  const live = await storeProfile('{service_name="prod"}', from, to, 'prod.pb');
  const bench = await storeProfile('{service_name="bench"}', from, to, 'bench.pb');
  const want = pprofTop(`-diff_base=${live}`, bench);

  await page.goto(`${pg.url}${APP_OPENFILE}?type=${encodeURIComponent(CPU_TYPE)}&from=${from}&to=${to}`);
  await page.getByTestId('openfile-input').setInputFiles([bench]);
  await expect(page.getByTestId('openfile-file')).toHaveCount(1);
  await page.getByRole('radio', { name: 'Against a live query' }).click();
  await page.getByLabel('Live label selector').fill('{service_name="prod"}');
  await page.getByLabel('Live label selector').blur();
  const totals = page.getByTestId('openfile-totals');
  await expect(totals).toHaveAttribute('data-total', String(pprofTop(live).net));
  await expect(totals).toHaveAttribute('data-comparison', String(pprofTop(bench).net));
  for (const [name, flat] of largest(want.flat, 5)) {
    await expect(page.locator(`[data-testid="openfile-top-row"][data-name="${name}"]`), name).toHaveAttribute('data-value', String(flat));
  }

  // the download is the diff as pprof builds it: its flats are the differences shown
  const got = pprofTop(await download(page, 'diff.pb.gz'));
  expect(got.net).toBe(want.net);
  for (const [name, flat] of want.flat) {
    expect(got.flat.get(name) ?? 0, name).toBe(flat);
  }

  // -normalize scales the comparison to the baseline's total, as pprof's
  await page.getByRole('checkbox', { name: 'Normalize' }).check({ force: true });
  const norm = pprofTop(`-diff_base=${live}`, '-normalize', bench);
  for (const [name, flat] of largest(norm.flat, 3)) {
    await expect(page.locator(`[data-testid="openfile-top-row"][data-name="${name}"]`), name).toHaveAttribute('data-value', String(flat));
  }
});

test('a file downloads as pprof with the total shown', async ({ page }) => {
  const file = path.join(PROFILES, 'browser.cpu.pb.gz');
  await openFiles(page, [file]);
  const shown = await total(page);
  const got = pprofTop(await download(page, 'file.pb.gz'));
  expect(got.net).toBe(shown);
  expect(got.net).toBe(pprofTop(file).net);
});

/**
 * A gzip bomb: n members of one MiB of zeros each (gzip readers join members), a few hundred
 * KiB that inflate to n MiB.
 */
function gzipBomb(mib: number): Buffer {
  const member = zlib.gzipSync(Buffer.alloc(1 << 20), { level: 9 });
  return Buffer.concat(Array.from({ length: mib }, () => member));
}

test('a gzip bomb, an empty file and a file over the limit get clear errors and the page keeps working', async ({ page }) => {
  const bomb = gzipBomb(520);
  const over = path.join(tmp, 'over.pb.gz');
  fs.writeFileSync(over, '');
  fs.truncateSync(over, 65 << 20);
  await openFiles(page, [
    { name: 'bomb.pb.gz', mimeType: 'application/gzip', buffer: bomb },
    { name: 'empty.pb.gz', mimeType: 'application/gzip', buffer: Buffer.alloc(0) },
  ]);
  const errors = page.getByTestId('openfile-error');
  await expect(errors.filter({ hasText: 'bomb.pb.gz: the file is more than' })).toContainText('once decompressed');
  await expect(errors.filter({ hasText: 'empty.pb.gz: the file is empty' })).toHaveCount(1);
  await page.getByTestId('openfile-input').setInputFiles([over]);
  await expect(errors.filter({ hasText: `over.pb.gz: the file has ${65 << 20} bytes, more than the limit` })).toHaveCount(1);
  await page.getByTestId('openfile-input').setInputFiles([path.join(PROFILES, 'browser.cpu.pb.gz')]);
  expect(await total(page)).toBe(pprofTop(path.join(PROFILES, 'browser.cpu.pb.gz')).net);
});
