// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { expect, Page, test } from '@playwright/test';
import { ingestPushedProfile, ingestRealProfile, Playground, startPlayground } from '../support/playground';

/**
 * The header's stand-in (src/panel/components/HeaderStandIn.tsx), shown in the panel's first
 * render until the @grafana/ui controls are mounted in idle time: the swap must not move anything
 * (every control's box, the header's and the graph's the same within 0.5 px, in the light and the
 * dark theme, on one row and wrapped, for a profile and a diff), and a click on the stand-in must
 * do what it does on the real controls. The page holds the stand-in while
 * `window.__emberscopeHoldHeader` is true (src/panel/components/HeaderControls.tsx).
 */

const SERVICE = 'e2e-header';
const EXPR = `process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="${SERVICE}"}`;
const CPU = 'process_cpu:cpu:nanoseconds:cpu:nanoseconds';
const DIFF_FROM = Date.parse('2026-12-01T07:00:00Z');
const DIFF_TO = Date.parse('2026-12-01T08:00:00Z');

let pg: Playground;
let from: number;
let to: number;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  pg = await startPlayground();
  await ingestRealProfile(pg.storeUrl, SERVICE);
  await ingestPushedProfile(pg.storeUrl, 'labeled.cpu.redated.pb.gz', 'hdr-labeled');
  await ingestPushedProfile(pg.storeUrl, 'bench-sort.cpu.redated.pb.gz', 'hdr-sort');
  to = Date.now() + 60_000;
  from = to - 3_600_000;
});

test.afterAll(async () => {
  await pg?.stop();
});

type Boxes = Record<string, { x: number; y: number; width: number; height: number }>;

/**
 * The boxes of the header, of every control in it and of the graph, keyed alike for the stand-in
 * and the real controls: `view:2` is the view group's third option, `align:0:glyph` the first
 * alignment option's icon.
 */
function headerBoxes(page: Page): Promise<Boxes> {
  return page.evaluate(() => {
    const out: Record<string, { x: number; y: number; width: number; height: number }> = {};
    const put = (key: string, el: Element | null | undefined) => {
      if (!el) {
        throw new Error(`no element for ${key}`);
      }
      const r = el.getBoundingClientRect();
      out[key] = { x: r.x, y: r.y, width: r.width, height: r.height };
    };
    const q = (sel: string, root: ParentNode = document) => root.querySelector(sel);
    put('header', q('[data-testid="flamegraph-header"]'));
    put('graph', q('[data-testid="flamegraph-hit"]'));
    const legend = q('[data-testid="diff-legend"]');
    if (legend) {
      put('legend', legend);
    }
    const standIn = q('[data-testid="header-standin"]');
    const groups: Array<[string, string]> = [
      ['view', 'View'],
      ['palette', 'Diff palette'],
      ['align', 'Text align'],
    ];
    if (standIn) {
      put('row', standIn);
      for (const [key] of groups) {
        const g = q(`[data-box="${key}"]`, standIn);
        if (g) {
          put(key, g);
          Array.from(g.children).forEach((o, i) => {
            put(`${key}:${i}`, o);
            // the stand-in's icons are CSS-drawn boxes
            const glyph = q('[data-glyph]', o);
            if (glyph) {
              put(`${key}:${i}:glyph`, glyph);
            }
          });
        }
      }
      const colour = q('[data-box="colour"]', standIn);
      if (colour) {
        put('colour', colour);
      }
      put('collapse', q('[data-box="collapse"]', standIn));
      put('collapse:label', q('[data-box="collapse"] > span', standIn));
      put('collapse:switch', q('[data-box="collapse:switch"]', standIn));
      put('collapse:track', q('[data-box="collapse:switch"] > *', standIn));
      put('expand-all', q('[data-box="expand-all"]', standIn));
      put('collapse-all', q('[data-box="collapse-all"]', standIn));
    } else {
      const row = q('[data-testid="header-controls"]')!;
      put('row', row);
      for (const [key, label] of groups) {
        const g = q(`[role="radiogroup"][aria-label="${label}"]`, row);
        if (g) {
          put(key, g);
          Array.from(g.children).forEach((o, i) => {
            put(`${key}:${i}`, q('label', o));
            const glyph = q('label svg', o);
            if (glyph) {
              put(`${key}:${i}:glyph`, glyph);
            }
          });
        }
      }
      const colour = q('[data-testid="colour-scheme"]', row);
      if (colour) {
        put('colour', colour);
      }
      const input = q('input[aria-label="Collapse chains"]', row)!;
      put('collapse', input.parentElement!.parentElement);
      put('collapse:label', input.parentElement!.previousElementSibling);
      put('collapse:switch', input.parentElement);
      put('collapse:track', input.nextElementSibling);
      const buttons = Array.from(row.querySelectorAll('button'));
      put(
        'expand-all',
        buttons.find((b) => b.textContent === 'Expand all')
      );
      put(
        'collapse-all',
        buttons.find((b) => b.textContent === 'Collapse all')
      );
    }
    return out;
  });
}

/** Opens the page with the stand-in held; waits for the graph and the page's fonts. */
async function openHeld(page: Page, url: string) {
  await page.addInitScript(() => {
    (window as Window & { __emberscopeHoldHeader?: boolean }).__emberscopeHoldHeader = true;
  });
  await page.goto(url);
  await expect(page.getByTestId('flamegraph-hit')).toBeVisible();
  await expect(page.getByTestId('header-standin')).toBeVisible();
}

/** Lets the real controls mount; waits until they and their icons are in. */
async function release(page: Page) {
  await page.evaluate(() => {
    (window as Window & { __emberscopeHoldHeader?: boolean }).__emberscopeHoldHeader = false;
  });
  await expect(page.getByTestId('header-controls')).toBeVisible();
  await expect(page.getByTestId('header-standin')).toHaveCount(0);
  await expect(page.getByTestId('header-controls').locator('[data-testid="icon-align-left"]')).toBeAttached();
  // the colour scheme's Combobox comes one idle time after the other controls
  if ((await page.getByTestId('colour-scheme').count()) > 0) {
    await expect(page.getByTestId('colour-scheme').locator('input[role="combobox"]')).toBeAttached();
  }
}

const settled = (page: Page) =>
  page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });

/** Every box the same within 0.5 px: one message naming each box that moved. */
function expectSameBoxes(before: Boxes, after: Boxes) {
  expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
  const moved: string[] = [];
  for (const [key, a] of Object.entries(before)) {
    const b = after[key];
    const d = Math.max(
      Math.abs(a.x - b.x),
      Math.abs(a.y - b.y),
      Math.abs(a.width - b.width),
      Math.abs(a.height - b.height)
    );
    if (d > 0.5) {
      moved.push(`${key}: stand-in ${JSON.stringify(a)}, controls ${JSON.stringify(b)}`);
    }
  }
  expect(moved).toEqual([]);
}

for (const theme of ['light', 'dark'] as const) {
  for (const width of [1280, 720]) {
    test(`the real controls take the stand-in's boxes exactly (${theme} theme, ${width} px)`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await openHeld(page, `${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}&theme=${theme}`);
      await settled(page);
      const standIn = await headerBoxes(page);
      // the stand-in shows the choices: the view "Both", left alignment, collapse on
      expect(Object.keys(standIn)).toEqual(expect.arrayContaining(['view:4', 'align:1:glyph', 'colour']));
      await release(page);
      await settled(page);
      expectSameBoxes(standIn, await headerBoxes(page));
    });
  }

  test(`a diff's palette choice and legend do not move at the swap (${theme} theme)`, async ({ page }) => {
    const expr = `${CPU}{service_name="hdr-labeled"}`;
    await openHeld(page, `${pg.url}/?query=${encodeURIComponent(expr)}&from=${DIFF_FROM}&to=${DIFF_TO}&theme=${theme}`);
    await page.getByTestId('options-summary').click();
    await page.getByRole('radio', { name: 'Diff' }).click();
    await page.getByLabel('Comparison selector').fill('{service_name="hdr-sort"}');
    await page.getByLabel('Comparison from').fill(new Date(DIFF_FROM).toISOString());
    await page.getByLabel('Comparison to').fill(new Date(DIFF_TO).toISOString());
    await page.getByLabel('Comparison to').blur();
    await expect(page.getByTestId('diff-legend')).toBeVisible();
    await expect(page.getByTestId('header-standin')).toBeVisible();
    await settled(page);
    const standIn = await headerBoxes(page);
    expect(Object.keys(standIn)).toEqual(expect.arrayContaining(['palette:1', 'legend']));
    await release(page);
    await settled(page);
    expectSameBoxes(standIn, await headerBoxes(page));
  });
}

test('clicks on the stand-in before the swap do what they do on the controls', async ({ page }) => {
  await openHeld(page, `${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
  const standIn = page.getByTestId('header-standin');
  // out of the accessibility tree: no second "Call tree" radio, no second "Expand all" button
  const header = page.getByTestId('flamegraph-header');
  await expect(header.getByRole('radio')).toHaveCount(0);
  await expect(header.getByRole('button')).toHaveCount(0);
  await expect(header.getByRole('switch')).toHaveCount(0);
  await standIn.getByText('Call tree', { exact: true }).click();
  await expect(page.getByTestId('call-tree-row').first()).toBeVisible();
  await standIn.getByText('Right', { exact: true }).click();
  await expect(standIn.locator('[data-box="align:right"]')).toHaveAttribute('data-selected', 'true');
  await standIn.locator('[data-box="collapse:switch"] > *').click();
  await release(page);
  await expect(page.getByRole('radio', { name: 'Call tree' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Align text right' })).toBeChecked();
  await expect(page.getByLabel('Collapse chains')).not.toBeChecked();
});

test('a click on the stand-in colour scheme mounts the controls at once and opens the list', async ({ page }) => {
  await openHeld(page, `${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
  await page.getByTestId('header-standin').locator('[data-box="colour"]').click();
  await expect(page.getByTestId('header-controls')).toBeVisible();
  await page.getByRole('option', { name: 'By package' }).click();
  await expect(page.getByTestId('colour-scheme').locator('input')).toHaveValue('By package');
});

test('without a hold the real controls replace the stand-in by themselves', async ({ page }) => {
  await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
  await expect(page.getByTestId('flamegraph-hit')).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Both' })).toBeChecked();
  await expect(page.getByTestId('header-standin')).toHaveCount(0);
});

/**
 * Records, at every animation frame (before its paint), whether the header's search box is in the
 * page, the header's height and the graph's box, from the first frame with a graph on.
 */
function recordFrames(page: Page) {
  return page.addInitScript(() => {
    const frames: Array<{ search: boolean; header: number; graph: number[] }> = [];
    (window as Window & { __frames?: typeof frames }).__frames = frames;
    const tick = () => {
      const hit = document.querySelector('[data-testid="flamegraph-hit"]');
      const header = document.querySelector('[data-testid="flamegraph-header"]');
      if (hit && header) {
        const r = hit.getBoundingClientRect();
        frames.push({
          search: document.querySelector('[data-testid="flamegraph-search"]') !== null,
          header: header.getBoundingClientRect().height,
          graph: [r.x, r.y, r.width, r.height],
        });
      }
      if (frames.length < 20) {
        requestAnimationFrame(tick);
      }
    };
    requestAnimationFrame(tick);
  });
}

const recorded = (page: Page) =>
  page.evaluate(
    () => (window as Window & { __frames?: Array<{ search: boolean; header: number; graph: number[] }> }).__frames ?? []
  );

/**
 * The header's row laid out on one line: the width it takes with the search box at its smallest
 * (150 px) and the controls side by side (read from the page).
 */
const naturalRowWidth = (page: Page) =>
  page.evaluate(() => {
    const row = document.querySelector('[data-testid="header-standin"], [data-testid="header-controls"]')!;
    const gap = 6;
    const boxes = Array.from(row.children).map((c) => c.getBoundingClientRect().width);
    return 150 + gap + boxes.reduce((a, b) => a + b, 0) + gap * (boxes.length - 1);
  });

/**
 * Opens url with the page's fonts loaded before the panel's first render: each query's answer is
 * held until the page has loaded every font it declares. A panel works out its header's width only
 * with its fonts loaded (while a web font is loading, the header comes in the graph's frame), and on
 * a busy machine a fresh context's fonts could still be on their way when the first answer came.
 */
async function openWithFonts(page: Page, url: string) {
  await page.route('**/api/ds/query', async (route) => {
    await page.evaluate(async () => {
      await Promise.all(Array.from(document.fonts).map((f) => f.load().catch(() => undefined)));
    });
    await route.continue();
  });
  await page.goto(url);
}

for (const theme of ['light', 'dark'] as const) {
  test(`on a wide panel the graph comes first and the header fills its row after, moving nothing (${theme} theme)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1600, height: 900 });
    await recordFrames(page);
    await openWithFonts(page, `${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}&theme=${theme}`);
    await expect(page.getByTestId('flamegraph-search')).toBeVisible();
    await expect.poll(async () => (await recorded(page)).length).toBeGreaterThan(3);
    const frames = await recorded(page);
    // the graph's first frame: an empty header row of one row's height
    expect(frames[0]).toMatchObject({ search: false, header: 38 });
    const withHeader = frames.findIndex((f) => f.search);
    expect(withHeader).toBeGreaterThan(0);
    // the search box and controls come on one row, and the graph never moves
    for (const f of frames) {
      expect(f.header).toBe(38);
      expect(f.graph).toEqual(frames[0].graph);
    }
    // the width the panel worked out for the row is the width the row takes in the page
    const need = Number(await page.getByTestId('flamegraph-header').getAttribute('data-one-row-width'));
    expect(Math.abs(need - (await naturalRowWidth(page)))).toBeLessThan(1);
    await expect(page.getByTestId('header-controls')).toBeVisible();
    expect(Math.abs(need - (await naturalRowWidth(page)))).toBeLessThan(1);
  });
}

test('the header comes with the graph where its row might not fit one line, and after it where it does', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1600, height: 900 });
  const url = `${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`;
  await openWithFonts(page, url);
  await expect(page.getByTestId('header-controls')).toBeVisible();
  const need = Number(await page.getByTestId('flamegraph-header').getAttribute('data-one-row-width'));
  const margin = 1600 - (await page.getByTestId('flamegraph-view').evaluate((e) => e.getBoundingClientRect().width));
  expect(need).toBeGreaterThan(900);
  // 8 px of slack for the boxes' rounding: a panel at need + 8 px gets the header after the
  // graph, one px narrower with it
  for (const [panelWidth, after] of [
    [Math.ceil(need) + 8, true],
    [Math.ceil(need) + 6, false],
  ] as const) {
    const p = await page.context().newPage();
    await p.setViewportSize({ width: panelWidth + margin, height: 900 });
    await recordFrames(p);
    await openWithFonts(p, url);
    await expect(p.getByTestId('header-controls')).toBeVisible();
    expect(await p.getByTestId('flamegraph-view').evaluate((e) => e.getBoundingClientRect().width)).toBe(panelWidth);
    const frames = await recorded(p);
    expect(frames[0].search).toBe(!after);
    // on one row either way
    expect(frames.map((f) => f.header)).toEqual(frames.map(() => 38));
    await p.close();
  }
});

test('typing a search keeps the header on one row and the graph where it was; its count is in the box', async ({
  page,
}) => {
  // 1,280 px: the row holds the search box and the controls with a few px to spare
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${pg.url}/?query=${encodeURIComponent(EXPR)}&from=${from}&to=${to}`);
  await expect(page.getByTestId('header-controls')).toBeVisible();
  const header = page.getByTestId('flamegraph-header');
  const graph = page.getByTestId('flamegraph-hit');
  const before = { header: (await header.boundingBox())!, graph: (await graph.boundingBox())! };
  expect(before.header.height).toBe(38);
  await page.getByLabel('Search functions').fill('main');
  const result = page.getByTestId('flamegraph-search-result');
  await expect(result).toHaveAttribute('title', /^\d+ match(es)? · [\d.]+% of total$/);
  // the count, the sandwich and Clear sit inside the search box, right of what was typed
  const box = (await page.getByLabel('Search functions').boundingBox())!;
  for (const el of [result, page.getByTestId('search-sandwich'), page.getByRole('button', { name: 'Clear search' })]) {
    const r = (await el.boundingBox())!;
    expect(r.x).toBeGreaterThanOrEqual(box.x);
    expect(r.x + r.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
  }
  // what is typed keeps its room: the input's text area, between its paddings, ends where the suffix starts
  const text = await page.getByLabel('Search functions').evaluate((e) => {
    const cs = getComputedStyle(e);
    return e.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  });
  expect(text).toBeGreaterThanOrEqual(60);
  expect({ header: (await header.boundingBox())!, graph: (await graph.boundingBox())! }).toEqual(before);
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(page.getByLabel('Search functions')).toHaveValue('');
  await expect(result).toHaveCount(0);
});
