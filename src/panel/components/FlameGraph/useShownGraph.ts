// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { useCallback, useEffect, useMemo } from 'react';
import { FlameData } from '../../../shared/flameData';
import { buildIndex, FlameIndex, warmIndex } from '../../model/flameIndex';
import { nodeColors, NodeColors } from '../../model/colors';
import { chainNames, Collapsed, collapseChains, LazyCollapsed } from '../../model/collapse';
import { inIdleSteps } from '../../model/idle';
import { afterPaint } from '../../afterPaint';
import { ColorMode } from '../../types';
import { memoOf } from '../../model/memo';

/** The graph as drawn: the profile's index, its chains collapsed or not, and its colours. */
export interface ShownGraph {
  /** The profile's own index (uncollapsed). */
  index: FlameIndex;
  /** The collapse, when chains are collapsed. */
  collapsed?: Collapsed;
  /** The index of the drawn graph (the collapsed one, or `index`). */
  shown: FlameIndex;
  /** A node of the profile's graph as a node of the drawn one, and back. */
  toShown: (orig: number) => number;
  toOrig: (shown: number) => number;
  /** Colours of the profile's nodes, and of the drawn ones. */
  baseColors: NodeColors;
  colors: NodeColors;
  /** The names a collapsed bar stands for (undefined without collapse). */
  chainNamesOf?: (shown: number) => string[];
}

/**
 * The drawn graph of `data`. The first draw reads no index (it is drawn from the frame's
 * columns): the index, the collapse and the collapsed graph's index are made in idle slices after
 * the first paint, or what is left of them at the first input that reads them.
 */
export function useShownGraph(
  data: FlameData,
  collapse: boolean,
  expanded: Set<number>,
  look: { colorMode: ColorMode; colorBlindDiff: boolean }
): ShownGraph {
  const index = useMemo(() => buildIndex(data, { later: true }), [data]);
  const collapsed = useMemo(() => (collapse ? collapsedOf(index, expanded) : undefined), [collapse, index, expanded]);
  const shown = useMemo(() => (collapsed ? shownIndexOf(collapsed, index) : index), [collapsed, index]);
  // the root is the first bar whatever is collapsed (so an unzoomed graph reads no collapse)
  const toShown = useCallback((o: number) => (o <= 0 ? o : collapsed ? collapsed.shownOf[o] : o), [collapsed]);
  const toOrig = useCallback((s: number) => (s < 0 ? -1 : collapsed ? collapsed.head[s] : s), [collapsed]);
  const { colorMode, colorBlindDiff } = look;
  const baseColors = useMemo(() => nodeColors(data, colorMode, colorBlindDiff), [data, colorMode, colorBlindDiff]);
  const colors = useMemo(
    () => (collapsed ? { get: (s: number) => baseColors.get(collapsed.head[s]) } : baseColors),
    [collapsed, baseColors]
  );
  const chainNamesOf = useMemo(
    () => (collapsed ? (s: number) => chainNames(collapsed, data, s) : undefined),
    [collapsed, data]
  );
  useEffect(() => {
    let cancelIdle: (() => void) | undefined;
    const cancelPaint = afterPaint(() => {
      cancelIdle = inIdleSteps([(d) => !(collapsed instanceof LazyCollapsed) || collapsed.step(d), warmIndex(shown)]);
    });
    return () => {
      cancelPaint();
      cancelIdle?.();
    };
  }, [collapsed, shown]);
  return { index, collapsed, shown, toShown, toOrig, baseColors, colors, chainNamesOf };
}

// the fully collapsed graph of an index, and the index of a collapsed graph, made once: switching
// collapse off and on again redraws without redoing either
// (made in idle time or when first read)
const fullyCollapsed = memoOf((index: FlameIndex): Collapsed => new LazyCollapsed(index.data));
// per index, the index of each of its collapsed graphs: the uncollapsed index itself when the
// collapse merged nothing
const shownIndexes = memoOf((index: FlameIndex) =>
  memoOf((c: Collapsed) => buildIndex(() => c.data, { later: true, sameAs: index }))
);

function collapsedOf(index: FlameIndex, heads: Set<number>): Collapsed {
  return heads.size > 0 ? collapseChains(index, heads) : fullyCollapsed(index);
}

function shownIndexOf(c: Collapsed, index: FlameIndex): FlameIndex {
  return shownIndexes(index)(c);
}
