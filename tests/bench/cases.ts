// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { REPO } from '../support/playground';

/**
 * A benchmark input: a checked-in pprof file, or a synthetic tree of `nodes` nodes (`deep`: a
 * spine that deep). A refresh alternates it with a second, distinct input of the same kind:
 * `other`, another checked-in pprof file, or the synthetic tree of another seed.
 */
export interface BenchInput {
  profile?: string;
  other?: string;
  nodes: number;
  deep?: number;
}

/** The frame JSON of a checked-in pprof file, made by the plugin's own conversion (tests/bench/frame). */
export function profileFrame(file: string): string {
  return execFileSync('go', ['run', './tests/bench/frame', file], { cwd: REPO, maxBuffer: 256 << 20 }).toString();
}

/** Loads the input into the bench page (bench.loadFrame or bench.load); returns its node count. */
export async function loadInput(page: Page, c: BenchInput): Promise<number> {
  return c.profile
    ? page.evaluate(([json, other]) => (window as any).bench.loadFrame(json, other ?? undefined), [
        profileFrame(c.profile),
        c.other ? profileFrame(c.other) : null,
      ] as const)
    : page.evaluate(([n, d]) => (window as any).bench.load(n, d), [c.nodes, c.deep ?? 0] as const);
}
