// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { DataFrame } from '@grafana/data';
import { readFlameData } from '../../../shared/flameData';
import { Sandwich } from '../../model/sandwich';

/**
 * Asks the backend for the sandwich of one function, merged from the range's full-resolution
 * profile (the query as run, with `sandwich` set), and answers its frames: the callers' and the
 * callees'. The panel makes one from its own request; the app and the playground from the
 * query their page ran.
 */
export type SandwichFetcher = (name: string) => Promise<DataFrame[]>;

/** A sandwich asked of the backend: what the view draws instead of the one merged from the cut graph. */
export interface FetchedSandwich {
  /** The function, by name. */
  name: string;
  sandwich: Sandwich;
  /** Whether a half was cut at maxNodes after the merge. */
  cut: boolean;
}

interface HalfMeta {
  function: string;
  half: 'callers' | 'callees';
  self: number;
  total: number;
  sites: number;
  cut: boolean;
}

function halfMeta(frame: DataFrame): HalfMeta | undefined {
  const m = (frame.meta?.custom as { sandwich?: Partial<HalfMeta> } | undefined)?.sandwich;
  if (
    !m ||
    typeof m.function !== 'string' ||
    (m.half !== 'callers' && m.half !== 'callees') ||
    typeof m.self !== 'number' ||
    typeof m.total !== 'number' ||
    typeof m.sites !== 'number'
  ) {
    return undefined;
  }
  return { function: m.function, half: m.half, self: m.self, total: m.total, sites: m.sites, cut: m.cut === true };
}

/**
 * The answer's two halves read into a Sandwich of function name (each half has the function at its
 * root, as the view's own merge makes them); an answer that is no sandwich of name is refused with
 * a reason.
 */
export function fetchedSandwichOf(name: string, frames: DataFrame[]): FetchedSandwich {
  const halves = frames.map((f) => ({ frame: f, meta: halfMeta(f) }));
  const callers = halves.find((h) => h.meta?.half === 'callers');
  const callees = halves.find((h) => h.meta?.half === 'callees');
  if (!callers?.meta || !callees?.meta) {
    throw new Error('the datasource answered no sandwich: it does not merge one at full resolution');
  }
  if (callers.meta.function !== name || callees.meta.function !== name) {
    throw new Error(`the answer is the sandwich of ${callers.meta.function}, not of ${name}`);
  }
  const callerData = readFlameData(callers.frame);
  const calleeData = readFlameData(callees.frame);
  if (callerData.count === 0 || calleeData.count === 0) {
    throw new Error('the answer has an empty half');
  }
  const { self, total, sites } = callers.meta;
  return {
    name,
    sandwich: { nameIdx: callerData.nameIdx[0], callers: callerData, callees: calleeData, self, total, sites },
    cut: callers.meta.cut || callees.meta.cut,
  };
}
