// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { CDPSession, Page } from '@playwright/test';
import { traced, TraceEvent } from './trace';

/** One first draw until the graph is on screen. */
export interface OnScreen {
  /** main-thread ms of every task from the render's start to the end of the frame that paints the graph */
  workMs: number;
  /** wall ms from the render's start to that frame */
  wallMs: number;
  /** animation frames from the render to the one that paints the graph (1 = the next) */
  frames: number;
  /** main-thread tasks the work is spread over */
  tasks: number;
}

/**
 * The first draws of `lib` until its graph is on screen (bench.onScreen), `runs` times, each
 * right after a forced full GC (`cold`) or after the previous one (warm), or (`refresh`) each a
 * new frame given to the panel already on screen, under one trace. Each
 * is summed from the trace: every top-level task of the page's main thread from the mark before
 * the render to the end of the frame that paints the drawn graph; the task the render starts in
 * counts from the mark on. ONSCREEN_DEBUG=1 prints, per run, when the graph was drawn and which
 * frame painted it; ONSCREEN_DEBUG=2 also each task's style, layout, paint and script events, and
 * where a script forced a style pass (map the bundle positions with a `--env profile` build).
 */
export async function onScreenRuns(
  page: Page,
  cdp: CDPSession,
  lib: string,
  cold: boolean,
  runs: number,
  refresh = false
): Promise<OnScreen[]> {
  const frames: number[] = [];
  const detail = process.env.ONSCREEN_DEBUG === '2';
  const categories =
    'toplevel,blink.user_timing,devtools.timeline' + (detail ? ',disabled-by-default-devtools.timeline.stack' : '');
  const events = await traced(cdp, categories, async () => {
    for (let r = 0; r < runs; r++) {
      const res = await page.evaluate(([l, c, f]) => (window as any).bench.onScreen(l, c, f), [
        lib,
        cold,
        refresh,
      ] as const);
      frames.push(res.frames);
    }
  });
  const marks = (name: string) => events.filter((e) => e.name === name).sort((a, b) => a.ts - b.ts);
  const starts = marks('onscreen-start');
  const drawns = marks('onscreen-drawn');
  const seens = marks('onscreen-seen');
  if (starts.length !== runs || drawns.length !== runs || seens.length !== runs) {
    throw new Error(
      `trace has ${starts.length} start, ${drawns.length} drawn and ${seens.length} seen marks for ${runs} runs`
    );
  }
  const tid = starts[0].tid;
  const onMain = events.filter((e) => e.tid === tid && e.ph === 'X' && e.dur !== undefined);
  const tasks = onMain.filter((e) => e.cat.split(',').includes('toplevel')).sort((a, b) => a.ts - b.ts);
  // only outermost tasks (a nested run loop's tasks are inside their parent's time)
  const outer: TraceEvent[] = [];
  for (const t of tasks) {
    const last = outer[outer.length - 1];
    if (!last || t.ts >= last.ts + last.dur!) {
      outer.push(t);
    }
  }
  const taskAt = (ts: number) => outer.find((t) => t.ts <= ts && ts <= t.ts + t.dur!);
  // a frame's own work: its style, layout, paint and layer update
  const lifecycle = onMain.filter((e) => FRAME_PHASES.includes(e.name));
  return starts.map((s, k) => {
    const drawn = drawns[k];
    const drawnIn = taskAt(drawn.ts);
    const seenIn = taskAt(seens[k].ts);
    if (!drawnIn || !seenIn) {
      throw new Error('the task the graph was drawn in, or the frame it was seen in, is not in the trace');
    }
    // drawn inside a frame (in its animation-frame callbacks or resize observers, before its
    // paint): that frame paints it; drawn in a task between frames: the next frame does, the
    // one in which bench.onScreen saw it
    const paintedByDrawingFrame = lifecycle.some((e) => e.ts > drawn.ts && e.ts < drawnIn.ts + drawnIn.dur!);
    const framesTo = paintedByDrawingFrame ? frames[k] - 1 : frames[k];
    const endTask = paintedByDrawingFrame ? drawnIn : seenIn;
    const end = endTask.ts + endTask.dur!;
    let us = 0;
    let n = 0;
    for (const t of outer) {
      const a = Math.max(t.ts, s.ts);
      const b = Math.min(t.ts + t.dur!, end);
      if (b > a) {
        us += b - a;
        n++;
      }
    }
    if (process.env.ONSCREEN_DEBUG) {
      console.log(
        lib,
        'drawn at',
        ((drawn.ts - s.ts) / 1000).toFixed(1),
        'in task at',
        ((drawnIn.ts - s.ts) / 1000).toFixed(1),
        'same frame',
        paintedByDrawingFrame,
        'seen task at',
        ((seenIn.ts - s.ts) / 1000).toFixed(1),
        'end',
        ((end - s.ts) / 1000).toFixed(1)
      );
    }
    if (detail) {
      printTasks(outer, onMain, s.ts, end);
    }
    return { workMs: us / 1000, wallMs: (end - s.ts) / 1000, frames: framesTo, tasks: n };
  });
}

/**
 * ONSCREEN_DEBUG=2: each task from the render's start to the end, with its events of 0.1 ms and
 * more (style, layout, paint, script) and the script stack of every style pass a script forced.
 */
function printTasks(outer: TraceEvent[], onMain: TraceEvent[], start: number, end: number) {
  const ms = (us: number) => (us / 1000).toFixed(2);
  for (const t of outer) {
    const a = Math.max(t.ts, start);
    const b = Math.min(t.ts + t.dur!, end);
    if (b <= a) {
      continue;
    }
    const inside = onMain.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur! <= t.ts + t.dur!);
    const kids = inside
      .filter((e) => e.dur! >= 100)
      .map(
        (e) =>
          `${e.name}${e.args?.data?.functionName ? ':' + e.args.data.functionName : ''} ${ms(e.dur!)}@${ms(e.ts - start)}`
      );
    console.log('  task at', ms(a - start), 'ms,', ms(b - a), 'ms:', kids.join(' | '));
    for (const e of inside) {
      const stack = e.name === 'UpdateLayoutTree' ? e.args?.beginData?.stackTrace : undefined;
      if (stack) {
        const where = stack.slice(0, 6).map((f: any) => `${f.functionName}:${f.lineNumber}:${f.columnNumber}`);
        console.log('    style forced by', where.join(' < '));
      }
    }
  }
}

// (style and layout can be forced by a script outside a frame; these phases cannot)
const FRAME_PHASES = ['PrePaint', 'Paint', 'Layerize'];
