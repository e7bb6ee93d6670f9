// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameColumns } from '../../shared/flameData';
import { LayoutInput, LayoutOutput } from '../model/callGraphLayout';
import { SandwichParts } from '../model/sandwichMerge';

/**
 * The messages between the panel and its model worker. Everything in them is plain data: a frame
 * goes as its typed-array columns (copied once per frame, then named by its id), results come back
 * as typed arrays handed over (transferred), never as object graphs.
 */

/** A frame's columns as the worker is sent them (names only counted: the merge reads none). */
export type FrameColumns = FlameColumns & { nameCount: number };

export type Request =
  | {
      id: number;
      kind: 'sandwich';
      /** The frame's id; its columns ride along the first time (and again when the worker forgot it). */
      frame: number;
      columns?: FrameColumns;
      nameIdx: number;
      depthLimit?: number;
    }
  | { id: number; kind: 'layout'; input: LayoutInput };

export type Reply =
  | { id: number; ok: true; kind: 'sandwich'; parts: SandwichParts }
  | { id: number; ok: true; kind: 'layout'; output: LayoutOutput }
  /** The worker does not hold that frame (any more): ask again with its columns. */
  | { id: number; ok: false; missingFrame: true }
  | { id: number; ok: false; error: string };
