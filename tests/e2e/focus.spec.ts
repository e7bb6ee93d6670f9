// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { expect, Page, Request, test } from '@playwright/test';
import { fetchFlame, pct, Flame } from '../support/frame';
import { nodeBox } from '../support/canvas';
import { nextQuery, runSeed } from '../support/seed';
import { Playground, REPO, startPlayground } from '../support/playground';

// internal/fixtures/profiles/deep.alloc.pb.gz: 131,106 nodes (a recursive descent through a
// binary trie), so the flamegraph is cut at the default 16,384 and the deep call sites' callees
// are folded into `other`
const SERVICE = 'e2e-deep';
const EXPR = `memory:alloc_space:bytes:space:bytes{service_name="${SERVICE}"}`;

let pg: Playground;
let from: number;
let to: number;
let cut: Flame;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  pg = await startPlayground();
  runSeed('deepseed', ['-store', pg.storeUrl, '-app', SERVICE, '-repo', REPO]);
  to = Date.now() + 60_000;
  from = to - 3_600_000;
  cut = await fetchFlame(pg.url, EXPR, from, to);
});

test.afterAll(async () => {
  await pg?.stop();
});

/** The row of the node at the end of path in f (names from the root's first child down), or -1. */
function rowAt(f: Flame, path: string[]): number {
  let at = 0;
  for (const name of path) {
    let next = -1;
    for (let i = at + 1; i < f.level.length && f.level[i] > f.level[at]; i++) {
      if (f.level[i] === f.level[at] + 1 && f.names[i] === name) {
        next = i;
        break;
      }
    }
    if (next < 0) {
      return -1;
    }
    at = next;
  }
  return at;
}

/** The names under row i of f. */
function namesUnder(f: Flame, i: number): Set<string> {
  const out = new Set<string>();
  for (let k = i + 1; k < f.level.length && f.level[k] > f.level[i]; k++) {
    out.add(f.names[k]);
  }
  return out;
}

/** Goes down the heaviest bars to a deep one with the keyboard, zooms there with Enter, and
 * answers the call-site query the zoom asked. */
async function zoomDeepByKeys(page: Page) {
  const view = page.getByTestId('flamegraph-view');
  await view.focus();
  const asked = nextQuery(page, (q) => Array.isArray(q.callSite));
  for (let k = 0; k < 8; k++) {
    await view.press('ArrowDown');
  }
  await view.press('Enter');
  return asked;
}

async function otherDrawn(page: Page): Promise<boolean> {
  return page
    .getByTestId('flamegraph-canvas')
    .evaluate(
      (el) =>
        !!(el as HTMLCanvasElement & { emberscope: { rectOf: (n: string) => unknown } }).emberscope.rectOf('other')
    );
}

test('a zoom into what the cut folded into other asks for the call site and draws it whole; reset asks nothing', async ({
  page,
}) => {
  expect(cut.names, 'the flamegraph is cut at maxNodes').toContain('other');
  await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  await expect.poll(() => otherDrawn(page)).toBe(true);

  const { query, response } = await zoomDeepByKeys(page);
  expect(response.ok()).toBe(true);
  const callSite = query.callSite as string[];
  const row = rowAt(cut, callSite);
  expect(row, `the call site ${callSite.join(' › ')} is a node of the cut graph`).toBeGreaterThan(0);
  expect(callSite.length, 'the path holds every frame, collapsed chains expanded').toBe(cut.level[row]);
  expect(namesUnder(cut, row), 'the cut graph shows other under it').toContain('other');

  const notice = page.getByTestId('focus-notice');
  await expect(notice).toHaveAttribute('data-kind', 'fetched');
  await expect(notice).toContainText(/Fetched at full resolution: the (profile server|datasource)/);
  // the detail is drawn where the cut graph had other, and the share is still of the whole graph
  await expect.poll(() => otherDrawn(page)).toBe(false);
  const b = await nodeBox(page, callSite[callSite.length - 1]);
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await expect(page.getByTestId('tooltip-total')).toContainText(`(${pct(cut.value[row] / cut.value[0])} of total`);

  // reset returns to the first answer without a query
  const sent: Request[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/ds/query') {
      sent.push(r);
    }
  });
  await page.getByRole('button', { name: 'Reset zoom' }).click();
  await expect(page.getByTestId('flamegraph-breadcrumbs')).toHaveCount(0);
  await expect(notice).toHaveCount(0);
  await expect.poll(() => otherDrawn(page)).toBe(true);
  expect(sent, 'reset sent no query').toHaveLength(0);
});

test('a zoom below the cut of a diff asks both sides for the call site and draws each against its own whole', async ({
  page,
}) => {
  await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
  await expect(page.getByTestId('flamegraph-canvas')).toBeVisible();
  // the comparison: the same service over the last few minutes (the newest parts of the profile)
  await page.getByTestId('options-summary').click();
  await page.getByRole('radio', { name: 'Diff' }).click();
  await page.getByLabel('Comparison selector').fill(`{service_name="${SERVICE}"}`);
  const comparisonFrom = to - 5 * 60_000;
  await page.getByLabel('Comparison from').fill(new Date(comparisonFrom).toISOString());
  await page.getByLabel('Comparison to').fill(new Date(to).toISOString());
  // the answer to this comparison, not to the one the Diff button ran (the previous period): keys
  // pressed before it is drawn would move in the graph it replaces
  const diffRan = nextQuery(
    page,
    (q) => q.queryType === 'diff' && (q.comparison as { from?: number } | undefined)?.from === comparisonFrom
  );
  await page.getByLabel('Comparison to').blur();
  expect((await diffRan).response.ok()).toBe(true);
  await expect(page.getByTestId('diff-legend')).toBeVisible();
  await expect.poll(() => otherDrawn(page)).toBe(true);

  const { query, response } = await zoomDeepByKeys(page);
  expect(response.ok()).toBe(true);
  const callSite = query.callSite as string[];
  expect(query.queryType).toBe('diff');
  expect((query.comparison as { callSite?: string[] }).callSite, 'the comparison asks the same call site').toEqual(
    callSite
  );
  const row = rowAt(cut, callSite);
  expect(row, `the call site ${callSite.join(' › ')} is a node of the cut graph`).toBeGreaterThan(0);

  const notice = page.getByTestId('focus-notice');
  await expect(notice).toHaveAttribute('data-kind', 'fetched');
  await expect(notice).not.toContainText('still cut');
  await expect.poll(() => otherDrawn(page)).toBe(false);
  // the baseline is the whole range, so its share is the plain flamegraph's
  const b = await nodeBox(page, callSite[callSite.length - 1]);
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await expect(page.getByTestId('tooltip-baseline')).toContainText(`(${pct(cut.value[row] / cut.value[0])})`);
  await page.getByRole('button', { name: 'Reset zoom' }).click();
  await expect(notice).toHaveCount(0);
  await expect.poll(() => otherDrawn(page)).toBe(true);
});
