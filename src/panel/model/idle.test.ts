// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { Deadline, IDLE_SLICE_MS, IdleFn, inIdleSteps, promiseStep, runChunks } from './idle';

/** A fake requestIdleCallback whose periods the test opens, each with `ms` of idle time left. */
function fakeIdle() {
  let clock = 0;
  const pending = new Map<number, IdleRequestCallback>();
  let next = 1;
  const w = window as unknown as Record<string, unknown>;
  w.requestIdleCallback = (cb: IdleRequestCallback) => {
    pending.set(next, cb);
    return next++;
  };
  w.cancelIdleCallback = (id: number) => pending.delete(id);
  jest.spyOn(performance, 'now').mockImplementation(() => clock);
  return {
    advance(ms: number) {
      clock += ms;
    },
    requested: () => pending.size,
    /** Opens an idle period of `ms`: runs the callbacks requested before it. */
    period(ms: number) {
      const end = clock + ms;
      const cbs = [...pending.values()];
      pending.clear();
      for (const cb of cbs) {
        cb({ didTimeout: false, timeRemaining: () => Math.max(0, end - clock) });
      }
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('idle slices', () => {
  // jsdom has no MessageChannel: one whose message is a task (a timer), as the browser's is
  class TaskChannel {
    port1: { onmessage: (() => void) | null } = { onmessage: null };
    port2 = { postMessage: () => void setTimeout(() => this.port1.onmessage?.(), 0) };
  }
  beforeAll(() => {
    (globalThis as unknown as { MessageChannel: unknown }).MessageChannel = TaskChannel;
  });
  afterEach(() => {
    jest.restoreAllMocks();
    const w = window as unknown as Record<string, unknown>;
    delete w.requestIdleCallback;
    delete w.cancelIdleCallback;
  });

  it('cuts a long idle period into slices, each a task of its own inside that period', async () => {
    const idle = fakeIdle();
    const seen: number[] = [];
    let left = 6;
    inIdleSteps([
      (d) => {
        // a step that works until its slice has no time left
        seen.push(d.timeRemaining());
        idle.advance(IDLE_SLICE_MS);
        return --left === 0;
      },
    ]);
    expect(idle.requested()).toBe(1);
    // a 50 ms period (nothing else to do): the first slice is given IDLE_SLICE_MS, not 50
    idle.period(50);
    expect(seen).toEqual([IDLE_SLICE_MS]);
    // the next slices follow as tasks of their own inside the same period, not in the next one
    expect(idle.requested()).toBe(0);
    await tick();
    await tick();
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.every((ms) => ms <= IDLE_SLICE_MS)).toBe(true);
    for (let k = 0; k < 10 && seen.length < 6; k++) {
      await tick();
    }
    expect(seen.length).toBe(6);
    expect(idle.requested()).toBe(0);
  });

  it('asks for a new idle period once the one under way has no time left', async () => {
    const idle = fakeIdle();
    let runs = 0;
    inIdleSteps([
      () => {
        runs++;
        idle.advance(IDLE_SLICE_MS);
        return runs === 3;
      },
    ]);
    // a period of one slice only: the next slice waits for another period
    idle.period(IDLE_SLICE_MS);
    await tick();
    await tick();
    expect(runs).toBe(1);
    expect(idle.requested()).toBe(1);
    idle.period(IDLE_SLICE_MS);
    expect(runs).toBe(2);
  });

  it('cancelled between two slices, runs nothing more', async () => {
    const idle = fakeIdle();
    let runs = 0;
    const cancel = inIdleSteps([
      () => {
        runs++;
        idle.advance(1);
        return false;
      },
    ]);
    idle.period(50);
    cancel();
    await tick();
    await tick();
    expect(runs).toBe(1);
    expect(idle.requested()).toBe(0);
  });
});

/** An idle source whose slices the test runs one by one, each with plenty of time. */
function manualIdle() {
  const queue: Array<(d: Deadline) => void> = [];
  const idle: IdleFn = (cb) => {
    queue.push(cb);
    return () => {
      const at = queue.indexOf(cb);
      if (at >= 0) {
        queue.splice(at, 1);
      }
    };
  };
  return {
    idle,
    waiting: () => queue.length,
    slice: () => queue.shift()?.({ timeRemaining: () => 10 }),
  };
}

describe('the step runner with work off the main thread', () => {
  it('waits for a step that gave a promise, asking for no slice meanwhile, then calls it again', async () => {
    const m = manualIdle();
    let release!: () => void;
    const work = new Promise<void>((r) => (release = r));
    let done = false;
    const calls: string[] = [];
    inIdleSteps(
      [
        () => {
          calls.push('merge');
          return done || work.then(() => void (done = true));
        },
        () => void calls.push('draw'),
      ],
      m.idle
    );
    m.slice();
    await tick();
    // the worker is on it: no idle slice is asked for until it answers
    expect(m.waiting()).toBe(0);
    expect(calls).toEqual(['merge']);
    release();
    await tick();
    expect(m.waiting()).toBe(1);
    m.slice();
    m.slice();
    expect(calls).toEqual(['merge', 'merge', 'draw']);
  });

  it('a promise step starts its work once and is done when it settles, even when it failed', async () => {
    const m = manualIdle();
    let starts = 0;
    const after: string[] = [];
    inIdleSteps(
      [
        promiseStep(() => {
          starts++;
          return Promise.reject(new Error('no worker'));
        }),
        () => void after.push('next'),
      ],
      m.idle
    );
    m.slice();
    await tick();
    m.slice();
    m.slice();
    expect(starts).toBe(1);
    expect(after).toEqual(['next']);
  });

  it('cancelled while the promise is pending, runs nothing after it settles', async () => {
    const m = manualIdle();
    let release!: () => void;
    const ran: string[] = [];
    const cancel = inIdleSteps(
      [promiseStep(() => new Promise<void>((r) => (release = r))), () => void ran.push('next')],
      m.idle
    );
    m.slice();
    cancel();
    release();
    await tick();
    expect(m.waiting()).toBe(0);
    expect(ran).toEqual([]);
  });

  it('runs chunks until done or the deadline runs out, at least one chunk a call', () => {
    let left = 5;
    const chunk = () => --left === 0;
    expect(runChunks(chunk, { timeRemaining: () => 0 })).toBe(false);
    expect(left).toBe(4);
    expect(runChunks(chunk)).toBe(true);
    expect(left).toBe(0);
  });
});
