// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { useEffect, useMemo, useState } from 'react';
import { FlameIndex } from '../../model/flameIndex';
import { hasSandwich, Sandwich, sandwichNow, sandwichSteps } from '../../model/sandwich';
import { inIdleSteps } from '../../model/idle';
import { afterPaint } from '../../afterPaint';
import { ColorMode } from '../../types';
import { ROW_HEIGHT } from '../FlameGraph/FlameCanvas';
import { prepareSandwichSteps } from './SandwichView';

type Look = { colorMode: ColorMode; colorBlindDiff: boolean };

/** The levels a deep graph's sandwich is first cut at (what half of a view `height` tall shows). */
export function sandwichCutFor(height: number, maxLevel: number): number | undefined {
  const levels = Math.ceil(height / 2 / ROW_HEIGHT) + 1;
  return maxLevel > levels ? levels : undefined;
}

/**
 * The sandwich of function `name`. A deep graph's is first drawn cut at the levels `cut` allows,
 * then merged whole in idle slices after that paint (a prefetch under way goes on from where it
 * paused), so the page takes inputs meanwhile; drawn whole at once when its merge is made already.
 * Undefined while a large frame's first sandwich is merged (in the model worker, or here in idle
 * slices): the view shows that it is on its way.
 */
export function useSandwich(
  index: FlameIndex,
  name: number | undefined,
  cut: number | undefined,
  look: Look
): Sandwich | undefined {
  // the depth limit of the first sandwich drawn: cut when the whole one is not merged yet
  const firstLimit = name !== undefined && cut !== undefined && !hasSandwich(index, name) ? cut : undefined;
  // a merge that went on elsewhere has ended: the memo below is worked out again
  const [mergedCount, setMergedCount] = useState(0);
  const first = useMemo(
    () => (name === undefined ? undefined : sandwichNow(index, name, firstLimit)),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [name, index, firstLimit, mergedCount]
  );
  const pending = name !== undefined && first === undefined;
  useEffect(() => {
    if (!pending || name === undefined) {
      return;
    }
    // merged, its halves' indexes and colours made, then drawn (the render only draws)
    return inIdleSteps(
      sandwichSteps(index, name, firstLimit, (s) => [
        ...prepareSandwichSteps(s, look),
        () => setMergedCount((c) => c + 1),
      ])
    );
    // the look only warms the colour caches: a change of it needs no new merge
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pending, index, name, firstLimit]);
  const [whole, setWhole] = useState<{ of: Sandwich; whole: Sandwich }>();
  useEffect(() => {
    if (!first || first.depthLimit === undefined) {
      return;
    }
    let cancelIdle: (() => void) | undefined;
    const cancelPaint = afterPaint(() => {
      cancelIdle = inIdleSteps(
        sandwichSteps(index, first.nameIdx, undefined, (w) => [
          ...prepareSandwichSteps(w, look),
          () => setWhole({ of: first, whole: w }),
        ])
      );
    });
    return () => {
      cancelPaint();
      cancelIdle?.();
    };
    // the look only warms the colour caches: a change of it needs no new merge
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [first, index]);
  return whole && whole.of === first ? whole.whole : first;
}

/**
 * Merges in idle time, in resumable steps (an input waits for one chunk at most), the sandwiches
 * a click may open next, so that opening one only draws. None while a sandwich is open.
 */
export function usePrefetchSandwiches(
  index: FlameIndex,
  names: number[],
  open: boolean,
  cut: number | undefined,
  look: Look
) {
  const { colorMode, colorBlindDiff } = look;
  const key = names.filter((k, at) => k >= 0 && names.indexOf(k) === at).join(',');
  useEffect(() => {
    if (open || key === '') {
      return;
    }
    const l = { colorMode, colorBlindDiff };
    return inIdleSteps(
      key
        .split(',')
        .map(Number)
        .flatMap((k) => sandwichSteps(index, k, cut, (s) => prepareSandwichSteps(s, l)))
    );
  }, [index, open, key, cut, colorMode, colorBlindDiff]);
}
