// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { TraceEvent } from './trace';

/** The trace categories longestTasks reads: the page's tasks (with their thread time) and its marks. */
export const TASK_CATEGORIES = 'toplevel,blink.user_timing,devtools.timeline,disabled-by-default-devtools.timeline';

/** The longest main-thread task of an interaction, by the main thread's CPU time and by wall time. */
export interface LongestTask {
  /** CPU time of the main thread in its longest task (the trace's `tdur`): what the page did, whatever the load. */
  threadMs: number;
  /** Wall time of that same task. */
  wallOfThreadMs: number;
  /** The longest task by wall time (`dur`), inflated when other processes take the cores. */
  wallMs: number;
}

/**
 * The longest main-thread task between the marks `open-start:<name>` and `open-end:<name>` of a
 * trace (bench.callGraph and bench.sandwichOpen set them): every outermost task of the thread the
 * marks were made on, a garbage collection task included, whichever API it came from.
 */
export function longestTask(events: TraceEvent[], name: string): LongestTask {
  const mark = (m: string) => events.find((e) => e.name === `${m}:${name}`);
  const start = mark('open-start');
  const end = mark('open-end');
  if (!start || !end) {
    throw new Error(`the trace has no open-start:${name} and open-end:${name} marks`);
  }
  const tasks = events
    .filter(
      (e) =>
        e.pid === start.pid &&
        e.tid === start.tid &&
        e.ph === 'X' &&
        e.dur !== undefined &&
        (e.name === 'RunTask' || e.cat.split(',').includes('toplevel'))
    )
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const out: LongestTask = { threadMs: 0, wallOfThreadMs: 0, wallMs: 0 };
  let outerEnd = -Infinity;
  for (const t of tasks) {
    if (t.ts < outerEnd) {
      continue; // a task of a nested run loop: inside its parent's time
    }
    outerEnd = t.ts + t.dur!;
    if (outerEnd < start.ts || t.ts > end.ts) {
      continue;
    }
    const thread = (t.tdur ?? t.dur!) / 1000;
    if (thread > out.threadMs) {
      out.threadMs = thread;
      out.wallOfThreadMs = t.dur! / 1000;
    }
    out.wallMs = Math.max(out.wallMs, t.dur! / 1000);
  }
  return out;
}
