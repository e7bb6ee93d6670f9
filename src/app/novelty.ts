// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import type { DataFrame } from '@grafana/data';
import type { Span } from './state';

/** A novel profile of a novelty answer and the two ranges of its diff (its match, then itself). */
export interface NovelProfile {
  time: number;
  title: string;
  text: string;
  baseline: Span;
  comparison: Span;
}

const num = (f: DataFrame, name: string, row: number) => Number(f.fields.find((x) => x.name === name)?.values[row]);

/**
 * The novel profiles of a novelty answer: each annotation row matched to the score frame's row
 * at its time; the score's diff link names the fields holding the ranges (`matchFrom`,
 * `matchTo` the most similar earlier profile, `profileFrom`, `profileTo` the novel one).
 */
export function novelProfilesOf(frames: DataFrame[]): NovelProfile[] {
  const annotations = frames.filter((f) => f.meta?.dataTopic === 'annotations');
  const scores = frames.filter((f) => f.fields.some((x) => x.name === 'score') && f.meta?.dataTopic !== 'annotations');
  const out: NovelProfile[] = [];
  for (const a of annotations) {
    const times = a.fields.find((x) => x.name === 'time');
    for (let i = 0; i < a.length; i++) {
      const t = Number(times?.values[i]);
      for (const s of scores) {
        const time = s.fields.find((x) => x.name === 'time' || x.type === 'time');
        const row = time ? time.values.findIndex((v) => Number(v) === t) : -1;
        if (row < 0) {
          continue;
        }
        const baseline = { from: num(s, 'matchFrom', row), to: num(s, 'matchTo', row) };
        const comparison = { from: num(s, 'profileFrom', row), to: num(s, 'profileTo', row) };
        if (![baseline.from, baseline.to, comparison.from, comparison.to].every(Number.isFinite)) {
          continue;
        }
        out.push({
          time: t,
          title: String(a.fields.find((x) => x.name === 'title')?.values[i] ?? ''),
          text: String(a.fields.find((x) => x.name === 'text')?.values[i] ?? ''),
          baseline,
          comparison,
        });
        break;
      }
    }
  }
  return out;
}
