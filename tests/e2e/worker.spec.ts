// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { expect, Page, test, Worker } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { ingestRealProfile, Playground, REPO, startPlayground } from '../support/playground';
import { parseDot } from '../../src/panel/testing/pprofText';

/**
 * The panel's model worker in the playground: the call graph is placed and the sandwiches are
 * merged in it (the worker's own count of what it served says so), also under Grafana's default
 * content security policy (a nonce and 'strict-dynamic', no worker-src); where a Worker cannot
 * be made, or the policy forbids workers, the same call graph (pprof's 80 functions of
 * browser.cpu.pb.gz) and the same sandwich (pprof -peek's cum) are made on the main thread.
 */

const SERVICE = 'e2e-worker';
const EXPR = `process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="${SERVICE}"}`;
const DOT = parseDot(fs.readFileSync(path.join(REPO, 'internal/fixtures/profiles/browser.cpu.graph.dot'), 'utf8'));

// Grafana's default content_security_policy_template, its $NONCE filled in as Grafana does
const NONCE = 'e2eNonce0123';
const GRAFANA_CSP =
  `script-src 'self' 'unsafe-eval' 'unsafe-inline' 'strict-dynamic' 'nonce-${NONCE}';object-src 'none';` +
  "font-src 'self';style-src 'self' 'unsafe-inline' blob:;img-src * data:;base-uri 'self';" +
  "connect-src 'self';manifest-src 'self';media-src 'none';form-action 'self';";

let pg: Playground;
let from: number;
let to: number;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  pg = await startPlayground();
  await ingestRealProfile(pg.storeUrl, SERVICE);
  await ingestRealProfile(pg.storeUrl, SERVICE);
  to = Date.now() + 60_000;
  from = to - 3_600_000;
});

test.afterAll(async () => {
  await pg?.stop();
});

/** Serves the playground's page under a content security policy, its scripts given the nonce as Grafana gives its own. */
async function withPolicy(page: Page, policy: string) {
  await page.route(
    (url) => url.pathname === '/',
    async (route) => {
      const res = await route.fetch();
      const body = (await res.text()).replace(/<script /g, `<script nonce="${NONCE}" `);
      await route.fulfill({ response: res, body, headers: { ...res.headers(), 'content-security-policy': policy } });
    }
  );
}

/** The model workers the page starts. */
function workersOf(page: Page): Worker[] {
  const out: Worker[] = [];
  page.on('worker', (w) => out.push(w));
  return out;
}

/** What the worker answered, by kind (its script counts them). */
function served(w: Worker, kind: string): Promise<number> {
  return w.evaluate((k) => (self as unknown as { served: Record<string, number> }).served[k] ?? 0, kind);
}

/** Opens the call graph and then the top table's first sandwich; says what they show. */
async function callGraphAndSandwich(page: Page): Promise<{ boxes: number; name: string; summary: string }> {
  await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
  await page.evaluate(() => window.localStorage.clear());
  await page.reload();
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  await page.getByRole('radio', { name: 'Call graph' }).click();
  await expect(page.getByTestId('callgraph-svg')).toBeVisible();
  const boxes = await page.getByTestId('callgraph-node').count();
  await page.getByRole('radio', { name: 'Both' }).click();
  await page.getByTestId('top-table-sandwich').first().click();
  await expect(page.getByTestId('sandwich-view')).toHaveAttribute('data-whole', 'true');
  const summary = page.getByTestId('sandwich-summary');
  return { boxes, name: (await summary.getAttribute('title'))!, summary: await summary.innerText() };
}

/** pprof's ns (of one profile; it was ingested twice) in the panel's format, as the summary shows it. */
function total(v: number): string {
  const x = (v * 2) / 1e6;
  return x >= 1000 ? `${(x / 1000).toPrecision(3)} s` : `${x} ms`;
}

/** The sandwich's total is pprof's cum of its function (from `go tool pprof -dot` of the same file). */
function expectPprofTotal(shown: { name: string; summary: string }) {
  const node = DOT.nodes.find((n) => n.name === shown.name);
  expect(node, `${shown.name} is in pprof's graph`).toBeTruthy();
  expect(shown.summary).toContain(`total ${total(node!.cum)}`);
}

test('the call graph is placed and sandwiches are merged in the model worker', async ({ page }) => {
  const workers = workersOf(page);
  const shown = await callGraphAndSandwich(page);
  expect(shown.boxes).toBe(DOT.nodes.length);
  const model = workers.filter((w) => w.url().endsWith('/model-worker.js'));
  expect(model).toHaveLength(1);
  expect(await served(model[0], 'layout')).toBe(1);
  await expect.poll(() => served(model[0], 'sandwich')).toBeGreaterThan(0);
  expectPprofTotal(shown);
});

test("under Grafana's content security policy the model worker still does the work", async ({ page }) => {
  await withPolicy(page, GRAFANA_CSP);
  const workers = workersOf(page);
  const shown = await callGraphAndSandwich(page);
  expect(shown.boxes).toBe(DOT.nodes.length);
  const model = workers.filter((w) => w.url().endsWith('/model-worker.js'));
  expect(model).toHaveLength(1);
  expect(await served(model[0], 'layout')).toBe(1);
  expectPprofTotal(shown);
});

test('where no Worker can be made, the same call graph and sandwich are made on the main thread', async ({ page }) => {
  const reference = await callGraphAndSandwich(page);
  await page.addInitScript(() => {
    (window as unknown as { Worker: unknown }).Worker = class {
      constructor() {
        throw new DOMException('refused', 'SecurityError');
      }
    };
  });
  const workers = workersOf(page);
  const shown = await callGraphAndSandwich(page);
  expect(workers).toHaveLength(0);
  expect(shown).toEqual(reference);
  expectPprofTotal(shown);
});

test('where the policy forbids workers, the same call graph and sandwich are made on the main thread', async ({
  page,
}) => {
  const reference = await callGraphAndSandwich(page);
  await withPolicy(page, GRAFANA_CSP.replace('object-src', "worker-src 'none';object-src"));
  const shown = await callGraphAndSandwich(page);
  expect(shown).toEqual(reference);
  expectPprofTotal(shown);
});
