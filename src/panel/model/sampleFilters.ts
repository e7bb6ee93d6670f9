// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameData } from '../../shared/flameData';
import { rebuildStacks } from './stacks';

/**
 * pprof's -ignore on a flamegraph: the stacks holding a frame whose name matches re are dropped,
 * value and all. pprof also matches a location's file names and its mapping's file, which a
 * flamegraph frame does not carry: the datasource's ignore(q, "re") applies pprof's own rule on
 * the server's profile, and the panel asks it to; this is for frames from other datasources.
 */
export function ignoreFrames(data: FlameData, re: RegExp): FlameData {
  const matches = nameMatcher(data, re);
  return rebuildStacks(data, (path) => (path.some((n) => !isVirtual(data, n) && matches(n)) ? undefined : path));
}

/**
 * pprof's -hide on a flamegraph: the frames whose name matches re are removed, their callees and
 * values moving up to their callers; a stack left with no frame is dropped, as pprof drops a
 * sample with no location left. Like ignoreFrames it matches names only.
 */
export function hideFrames(data: FlameData, re: RegExp): FlameData {
  const matches = nameMatcher(data, re);
  return rebuildStacks(data, (path) => path.filter((n) => isVirtual(data, n) || !matches(n)));
}

function isVirtual(data: FlameData, n: number): boolean {
  return data.virtual !== undefined && data.virtual[n] === 1;
}

/** Whether node n's name matches re, each distinct name tested once. */
function nameMatcher(data: FlameData, re: RegExp): (n: number) => boolean {
  const memo = new Int8Array(data.names.length); // 0 unknown, 1 no, 2 yes
  const plain = new RegExp(re.source, re.flags.replace(/[gy]/g, ''));
  return (n) => {
    const k = data.nameIdx[n];
    if (memo[k] === 0) {
      memo[k] = plain.test(data.names[k]) ? 2 : 1;
    }
    return memo[k] === 2;
  };
}
