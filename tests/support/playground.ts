// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

/** The repository root (tests/support/ → ../..). */
export const REPO = path.resolve(__dirname, '..', '..');

/** A running `emberscope playground` with its embedded store. */
export interface Playground {
  /** Base URL of the playground page and Grafana-shaped API. */
  url: string;
  /** Base URL of the embedded store (its /ingest takes pprof files). */
  storeUrl: string;
  stop: () => Promise<void>;
}

/** The environment variable naming a built emberscope binary (set by global-setup). */
export const BIN_ENV = 'EMBERSCOPE_TEST_BIN';

/** Builds the emberscope binary once into dir and returns its path. */
export function buildEmberscope(dir: string): string {
  const bin = path.join(dir, 'emberscope');
  execFileSync('go', ['build', '-o', bin, './cmd/emberscope'], { cwd: REPO, stdio: 'inherit' });
  return bin;
}

/** The built playground page, which `go build` embeds in the binary (pkg/hosts/playground/page). */
export const PAGE_INDEX = path.join(REPO, 'pkg', 'hosts', 'playground', 'page', 'built', 'index.html');

/**
 * Starts `emberscope playground -listen 127.0.0.1:0 -data <tmp>` (and extraArgs) from a temporary directory (it
 * serves the page embedded in the binary, so nothing beside it is needed), and waits until it
 * prints its addresses. The playground binds the port itself and prints it: test workers run
 * side by side, and a port picked here and freed before the playground binds it could be taken
 * by another worker's (or a Go test's) listener in between.
 */
export async function startPlayground(extraArgs: string[] = []): Promise<Playground> {
  if (!fs.existsSync(PAGE_INDEX)) {
    throw new Error(`${PAGE_INDEX} is missing: run "npm run build:playground" first, then build the binary`);
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'emberscope-e2e-'));
  const bin = process.env[BIN_ENV] || buildEmberscope(tmp);
  const child: ChildProcess = spawn(
    bin,
    // -backfill: the diff spec loads the recorded Pyroscope profiles, filed at their own dates.
    ['playground', '-listen', '127.0.0.1:0', '-data', path.join(tmp, 'data'), '-backfill', ...extraArgs],
    {
      cwd: tmp,
      stdio: ['ignore', 'pipe', 'pipe'],
    }
  );
  let out = '';
  const ready = new Promise<{ url: string; storeUrl: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`playground did not start within 60 s; output:\n${out}`)), 60_000);
    const onData = (b: Buffer) => {
      out += b.toString();
      const store = out.match(/send profiles to (http:\/\/[^\s)]+)\/ingest/);
      // the address ends with the space before "(profiles from …)": never cut off mid-chunk
      const page = out.match(/playground at (http:\/\/\S+)\s/);
      if (store && page) {
        clearTimeout(timer);
        resolve({ url: page[1], storeUrl: store[1] });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`playground exited with ${code} before it was ready; output:\n${out}`));
    });
  });
  const { url, storeUrl } = await ready;
  return {
    url,
    storeUrl,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          fs.rmSync(tmp, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** The recorded CPU profile the browser tests show (internal/fixtures/profiles/README.md). */
export const BROWSER_PROFILE = path.join(REPO, 'internal', 'fixtures', 'profiles', 'browser.cpu.pb.gz');

/** Appends a varint to out. */
function pushVarint(out: number[], v: bigint): void {
  while (v >= BigInt(0x80)) {
    out.push(Number(v & BigInt(0x7f)) | 0x80);
    v >>= BigInt(7);
  }
  out.push(Number(v));
}

/**
 * Returns the pprof (a gzipped profile.proto) with its time_nanos (field 9) set to `at`: the
 * top-level fields are copied except field 9, and a new field 9 is appended.
 */
export function redated(pprofGz: Buffer, at: Date) {
  const raw = zlib.gunzipSync(pprofGz);
  const out: number[] = [];
  let i = 0;
  const varint = (): bigint => {
    let v = BigInt(0);
    let shift = BigInt(0);
    for (;;) {
      if (i >= raw.length) {
        throw new Error('redated: truncated varint in the profile');
      }
      const b = raw[i++];
      v |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) {
        return v;
      }
      shift += BigInt(7);
    }
  };
  while (i < raw.length) {
    const start = i;
    const key = varint();
    const wire = Number(key & BigInt(7));
    if (wire === 0) {
      varint();
    } else if (wire === 1) {
      i += 8;
    } else if (wire === 2) {
      const n = Number(varint()); // read before adding: `i += varint()` would add to the old i
      i += n;
    } else if (wire === 5) {
      i += 4;
    } else {
      throw new Error(`redated: unsupported wire type ${wire} in the profile`);
    }
    if (key >> BigInt(3) !== BigInt(9)) {
      for (let j = start; j < i; j++) {
        out.push(raw[j]);
      }
    }
  }
  pushVarint(out, (BigInt(9) << BigInt(3)) | BigInt(0));
  pushVarint(out, BigInt(at.getTime()) * BigInt(1000000));
  return zlib.gzipSync(Buffer.from(out));
}

/** The real pprof files pushed to a real Pyroscope (the recordings' inputs). */
export const PUSHED_PROFILES = path.join(REPO, 'internal', 'fixtures', 'pyroscope', 'pushed-profiles');

/** Ingests one of PUSHED_PROFILES into the store as `service` (filed under the profile's own time). */
export async function ingestPushedProfile(storeUrl: string, file: string, service: string): Promise<void> {
  const res = await fetch(`${storeUrl}/ingest?name=${encodeURIComponent(service)}&format=pprof`, {
    method: 'POST',
    body: fs.readFileSync(path.join(PUSHED_PROFILES, file)),
  });
  if (!res.ok) {
    throw new Error(`ingest ${file} into ${storeUrl} failed: HTTP ${res.status}: ${await res.text()}`);
  }
}

/**
 * Sends the recorded real CPU profile (made once with runtime/pprof by
 * internal/fixtures/cmd/record: main.handleRequest → main.parseJSON / main.hashBlocks for
 * route=/api/orders, main.compress for route=/api/archive), filed at the current time, to the
 * store's /ingest as service `service`.
 */
export async function ingestRealProfile(storeUrl: string, service: string): Promise<void> {
  const body = redated(fs.readFileSync(BROWSER_PROFILE), new Date());
  const name = encodeURIComponent(`e2e{service_name=${service}}`);
  const res = await fetch(`${storeUrl}/ingest?name=${name}&format=pprof`, { method: 'POST', body });
  if (!res.ok) {
    throw new Error(`ingest into ${storeUrl} failed: HTTP ${res.status}: ${await res.text()}`);
  }
}
