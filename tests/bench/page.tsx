// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * Benchmark page: mounts Emberscope's flamegraph or @grafana/flamegraph on the same synthetic
 * frame and measures first draw, redraw on hover and on zoom, and JS heap. Driven by run.spec.ts
 * through `window.bench`; nothing here asserts anything.
 */
import React from 'react';
import { createRoot, Root } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { createTheme, DataFrame, dataFrameFromJSON } from '@grafana/data';
import { GlobalStyles, ThemeContext } from '@grafana/ui';
import { FlameGraph } from '@grafana/flamegraph';
import { readFlameData } from '../../src/shared/flameData';
import { usePanelData } from '../../src/panel/FlamegraphPanel';
import { FlameGraphContainer } from '../../src/panel/components/FlameGraphContainer';
import { defaultOptions } from '../../src/panel/options';
import { buildIndex } from '../../src/panel/model/flameIndex';
import { nodeColors } from '../../src/panel/model/colors';
import { chainsOf } from '../../src/panel/model/chains';
import { collapseChains } from '../../src/panel/model/collapse';
import { buildSandwich } from '../../src/panel/model/sandwich';
import { sortRows, topTable } from '../../src/panel/model/topTable';
import { compileSearch, matchNames, searchNodes } from '../../src/panel/model/search';
import { hitTest } from '../../src/panel/model/layout';
import { drawFlame } from '../../src/panel/render/draw';
import { prepareCanvas } from '../../src/panel/render/canvasPool';
import { FONT, ROW_HEIGHT } from '../../src/panel/components/FlameGraph/FlameCanvas';
import { flameFrameJSON, syntheticTree } from '../support/synthetic.mjs';

type Lib = 'emberscope' | 'grafana';

const theme = createTheme({ colors: { mode: 'light' } });
const W = 1200;
const H = 800;
let frame: DataFrame | undefined;
// a distinct frame of the same kind and size: what a refresh replaces the shown one with, in turn
// (made when a refresh first needs it, so that the other measures run with one frame in the heap)
let makeOther: (() => DataFrame) | undefined;
let other: DataFrame | undefined;
// the mounted library and frame, for a refresh (bench.onScreen with `refresh`)
let shown: { lib: Lib; frame: DataFrame } | undefined;
let root: Root | undefined;
const host = document.getElementById('root')!;
// Grafana's global styles (box-sizing, fonts, line heights), as every panel has them: without
// them @grafana/ui's inputs are 2 px taller than in Grafana. Mounted once, outside the measured roots.
const globalHost = document.createElement('div');
document.body.appendChild(globalHost);
createRoot(globalHost).render(
  <ThemeContext.Provider value={theme}>
    <GlobalStyles />
  </ThemeContext.Provider>
);
host.style.width = `${W}px`;
host.style.height = `${H}px`;

const nextFrame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
const settle = async () => {
  await nextFrame();
  await nextFrame();
};
// Both libraries clear their graph's canvas right before they draw it, in the same task: a
// clear of a canvas at least 200 px wide (not a probe, not a canvas still at its 0 px width) says
// the graph is drawn, and the next animation frame paints it. Counted for bench.onScreen.
let graphClears = 0;
// the first such clear after bench.onScreen's render is marked 'onscreen-drawn' for its trace
let markDrawn = false;
const clearRect = CanvasRenderingContext2D.prototype.clearRect;
CanvasRenderingContext2D.prototype.clearRect = function (x: number, y: number, w: number, h: number) {
  if (this.canvas.width >= 200 && w >= 200) {
    graphClears++;
    if (markDrawn) {
      markDrawn = false;
      performance.mark('onscreen-drawn');
    }
  }
  clearRect.call(this, x, y, w, h);
};
/**
 * Resolves once the page has been idle for two idle periods in a row (each with 40 ms or more to
 * spare: nothing queued, the after-paint work of the last draw done), or after 5 s.
 */
async function quiet() {
  const until = performance.now() + 5000;
  let calm = 0;
  while (calm < 2 && performance.now() < until) {
    const spare = await new Promise<number>((r) => requestIdleCallback((d) => r(d.timeRemaining())));
    calm = spare >= 40 ? calm + 1 : 0;
  }
}
const gc = () => (window as unknown as { gc?: () => void }).gc?.();
const heap = () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0;

/** The panel's path: reads the frame as the panel reads it, then draws (one component type, so a new frame re-renders it). */
function Ours({ series }: { series: DataFrame[] }) {
  const parsed = usePanelData(series);
  return 'data' in parsed ? (
    <FlameGraphContainer data={parsed.data} width={W} height={H} options={defaultOptions} />
  ) : null;
}

function view(lib: Lib, f: DataFrame) {
  if (lib === 'emberscope') {
    return <Ours series={[f]} />;
  }
  return (
    <div style={{ width: W, height: H, overflow: 'auto' }}>
      <FlameGraph data={f} getTheme={() => theme} showAnalyzeWithAssistant={false} />
    </div>
  );
}

function canvasOf(lib: Lib): HTMLCanvasElement {
  const c =
    lib === 'emberscope'
      ? (host.querySelector('[data-testid="flamegraph-canvas"]')?.nextElementSibling as HTMLCanvasElement | null)
      : (host.querySelector('canvas[data-testid="flameGraph"]') as HTMLCanvasElement | null);
  if (!c) {
    throw new Error(`${lib}: no flamegraph canvas in the page`);
  }
  return c;
}

/** A data row of each library's top table. */
const tableRowSelector: Record<Lib, string> = {
  emberscope: '[data-testid="top-table-row"]',
  grafana: '[data-testid="topTable"] [role="row"] + [role="row"]',
};

const rowHeight = (lib: Lib) => (lib === 'emberscope' ? 20 : 22);

function mouse(target: Element, type: string, x: number, y: number) {
  const r = target.getBoundingClientRect();
  target.dispatchEvent(
    new MouseEvent(type, { bubbles: true, cancelable: true, clientX: r.left + x, clientY: r.top + y, button: 0 })
  );
}

/** The page's frame interval (ms), measured once over a few animation frames. */
let frameMs = 1000 / 60;
async function measureFrameInterval() {
  const ts: number[] = [];
  for (let k = 0; k < 12; k++) {
    ts.push(await new Promise<number>((r) => requestAnimationFrame(r)));
  }
  const d = ts.slice(1).map((t, k) => t - ts[k]);
  d.sort((a, b) => a - b);
  frameMs = d[Math.floor(d.length / 2)] || frameMs;
}

/**
 * An input and its redraw on screen: the input is dispatched at the start of a frame (in an
 * animation-frame callback, as Chromium delivers input), React renders and draws inside it
 * (flushSync), and the next animation frame is the one that shows the result. Returns the
 * main-thread ms of the input's work and the frames from the input to the redraw (1 = drawn
 * in the frame right after the input).
 */
async function framesOf(input: () => void): Promise<{ ms: number; frames: number }> {
  return new Promise((resolve) => {
    requestAnimationFrame((frameStart) => {
      const t0 = performance.now();
      flushSync(input);
      const ms = performance.now() - t0;
      requestAnimationFrame((shown) =>
        resolve({ ms, frames: Math.max(1, Math.round((shown - frameStart) / frameMs)) })
      );
    });
  });
}

/** The panel's label (a header radio option's) whose text is text. */
function labelledButton(label: string): HTMLButtonElement {
  const b = host.querySelector(`button[aria-label="${label}"]`) as HTMLButtonElement | null;
  if (!b) {
    throw new Error(`emberscope: no "${label}" button`);
  }
  return b;
}

function labelled(text: string): HTMLElement {
  const l = Array.from(host.querySelectorAll('label')).find((e) => e.textContent?.trim() === text);
  if (!l) {
    throw new Error(`emberscope: no "${text}" label`);
  }
  return l as HTMLElement;
}

/** Sets a React-controlled input's value as typing does. */
function typeInto(input: HTMLInputElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  setter.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * ms of main-thread work an input causes: the event is dispatched inside flushSync, so React
 * renders, commits and runs the effects that draw (layout and passive) before it returns.
 */
function timed(fn: () => void): number {
  const t0 = performance.now();
  flushSync(fn);
  return performance.now() - t0;
}

const api = {
  /** Makes the synthetic frame: `nodes` nodes, or a `deep`-level spine. Returns the node count. */
  load(nodes: number, deep = 0): number {
    const make = (seed: number) =>
      dataFrameFromJSON(flameFrameJSON(syntheticTree({ nodes, seed, deep, maxDepth: deep ? 10 : 40 })));
    frame = make(11);
    other = undefined;
    makeOther = () => make(12);
    return frame.length;
  },
  /**
   * Loads a flame graph frame given as data frame JSON (a real profile), and the one a refresh
   * alternates it with (another real profile). Returns the node count.
   */
  loadFrame(json: string, otherJson?: string): number {
    frame = dataFrameFromJSON(JSON.parse(json));
    other = undefined;
    makeOther = otherJson === undefined ? undefined : () => dataFrameFromJSON(JSON.parse(otherJson));
    return frame.length;
  },
  /** ms of each Emberscope preparation stage on the loaded frame (where first-draw time goes). */
  stages(): Record<string, number> {
    const out: Record<string, number> = {};
    let t = performance.now();
    const lap = (name: string) => {
      const now = performance.now();
      out[name] = now - t;
      t = now;
    };
    const data = readFlameData(frame!, { enumTextAsNames: true });
    lap('readFrame');
    // the first draw: the chains found from the columns, each function's self (colour by self),
    // and the bars drawn straight from the columns, with no index
    const chains = chainsOf(data);
    lap('chains');
    const colors = nodeColors(data, 'self');
    colors.get(0);
    lap('colors');
    const canvas = document.createElement('canvas');
    const ctx = prepareCanvas(canvas, W, H)!;
    const params = {
      width: W,
      rowHeight: ROW_HEIGHT,
      height: H,
      scrollTop: 0,
      minBarWidth: 1,
      textAlign: 'left' as const,
      darkTheme: false,
      font: FONT,
      charWidth: 7.2,
    };
    lap('canvasSetup');
    drawFlame(ctx, {
      ...params,
      focus: 0,
      index: buildIndex(data, { later: true }),
      colors,
      columns: { data, chains },
    });
    lap('drawFromColumns');
    // after the paint, in idle slices: the collapse, the drawn graph's index, the top table
    const collapsed = collapseChains(buildIndex(data, { later: true }));
    lap('collapse');
    const index = buildIndex(collapsed.data);
    lap('buildIndex');
    const top = sortRows(topTable(index), 'self', true);
    lap('topTable');
    // the sandwich of the top table's first row, as its button opens it: the merge (the call
    // sites listed once per index, then the merge of that name), then the two halves' index and colours
    if (top.length > 0) {
      const sw = buildSandwich(buildIndex(data), top[0].nameIdx);
      lap('sandwichMerge');
      buildIndex(sw.callers);
      buildIndex(sw.callees);
      nodeColors(sw.callers, 'self');
      nodeColors(sw.callees, 'self');
      lap('sandwichIndex');
    }
    // what a zoom, a reset and a search draw (the canvas work alone, at the page's size)
    const shownColors = { get: (s: number) => colors.get(collapsed.head[s]) };
    const draw = (focus: number, nodeMatch?: Uint8Array) =>
      drawFlame(ctx, { ...params, focus, index, colors: shownColors, nodeMatch, frames: collapsed.frames });
    draw(0);
    lap('drawRoot');
    const zoomed = hitTest(index, { focus: 0, width: W, rowHeight: ROW_HEIGHT }, W * 0.3, ROW_HEIGHT * 1.5);
    draw(Math.max(0, zoomed));
    lap('drawZoom');
    const names = matchNames(data, compileSearch('handlers')!);
    lap('searchNames');
    const found = searchNodes(index, names);
    lap('searchNodes');
    draw(0, found.nodeMatch);
    lap('drawSearch');
    return out;
  },
  unmount() {
    root?.unmount();
    root = undefined;
    shown = undefined;
    host.innerHTML = '';
  },
  /**
   * Only the first render of lib, with its commit and effects (no frame waited for): what
   * tests/bench/profile-first-draw.spec.ts profiles. Returns its ms.
   */
  render(lib: Lib): number {
    api.unmount();
    root = createRoot(host);
    const t0 = performance.now();
    flushSync(() => root!.render(<ThemeContext.Provider value={theme}>{view(lib, frame!)}</ThemeContext.Provider>));
    return performance.now() - t0;
  },
  /**
   * Mounts lib and waits, frame by frame, until its graph is drawn (its canvas cleared and drawn
   * in an earlier task) and so painted by the frame this returns in. Marks 'onscreen-start'
   * right before the render and 'onscreen-seen' in that frame: the main-thread work between
   * them (every task, the frame's own style, layout and paint included) is what a trace of it
   * sums (run.spec.ts, first-draw.spec.ts). @grafana/flamegraph draws nothing in its first
   * render: it measures its width, sets up its canvas and draws in later tasks, so the render
   * alone (firstWorkMs) leaves its drawing out. Returns the frames until the graph was seen.
   *
   * With `refresh`, lib is not mounted anew: it is there already, showing the other frame of the
   * pair with the page quiet (its after-paint work done), and the render gives it the new frame,
   * as a dashboard refresh or a new time range does to a panel on screen.
   */
  async onScreen(lib: Lib, afterGc: boolean, refresh = false): Promise<{ frames: number }> {
    let next = frame!;
    if (refresh) {
      if (!makeOther) {
        throw new Error('a refresh needs a second, distinct frame (loadFrame with two profiles)');
      }
      other = other ?? makeOther();
      // a refresh: the panel is there, showing a profile, with its after-paint work done; the
      // new answer is the other frame of the pair (a different profile each time)
      if (!shown || shown.lib !== lib) {
        api.unmount();
        root = createRoot(host);
        flushSync(() => root!.render(<ThemeContext.Provider value={theme}>{view(lib, other!)}</ThemeContext.Provider>));
        shown = { lib, frame: other! };
      }
      next = shown.frame === frame ? other! : frame!;
      await quiet();
    } else {
      api.unmount();
      if (afterGc) {
        gc();
      } else {
        await settle();
      }
      root = createRoot(host);
    }
    // rendered in a task of its own, outside any frame, as a query's answer arrives
    await new Promise((r) => setTimeout(r, 0));
    const clears = graphClears;
    markDrawn = true;
    performance.mark('onscreen-start');
    flushSync(() => root!.render(<ThemeContext.Provider value={theme}>{view(lib, next)}</ThemeContext.Provider>));
    if (refresh) {
      shown = { lib, frame: next };
    }
    let frames = 0;
    while (frames < 600) {
      await nextFrame();
      frames++;
      if (graphClears > clears) {
        break;
      }
    }
    performance.mark('onscreen-seen');
    if (graphClears === clears) {
      throw new Error(`${lib}: the graph was not drawn within 600 frames`);
    }
    await settle();
    return { frames };
  },
  /**
   * Mounts lib (graph and top table) on the frame. Returns the ms of main-thread work of the
   * render with its commit and effects (firstWorkMs), the ms until two frames after the
   * render (the graph has painted: firstDrawMs), the ms until the top table's rows are in the
   * page and painted (tableReadyMs; Emberscope sums its table after the graph's first paint,
   * @grafana/flamegraph renders both at once), and, with `afterGc`, the heap growth in MB once
   * both are there.
   *
   * `afterGc` runs a forced full GC right before the render (to measure the heap growth from a
   * clean heap). In V8 that GC also drops the optimised code of the functions just run, so the
   * render that follows runs its loops in the lower tiers, as the first panel of a freshly
   * loaded page does: the "cold" first draw. Without it the render follows the previous mount
   * with nothing in between: the "warm" first draw of another panel (a refresh of a panel on
   * screen is `onScreen` with `refresh`).
   */
  async mount(
    lib: Lib,
    afterGc = true
  ): Promise<{ firstDrawMs: number; firstWorkMs: number; tableReadyMs?: number; heapMB?: number }> {
    api.unmount();
    if (afterGc) {
      gc();
    } else {
      // the unmount's own work done, as between two panels' renders
      await settle();
    }
    const h0 = heap();
    root = createRoot(host);
    const t0 = performance.now();
    performance.mark('mount-start');
    flushSync(() => root!.render(<ThemeContext.Provider value={theme}>{view(lib, frame!)}</ThemeContext.Provider>));
    // the render, its commit and its effects (which draw the canvas), before any frame is waited for
    const firstWorkMs = performance.now() - t0;
    await settle();
    const firstDrawMs = performance.now() - t0;
    let tableReadyMs: number | undefined = firstDrawMs;
    if (!host.querySelector(tableRowSelector[lib])) {
      tableReadyMs = undefined;
      // checked at every animation frame; rows seen at one are painted by the next
      for (let k = 0; k < 600; k++) {
        await nextFrame();
        if (host.querySelector(tableRowSelector[lib])) {
          await nextFrame();
          tableReadyMs = performance.now() - t0;
          performance.mark('mount-table');
          break;
        }
      }
    }
    if (!afterGc) {
      return { firstDrawMs, firstWorkMs, tableReadyMs };
    }
    gc();
    return { firstDrawMs, firstWorkMs, tableReadyMs, heapMB: (heap() - h0) / 1048576 };
  },
  /** Median ms of work for a mousemove onto a new bar (tooltip and outline redraw), over n moves. */
  async hover(lib: Lib, n = 15): Promise<number> {
    const c = canvasOf(lib);
    const cw = c.getBoundingClientRect().width;
    const times: number[] = [];
    for (let k = 0; k < n; k++) {
      const x = 20 + ((cw - 40) * k) / n;
      const y = rowHeight(lib) * (1.5 + (k % 4));
      times.push(timed(() => mouse(c, 'mousemove', x, y)));
      await nextFrame();
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)];
  },
  /** Zooming into a level-1 bar (re-layout and redraw): main-thread ms and frames to the redraw. */
  async zoom(lib: Lib): Promise<{ ms: number; frames: number }> {
    if (frameMs === 1000 / 60) {
      await measureFrameInterval();
    }
    const c = canvasOf(lib);
    const x = c.getBoundingClientRect().width * 0.3;
    const y = rowHeight(lib) * 1.5;
    if (lib === 'emberscope') {
      performance.mark('sandwich-input');
      const r = await framesOf(() => mouse(c, 'click', x, y));
      performance.mark('sandwich-shown');
      await settle();
      return r;
    }
    // @grafana/flamegraph: a click opens the context menu, "Focus block" zooms
    mouse(c, 'click', x, y);
    await settle();
    const item = Array.from(document.querySelectorAll('[role="menuitem"]')).find((e) =>
      e.textContent?.includes('Focus block')
    ) as HTMLElement | undefined;
    if (!item) {
      throw new Error('@grafana/flamegraph: no "Focus block" menu item after clicking a bar');
    }
    const r = await framesOf(() => item.click());
    await settle();
    return r;
  },
  /** Back to the whole graph after a zoom, with each library's reset button. */
  async reset(lib: Lib): Promise<{ ms: number; frames: number }> {
    const label = lib === 'emberscope' ? 'Reset zoom' : 'Reset focus and sandwich state';
    const button = host.querySelector(`button[aria-label="${label}"]`) as HTMLButtonElement | null;
    if (!button) {
      throw new Error(`${lib}: no "${label}" button after a zoom`);
    }
    const r = await framesOf(() => button.click());
    await settle();
    return r;
  },
  /**
   * Typing a search (a name part most frames share, so many bars are marked) and clearing it:
   * main-thread ms and frames to the redraw of the typed search. Emberscope only:
   * @grafana/flamegraph debounces its search box, so its redraw is not tied to the input.
   */
  async search(lib: Lib): Promise<{ ms: number; frames: number }> {
    if (lib !== 'emberscope') {
      throw new Error('not measured: @grafana/flamegraph debounces its search input');
    }
    const input = host.querySelector('input[aria-label="Search functions"]') as HTMLInputElement | null;
    if (!input) {
      throw new Error('emberscope: no search box');
    }
    const r = await framesOf(() => typeInto(input, 'handlers'));
    await settle();
    await framesOf(() => typeInto(input, ''));
    await settle();
    return r;
  },
  /**
   * Opens the context menu on a level-1 bar of Emberscope's graph (at 30 % of its width, the bar
   * the zoom measures); the menu's "Sandwich view" is then what sandwichInput('menu') clicks.
   */
  async openMenu(): Promise<void> {
    const c = canvasOf('emberscope');
    mouse(c, 'contextmenu', c.getBoundingClientRect().width * 0.3, rowHeight('emberscope') * 1.5);
    await settle();
  },
  /**
   * One sandwich opened, main-thread ms and frames to the redraw: from the top table's first
   * row's button ('table'), or the open context menu's "Sandwich view" ('menu'). Marks the input
   * and the frame after it in the timeline (for profile-sandwich.spec.ts).
   */
  async sandwichInput(from: 'table' | 'menu'): Promise<{ ms: number; frames: number }> {
    if (frameMs === 1000 / 60) {
      await measureFrameInterval();
    }
    const target =
      from === 'table'
        ? (host.querySelector('[data-testid="top-table-sandwich"]') as HTMLElement | null)
        : (Array.from(document.querySelectorAll('[role="menuitem"]')).find((e) =>
            e.textContent?.includes('Sandwich view')
          ) as HTMLElement | undefined);
    if (!target) {
      throw new Error(`emberscope: no sandwich ${from === 'table' ? 'button in the top table' : 'item in the menu'}`);
    }
    performance.mark('sandwich-input');
    const r = await framesOf(() => target.click());
    performance.mark('sandwich-shown');
    await settle();
    return r;
  },
  /**
   * One click on a view of the header ("Both", "Call tree", ...) or on its collapse switch
   * ("Collapse"), main-thread ms and frames to the redraw, marked in the timeline as sandwichInput's is (for profile-sandwich.spec.ts's
   * PROFILE_INPUT=both).
   */
  async viewInput(label: string): Promise<{ ms: number; frames: number }> {
    if (frameMs === 1000 / 60) {
      await measureFrameInterval();
    }
    const target =
      label === 'Collapse'
        ? (host.querySelector('input[aria-label="Collapse chains"]') as HTMLElement | null)
        : Array.from(host.querySelectorAll('label')).find((e) => e.textContent?.trim() === label);
    if (!target) {
      throw new Error(`emberscope: no "${label}" label`);
    }
    performance.mark('sandwich-input');
    const r = await framesOf(() => target.click());
    performance.mark('sandwich-shown');
    await settle();
    return r;
  },
  /**
   * Emberscope's other inputs, each main-thread ms and frames to the redraw: the sandwich of the
   * top table's first row and back, the sandwich from the context menu, the collapse switch off and on, and the view switched to the
   * call tree and back to graph + table.
   */
  async views(lib: Lib): Promise<Record<string, { ms: number; frames: number }>> {
    if (lib !== 'emberscope') {
      throw new Error('not measured for @grafana/flamegraph');
    }
    if (frameMs === 1000 / 60) {
      await measureFrameInterval();
    }
    const out: Record<string, { ms: number; frames: number }> = {};
    const q = <T extends Element>(sel: string) => {
      const e = host.querySelector(sel) as T | null;
      if (!e) {
        throw new Error(`emberscope: no ${sel}`);
      }
      return e;
    };
    out.sandwich = await framesOf(() => q<HTMLButtonElement>('[data-testid="top-table-sandwich"]').click());
    await settle();
    out.sandwichExit = await framesOf(() => q<HTMLButtonElement>('button[aria-label="Exit sandwich view"]').click());
    await settle();
    // the context menu's "Sandwich view" on a level-1 bar, clicked half a second after the menu
    // opened (about the time a hand takes to reach the item)
    await api.openMenu();
    await new Promise((r) => setTimeout(r, 500));
    out.sandwichMenu = await api.sandwichInput('menu');
    await framesOf(() => q<HTMLButtonElement>('button[aria-label="Exit sandwich view"]').click());
    await settle();
    out.collapseOff = await framesOf(() => q<HTMLInputElement>('input[aria-label="Collapse chains"]').click());
    await settle();
    out.collapseOn = await framesOf(() => q<HTMLInputElement>('input[aria-label="Collapse chains"]').click());
    await settle();
    out.viewTree = await framesOf(() => labelled('Call tree').click());
    await settle();
    out.viewBoth = await framesOf(() => labelled('Both').click());
    await settle();
    return out;
  },
  /**
   * A sandwich opened until its whole merge is painted, with the longest main-thread task on the
   * way (the long-task API's, over 50 ms; 0 when there was none): from the top table's first
   * row's button ('table'), and from the context menu of a level-1 bar ('menu': the menu opened,
   * its "Sandwich view" clicked half a second later, tasks counted from the menu's opening so
   * that the merge started for it counts too). Back to the graph after each.
   */
  async sandwichOpen(lib: Lib): Promise<Record<string, number>> {
    if (lib !== 'emberscope') {
      throw new Error('not measured for @grafana/flamegraph');
    }
    const out: Record<string, number> = {};
    for (const from of ['table', 'menu'] as const) {
      let longest = 0;
      const obs = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          longest = Math.max(longest, e.duration);
        }
      });
      obs.observe({ type: 'longtask' });
      performance.mark(`open-start:${from}`);
      if (from === 'menu') {
        await api.openMenu();
        await new Promise((r) => setTimeout(r, 500));
      }
      const t0 = performance.now();
      await api.sandwichInput(from);
      while (!host.querySelector('[data-testid="sandwich-view"][data-whole="true"]')) {
        await new Promise((r) => setTimeout(r, 5));
      }
      await nextFrame();
      out[`${from}ReadyMs`] = performance.now() - t0;
      performance.mark(`open-end:${from}`);
      obs.disconnect();
      out[`${from}LongestTaskMs`] = longest;
      await framesOf(() => labelledButton('Exit sandwich view').click());
      await settle();
    }
    return out;
  },
  /**
   * The switch to the call graph: the switch's own ms and frames (it shows the view at once and
   * makes the graph in idle slices, then places it), the wall ms and frames until the placed graph
   * is painted, and the longest main-thread task in between (the long-task API's, over 50 ms;
   * 0 when there was none). Then back to graph + table.
   */
  async callGraph(lib: Lib): Promise<{
    switchMs: number;
    switchFrames: number;
    readyMs: number;
    readyFrames: number;
    longestTaskMs: number;
  }> {
    if (lib !== 'emberscope') {
      throw new Error('not measured for @grafana/flamegraph');
    }
    let longest = 0;
    const obs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        longest = Math.max(longest, e.duration);
      }
    });
    obs.observe({ type: 'longtask' });
    performance.mark('sandwich-input');
    performance.mark('open-start:callgraph');
    const t0 = performance.now();
    const sw = await framesOf(() => labelled('Call graph').click());
    // until the placed graph is in the page, then the frame that paints it
    while (!host.querySelector('[data-testid="callgraph"][data-state="ready"]')) {
      await new Promise((r) => setTimeout(r, 5));
    }
    const painted = await new Promise<number>((r) => requestAnimationFrame((t) => r(t)));
    const readyMs = performance.now() - t0;
    performance.mark('sandwich-shown');
    performance.mark('open-end:callgraph');
    obs.disconnect();
    const out = {
      switchMs: sw.ms,
      switchFrames: sw.frames,
      readyMs,
      readyFrames: Math.max(1, Math.round((painted - t0) / frameMs)),
      longestTaskMs: longest,
    };
    await settle();
    await framesOf(() => labelled('Both').click());
    await settle();
    return out;
  },
};

(window as unknown as { bench: typeof api }).bench = api;
document.title = 'bench ready';
