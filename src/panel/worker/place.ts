// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { afterPaint } from '../afterPaint';
import { CallGraph } from '../model/callGraph';
import { layoutGraph, Measure, PlacedGraph, placedFrom, sizeCallGraph } from '../model/callGraphLayout';
import { modelWorker } from './client';

/**
 * Places a call graph off the main thread: its text measured here (a canvas measures it), dagre
 * run in the model worker. Where there is no worker (or it fails), dagre runs here after the
 * next paint, in one task: its layout cannot be cut into slices.
 */
export function placeCallGraphOffThread(
  g: CallGraph,
  measure: Measure,
  format: (v: number) => string
): Promise<PlacedGraph> {
  const sized = sizeCallGraph(g, measure, format);
  const here = () =>
    new Promise<PlacedGraph>((resolve) => afterPaint(() => resolve(placedFrom(g, sized, layoutGraph(sized.input)))));
  const worker = modelWorker();
  if (!worker.available) {
    return here();
  }
  return worker.layout(sized.input).then((out) => placedFrom(g, sized, out), here);
}
