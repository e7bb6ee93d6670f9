// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { CDPSession } from '@playwright/test';

/** An event of a Chromium trace (the DevTools protocol's Tracing domain). */
export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's CPU time in the event (where the trace records thread time). */
  tdur?: number;
  pid: number;
  tid: number;
  args?: Record<string, any>;
}

/** The trace events of `categories` recorded while `run` runs. */
export async function traced(cdp: CDPSession, categories: string, run: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  const collect = (e: { value: object[] }) => events.push(...(e.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', collect);
  await cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents' });
  try {
    await run();
  } finally {
    const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
    await cdp.send('Tracing.end');
    await done;
    cdp.off('Tracing.dataCollected', collect);
  }
  return events;
}
