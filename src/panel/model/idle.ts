// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * Work done ahead in the browser's idle time (sandwich merges, their views, the header's
 * combobox), in short slices so that an input never waits long behind it.
 */

/** What an idle callback is given: the time left in the idle period (requestIdleCallback's deadline). */
export interface Deadline {
  timeRemaining(): number;
}

/** A deadline that never runs out: resumable work run to its end at once. */
export const NO_DEADLINE: Deadline = { timeRemaining: () => Infinity };

/**
 * A step of idle work: given the idle period's deadline, it does bounded work and returns false
 * when it wants another period to go on (a resumable merge), a promise when its work went off
 * the main thread (the model worker: the step is called again once it settles, the main
 * thread free meanwhile), anything else when it is done.
 */
export type IdleStep = (deadline: Deadline) => boolean | void | PromiseLike<unknown>;

/**
 * Resumable work as bounded chunks: each call does one chunk (about a millisecond or less) and
 * says true once all is done. What a model's build gives the one step runner below.
 */
export type Chunk = () => boolean;

/**
 * Runs chunks until the work is done (true) or the deadline has no time left (false); at least
 * one chunk per call, so the work always gets on. The one deadline loop of every resumable build.
 */
export function runChunks(chunk: Chunk, deadline: Deadline = NO_DEADLINE): boolean {
  for (;;) {
    if (chunk()) {
      return true;
    }
    if (deadline.timeRemaining() <= 0) {
      return false;
    }
  }
}

/** Chunked work as a step of the runner below: as many chunks as the idle slice has time for. */
export function chunkStep(chunk: Chunk): IdleStep {
  return (deadline) => runChunks(chunk, deadline);
}

/** Schedules cb for the next slice of idle time; returns a cancel. */
export type IdleFn = (cb: (deadline: Deadline) => void) => () => void;

/**
 * The longest stretch of idle work in one task (ms). The browser's idle period runs up to 50 ms
 * when no frame is due, and an input that arrives meanwhile waits for all of it (a click on the
 * context menu's "Sandwich view" was drawn 5–8 frames late at 500k nodes behind a 52 ms merge
 * step). Work is cut into tasks this long; the browser takes a waiting input between two of them.
 */
export const IDLE_SLICE_MS = 4;

// the idle period of the slice running now: what the slice schedules is its next slice, a task of
// its own while the period has time left (a requestIdleCallback made inside an idle callback
// waits for the next period, up to 50 ms away)
let period: IdleDeadline | undefined;
let channel: MessageChannel | undefined;
const queued: Array<() => void> = [];

function postTask(fn: () => void) {
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => queued.shift()?.();
  }
  queued.push(fn);
  channel.port2.postMessage(0);
}

const now = () => performance.now();

/** The browser's idle time in slices of IDLE_SLICE_MS (a timer with an 8 ms budget where it has no requestIdleCallback). */
export const onIdle: IdleFn = (cb) => {
  const w = typeof window !== 'undefined' ? (window as Window & typeof globalThis) : undefined;
  if (!w || typeof w.requestIdleCallback !== 'function' || typeof MessageChannel !== 'function') {
    const id = setTimeout(() => {
      const until = Date.now() + 8;
      cb({ timeRemaining: () => until - Date.now() });
    }, 50);
    return () => clearTimeout(id);
  }
  let live = true;
  let idleId: number | undefined;
  const slice = (d: IdleDeadline) => {
    idleId = undefined;
    if (!live) {
      return;
    }
    const until = now() + IDLE_SLICE_MS;
    // what cb schedules next (inIdleSteps' next step) continues this period
    period = d;
    try {
      cb({ timeRemaining: () => Math.min(d.timeRemaining(), until - now()) });
    } finally {
      period = undefined;
    }
  };
  const inPeriod = period;
  if (inPeriod && inPeriod.timeRemaining() > 0) {
    // the period goes on: the next slice in a task of its own, after any input waiting
    postTask(() => {
      if (!live) {
        return;
      }
      if (inPeriod.timeRemaining() > 0) {
        slice(inPeriod);
      } else {
        idleId = w.requestIdleCallback(slice, { timeout: 2000 });
      }
    });
  } else {
    idleId = w.requestIdleCallback(slice, { timeout: 2000 });
  }
  return () => {
    live = false;
    if (idleId !== undefined) {
      w.cancelIdleCallback(idleId);
    }
  };
};

/**
 * A step that starts work off the main thread once (start gives its promise) and is done when
 * that settles: the step runner waits for it with the main thread free.
 */
export function promiseStep(start: () => PromiseLike<unknown>): IdleStep {
  let started: PromiseLike<unknown> | undefined;
  let settled = false;
  return () => {
    if (settled) {
      return true;
    }
    const done = () => {
      settled = true;
    };
    started ??= start().then(done, done);
    return started;
  };
}

const isPromise = (x: unknown): x is PromiseLike<unknown> =>
  typeof x === 'object' && x !== null && typeof (x as PromiseLike<unknown>).then === 'function';

/**
 * The one step runner: runs each step in its own idle slice, one after the other, a resumable
 * step over as many slices as it needs (never more than one step's chunk past the slice's end,
 * so an input waits at most for one slice), a step that gave a promise called again in an idle
 * slice once it settles (to say whether it is done); returns a cancel.
 */
export function inIdleSteps(steps: IdleStep[], idle: IdleFn = onIdle): () => void {
  let cancel: (() => void) | undefined;
  let at = 0;
  const run = (deadline: Deadline) => {
    cancel = undefined;
    if (at >= steps.length) {
      return;
    }
    const r = steps[at](deadline);
    if (isPromise(r)) {
      const waiting = at;
      const again = () => {
        if (at === waiting) {
          cancel = idle(run);
        }
      };
      r.then(again, again);
      return;
    }
    if (r !== false) {
      at++;
    }
    if (at < steps.length) {
      cancel = idle(run);
    }
  };
  cancel = idle(run);
  return () => {
    at = steps.length;
    cancel?.();
  };
}
