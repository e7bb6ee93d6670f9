// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameData } from '../../shared/flameData';
import { layoutGraph } from '../model/callGraphLayout';
import { buildIndex } from '../model/flameIndex';
import { MergeSource, mergeSandwich } from '../model/sandwichMerge';
import { FrameColumns, Reply, Request } from './protocol';

/** Frames the worker keeps (the shown one and the one before it: a refresh's pair). */
const KEEP_FRAMES = 2;

/**
 * The worker's side of the protocol, without the worker: answers one request with the reply
 * and the buffers to hand over. Keeps the last frames it was sent, each as the merge's source
 * (its index's tree made once, the call sites listed once).
 */
export function modelServer(): (req: Request) => { reply: Reply; transfer: Transferable[] } {
  const frames = new Map<number, MergeSource>();
  return (req) => {
    try {
      if (req.kind === 'layout') {
        return { reply: { id: req.id, ok: true, kind: 'layout', output: layoutGraph(req.input) }, transfer: [] };
      }
      let source = frames.get(req.frame);
      if (req.columns) {
        source = sourceOf(req.columns);
        frames.set(req.frame, source);
        for (const old of frames.keys()) {
          if (frames.size <= KEEP_FRAMES) {
            break;
          }
          frames.delete(old);
        }
      }
      if (!source) {
        return { reply: { id: req.id, ok: false, missingFrame: true }, transfer: [] };
      }
      const parts = mergeSandwich(source, req.nameIdx, req.depthLimit);
      return { reply: { id: req.id, ok: true, kind: 'sandwich', parts }, transfer: buffersOf(parts) };
    } catch (e) {
      return { reply: { id: req.id, ok: false, error: e instanceof Error ? e.message : String(e) }, transfer: [] };
    }
  };
}

/** The merge's source over sent columns: the frame's tree made from its levels. */
function sourceOf(columns: FrameColumns): MergeSource {
  const { nameCount, ...cols } = columns;
  // the merge counts names and reads none: an empty list of their number stands in
  const data: FlameData = { ...cols, names: new Array<string>(nameCount) };
  return buildIndex(data, { later: true });
}

/** The buffers of a merged sandwich's columns, handed over with the reply. */
function buffersOf(parts: { callers: object; callees: object }): Transferable[] {
  const out: Transferable[] = [];
  for (const half of [parts.callers, parts.callees]) {
    for (const v of Object.values(half)) {
      if (ArrayBuffer.isView(v) && !out.includes(v.buffer)) {
        out.push(v.buffer as ArrayBuffer);
      }
    }
  }
  return out;
}
