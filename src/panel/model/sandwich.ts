// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameData, flameDataLike } from '../../shared/flameData';
import { FlameIndex } from './flameIndex';
import { Deadline, IdleStep, runChunks } from './idle';
import { keepLast, memoOf } from './memo';
import { MERGE_CHUNK, MergeState, mergeSandwich, SandwichParts, sitesOf } from './sandwichMerge';
import { modelWorker } from '../worker/client';

export { MERGE_CHUNK } from './sandwichMerge';

/**
 * Sandwiches of a flame index, merged once and kept: ahead of a click in the model worker (or,
 * where there is none, here in idle slices), at once when a click needs one not merged yet. The
 * merge itself is sandwichMerge.ts's.
 */

/** The sandwich of one function: every caller path merged above it, every callee path merged below it. */
export interface Sandwich {
  nameIdx: number;
  /** Root = the function; its children are its callers, theirs their callers, up to the outermost frame. */
  callers: FlameData;
  /** Root = the function; below it every call it makes, merged over every call site. */
  callees: FlameData;
  /** The function's self summed over every node (pprof's flat). */
  self: number;
  /** The function's total, a call inside a call of itself counted once (pprof's cum). */
  total: number;
  /** How many nodes of the graph carry the function. */
  sites: number;
  /**
   * Set when the halves were cut at this many levels below (above) the function: the levels
   * kept are exact, the deeper ones are left out (a first frame drawn before the whole merge).
   */
  depthLimit?: number;
}

/** A merge's columns as the sandwich of the frame (its names and unit). */
function sandwichFrom(data: FlameData, p: SandwichParts): Sandwich {
  const out: Sandwich = {
    nameIdx: p.nameIdx,
    callers: flameDataLike(data, p.callers),
    callees: flameDataLike(data, p.callees),
    self: p.self,
    total: p.total,
    sites: p.sites,
  };
  if (p.depthLimit !== undefined) {
    out.depthLimit = p.depthLimit;
  }
  return out;
}

/**
 * Builds the sandwich of name k as pprof's `-peek` counts it (see mergeSandwich), at once. With
 * `depthLimit`, both halves stop that many levels from the function (the levels kept are exact).
 */
export function buildSandwich(index: FlameIndex, k: number, depthLimit?: number): Sandwich {
  return sandwichFrom(index.data, mergeSandwich(index, k, depthLimit));
}

/** Sandwiches already merged, per flame index, by name and depth limit (the last few kept: up to three prefetched, cut and whole). */
const madeOf = memoOf((_: FlameIndex) => new Map<string, Sandwich>());
const KEEP_MADE = 8;
/** Merges started and not finished, per flame index (the last few kept, paused between idle periods). */
const pendingOf = memoOf((_: FlameIndex) => new Map<string, SandwichMerge>());
const KEEP_PENDING = 4;

const keyOf = (k: number, depthLimit?: number) => `${k}:${depthLimit ?? ''}`;

/**
 * A sandwich merged ahead of a click: step(deadline) hands the merge to the model worker and
 * gives its promise (the idle step runner calls it again once it settles), or, where there is
 * no worker, merges here until the deadline has no time left (at least one chunk of about
 * MERGE_CHUNK rows, so it always gets on). finish() merges the rest at once; the result is
 * buildSandwich's, kept by sandwichOf once done; cancel() drops the work.
 */
export class SandwichMerge {
  /** Chunks merged here so far (MERGE_CHUNK rows each, the last one shorter). */
  chunks = 0;
  result?: Sandwich;
  cancelled = false;
  // made on the first step merged here: a merge found done, or done in the worker, needs none
  private state?: MergeState;
  private inWorker?: Promise<void>;

  constructor(
    readonly index: FlameIndex,
    readonly nameIdx: number,
    readonly depthLimit?: number
  ) {}

  private get merge(): MergeState {
    return (this.state ??= new MergeState(this.index, this.nameIdx, this.depthLimit));
  }

  get done(): boolean {
    return this.result !== undefined;
  }

  /** Whether the model worker is merging it now (a promise the step runner can wait for). */
  get inTheWorker(): boolean {
    return this.inWorker !== undefined && !this.state && !this.result;
  }

  /**
   * True once the sandwich is merged; false when a later idle slice should go on; a promise
   * while the worker merges it (settled when it answered, or failed: then merged here).
   */
  step(deadline: Deadline): boolean | Promise<void> {
    if (this.cancelled) {
      return false;
    }
    if (this.result) {
      return true;
    }
    if (!this.state) {
      if (this.inWorker) {
        return this.inWorker;
      }
      const worker = modelWorker();
      if (worker.available) {
        this.inWorker = worker.sandwich(this.index.data, this.nameIdx, this.depthLimit).then(
          (parts) => {
            if (!this.result && !this.cancelled) {
              this.settle(sandwichFrom(this.index.data, parts));
            }
          },
          () => {
            // no worker after all: merged here, in the next steps
            this.inWorker = undefined;
            this.state = this.merge;
          }
        );
        return this.inWorker;
      }
    }
    return runChunks(() => this.chunk(), deadline);
  }

  /** Merges one chunk of about MERGE_CHUNK rows here; true once the sandwich is merged. */
  private chunk(): boolean {
    if (!this.result) {
      this.chunks++;
      if (this.merge.run(MERGE_CHUNK)) {
        this.settle(sandwichFrom(this.index.data, this.merge.result!));
      }
    }
    return this.done;
  }

  /** The whole merge, the rest of it done now (what the worker is still on is merged here). */
  finish(): Sandwich {
    if (!this.result) {
      if (this.cancelled) {
        throw new Error('sandwich merge cancelled');
      }
      this.merge.run(Infinity);
      this.settle(sandwichFrom(this.index.data, this.merge.result!));
    }
    return this.result!;
  }

  /** Drops the merge: nothing of it is kept, further steps do nothing. */
  cancel() {
    this.cancelled = true;
    const pending = pendingOf.peek(this.index);
    const key = keyOf(this.nameIdx, this.depthLimit);
    if (pending?.get(key) === this) {
      pending.delete(key);
    }
  }

  private settle(s: Sandwich) {
    this.result = s;
    const key = keyOf(this.nameIdx, this.depthLimit);
    pendingOf.peek(this.index)?.delete(key);
    keepLast(madeOf(this.index), key, s, KEEP_MADE);
  }
}

/**
 * The merge of name k's sandwich for the index: already done, under way (paused where the last
 * idle period left it), or started now. Step it in idle time; sandwichOf finishes it when needed.
 */
export function sandwichMerge(index: FlameIndex, k: number, depthLimit?: number): SandwichMerge {
  const key = keyOf(k, depthLimit);
  const pending = pendingOf(index);
  let m = pending.get(key);
  if (m) {
    return m;
  }
  m = new SandwichMerge(index, k, depthLimit);
  const made = madeOf.peek(index)?.get(key);
  if (made) {
    m.result = made;
    return m;
  }
  keepLast(pending, key, m, KEEP_PENDING);
  return m;
}

/**
 * The sandwich of name k, merged once per index, name and depth limit: what an idle-time
 * prefetch merged is the very result a click then draws (same values, no second merge); a
 * prefetch under way is finished from where it paused.
 */
export function sandwichOf(index: FlameIndex, k: number, depthLimit?: number): Sandwich {
  const key = keyOf(k, depthLimit);
  const made = madeOf(index);
  const s = made.get(key);
  if (s) {
    // most recently used last
    keepLast(made, key, s, KEEP_MADE);
    return s;
  }
  return sandwichMerge(index, k, depthLimit).finish();
}

/**
 * Frames of up to this many rows have a sandwich a click merges at once (a few milliseconds);
 * a larger frame's is merged in the model worker or in idle slices while the view says so.
 */
export const MERGE_NOW_ROWS = 65536;

/**
 * The sandwich of name k when it is merged, or when its frame is small enough to merge it now;
 * undefined while it is to be merged elsewhere (step sandwichMerge's merge in idle time: in the
 * model worker, or here in slices), so that a click never holds the page for a whole merge.
 */
export function sandwichNow(index: FlameIndex, k: number, depthLimit?: number): Sandwich | undefined {
  if (hasSandwich(index, k, depthLimit)) {
    return sandwichOf(index, k, depthLimit);
  }
  const m = sandwichMerge(index, k, depthLimit);
  if (m.done || (!m.inTheWorker && index.data.count <= MERGE_NOW_ROWS)) {
    return m.finish();
  }
  return undefined;
}

/** Whether sandwichOf has this sandwich already merged. */
export function hasSandwich(index: FlameIndex, k: number, depthLimit?: number): boolean {
  return madeOf.peek(index)?.has(keyOf(k, depthLimit)) ?? false;
}

/** Lists every name's call sites for the index (the first part of any sandwich's merge), once. */
export function prepareSites(index: FlameIndex): void {
  sitesOf(index);
}

/**
 * The idle steps that merge name k's sandwich ahead of a click: cut at depthLimit first when
 * given (the first frame of a deep graph), then whole; after each merge, `then` (the view's
 * preparation of that sandwich), which may give steps of its own: they run in idle slices too.
 */
export function sandwichSteps(
  index: FlameIndex,
  k: number,
  depthLimit: number | undefined,
  then: (s: Sandwich) => IdleStep[] | void
): IdleStep[] {
  const steps: IdleStep[] = [];
  for (const limit of depthLimit !== undefined ? [depthLimit, undefined] : [undefined]) {
    let after: IdleStep[] | undefined;
    let at = 0;
    steps.push(
      (d) => sandwichMerge(index, k, limit).step(d),
      (d) => {
        // then's steps, each started while the slice has time, a resumable one resumed here
        after ??= then(sandwichOf(index, k, limit)) ?? [];
        while (at < after.length && after[at](d) !== false) {
          at++;
          if (d.timeRemaining() <= 0) {
            break;
          }
        }
        return at >= after.length;
      }
    );
  }
  return steps;
}
