// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { expect, Page, test } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { ingestRealProfile, Playground, REPO, startPlayground } from '../support/playground';
import { parseDot } from '../../src/panel/testing/pprofText';
import { screenshot } from '../support/screenshot';

/**
 * pprof's call graph in the playground: the real browser.cpu.pb.gz pushed twice into the embedded
 * store, the panel switched to "Call graph" from its header, and every box and arrow it draws
 * checked against `go tool pprof -dot` of the same file (internal/fixtures/profiles/
 * browser.cpu.graph.dot, each number twice pprof's): the same 80 functions with their flat and
 * cum, the same arrows with their weights, dotted where pprof's are, and pprof's legend. Then a
 * function is picked and its sandwich opened from the graph, and the search dims what it misses.
 */

const SERVICE = 'e2e-callgraph';
const EXPR = `process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="${SERVICE}"}`;
const DOT = parseDot(fs.readFileSync(path.join(REPO, 'internal/fixtures/profiles/browser.cpu.graph.dot'), 'utf8'));
const TIMES = 2; // ingested twice

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

async function openCallGraph(page: Page, theme = 'light') {
  await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}&theme=${theme}`);
  await page.evaluate(() => window.localStorage.clear());
  await page.reload();
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  await page.getByRole('radio', { name: 'Call graph' }).click();
  await expect(page.getByTestId('callgraph-svg')).toBeVisible();
}

test("the call graph is pprof's, box for box and arrow for arrow", async ({ page }) => {
  await openCallGraph(page);
  const nodes = page.getByTestId('callgraph-node');
  await expect(nodes).toHaveCount(DOT.nodes.length);
  const shown = await nodes.evaluateAll((els) =>
    els.map((el) => ({
      name: el.getAttribute('data-name')!,
      flat: Number(el.getAttribute('data-flat')),
      cum: Number(el.getAttribute('data-cum')),
    }))
  );
  expect(shown).toEqual(DOT.nodes.map((n) => ({ name: n.name, flat: n.flat * TIMES, cum: n.cum * TIMES })));

  const edges = await page.getByTestId('callgraph-edge').evaluateAll((els) =>
    els.map((el) => ({
      from: el.getAttribute('data-from')!,
      to: el.getAttribute('data-to')!,
      weight: Number(el.getAttribute('data-weight')),
      residual: el.hasAttribute('data-residual'),
    }))
  );
  expect(edges).toEqual(DOT.edges.map((e) => ({ ...e, weight: e.weight * TIMES })));
  expect(edges.filter((e) => e.residual).length).toBeGreaterThan(0);

  // pprof's legend: what the picture shows and leaves out
  const top = DOT.legend.find((l) => l.startsWith('Showing top'))!;
  await expect(page.getByTestId('callgraph-legend')).toContainText(top);
  await expect(page.getByTestId('callgraph-legend')).toContainText('100% of 2.62 s total');

  // first as wide as the panel with the callers at the top, at most pprof's own size
  const svg0 = (await page.getByTestId('callgraph-svg').boundingBox())!;
  const root = (await page.locator('[data-testid="callgraph-node"][data-name="runtime.main"] rect').boundingBox())!;
  expect(root.y).toBeGreaterThanOrEqual(svg0.y);
  expect(root.y + root.height).toBeLessThan(svg0.y + svg0.height);
  await screenshot(page, 'callgraph-top.png');

  // "Fit": every box drawn inside the graph's area, none on top of another box
  await page.getByRole('button', { name: 'Fit' }).click();
  const svg = (await page.getByTestId('callgraph-svg').boundingBox())!;
  const boxes = await nodes.evaluateAll((els) =>
    els.map((el) => {
      const r = el.querySelector('rect')!.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    })
  );
  for (const b of boxes) {
    expect(b.x).toBeGreaterThanOrEqual(svg.x - 1);
    expect(b.y).toBeGreaterThanOrEqual(svg.y - 1);
    expect(b.x + b.width).toBeLessThanOrEqual(svg.x + svg.width + 1);
    expect(b.y + b.height).toBeLessThanOrEqual(svg.y + svg.height + 1);
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      expect(overlap, `${shown[i].name} and ${shown[j].name} overlap`).toBe(false);
    }
  }
  await screenshot(page, 'callgraph.png');
});

test('a function picked in the call graph opens its sandwich, and the search dims the rest', async ({ page }) => {
  await openCallGraph(page);
  await page.getByRole('button', { name: 'Fit' }).click();
  const handler = page.locator('[data-testid="callgraph-node"][data-name="main.handleRequest"]');
  await handler.click();
  await expect(handler).toHaveAttribute('data-picked', 'true');
  const peek = DOT.nodes.find((n) => n.name === 'main.handleRequest')!;
  await expect(page.getByTestId('callgraph-picked')).toContainText(
    `main.handleRequest: flat 0 ns (0%), cum ${((peek.cum * TIMES) / 1e9).toFixed(2)} s`
  );
  // the keyboard picks too: Enter on a focused box
  await handler.press('Enter');
  await expect(handler).not.toHaveAttribute('data-picked', 'true');
  await handler.press('Enter');
  await expect(handler).toHaveAttribute('data-picked', 'true');
  await page.getByRole('button', { name: 'Sandwich', exact: true }).click();
  await expect(page.getByTestId('sandwich-view')).toBeVisible();
  await expect(page.getByTestId('sandwich-summary')).toHaveAttribute('title', 'main.handleRequest');
  await expect(page.getByTestId('callgraph-svg')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('callgraph-svg')).toBeVisible();

  // the header's Sandwich takes the function picked in the graph
  await page.getByRole('button', { name: 'Fit' }).click();
  const compress = page.locator('[data-testid="callgraph-node"][data-name="main.compress"]');
  await compress.click();
  await expect(compress).toHaveAttribute('data-picked', 'true');
  await page.getByRole('radio', { name: 'Sandwich' }).click();
  await expect(page.getByTestId('sandwich-summary')).toHaveAttribute('title', 'main.compress');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('callgraph-svg')).toBeVisible();

  await page.getByTestId('flamegraph-search').fill('json');
  const json = page.locator('[data-testid="callgraph-node"][data-name="encoding/json.Unmarshal"]');
  await expect(json).toHaveAttribute('opacity', '1');
  await expect(handler).toHaveAttribute('opacity', '0.25');
});

test('the wheel zooms the call graph at the pointer and Fit shows it whole again', async ({ page }) => {
  await openCallGraph(page);
  await page.getByRole('button', { name: 'Fit' }).click();
  const box = page.locator('[data-testid="callgraph-node"][data-name="main.compress"] rect');
  const before = (await box.boundingBox())!;
  await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2);
  await page.mouse.wheel(0, -400);
  // (the wheel's promise does not wait for the redraw)
  await expect.poll(async () => (await box.boundingBox())!.width).toBeGreaterThan(before.width * 1.5);
  const zoomed = (await box.boundingBox())!;
  // zoomed at the pointer: the box stays under it
  expect(Math.abs(zoomed.x + zoomed.width / 2 - (before.x + before.width / 2))).toBeLessThan(2);
  await page.getByRole('button', { name: 'Fit' }).click();
  await expect.poll(async () => (await box.boundingBox())!.width).toBeLessThan(zoomed.width);
  const fitted = (await box.boundingBox())!;
  const svg = (await page.getByTestId('callgraph-svg').boundingBox())!;
  expect(fitted.y + fitted.height).toBeLessThanOrEqual(svg.y + svg.height);
});

/** WCAG contrast ratio of two `#rrggbb` or `rgb(r, g, b)` colours. */
function contrast(a: string, b: string): number {
  const rgb = (c: string) =>
    c.startsWith('#')
      ? [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16))
      : c.match(/\d+/g)!.slice(0, 3).map(Number);
  const lum = (c: string) => {
    const [r, g, bl] = rgb(c).map((v) => {
      const x = v / 255;
      return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

for (const theme of ['light', 'dark']) {
  test(`in the ${theme} theme every box's text reads against its fill`, async ({ page }) => {
    await openCallGraph(page, theme);
    const pairs = await page
      .getByTestId('callgraph-node')
      .evaluateAll((els) =>
        els.map((el) => [
          el.querySelector('rect')!.getAttribute('fill')!,
          getComputedStyle(el.querySelector('text')!).fill,
        ])
      );
    expect(pairs.length).toBe(DOT.nodes.length);
    for (const [fill, text] of pairs) {
      expect(contrast(fill, text), `${text} on ${fill}`).toBeGreaterThanOrEqual(4.5);
    }
    await screenshot(page, `callgraph-${theme}.png`);
  });
}
