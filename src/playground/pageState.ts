// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import type { DataFrame, LinkModel } from '@grafana/data';
import type { EmberscopeQuery } from '../datasource/types';
import type { Exemplar } from '../shared/exemplars';
import type { QueryAnswer } from './api';
import type { NovelPoint } from './NoveltyDiffs';
import { viewsOf } from './views';

export interface TimeSpan {
  from: number;
  to: number;
}

/** Everything the playground page shows, changed only by the actions below. */
export interface PageState {
  /** The query as the editor holds it. */
  query: EmberscopeQuery;
  /** The range of the last run. */
  range: TimeSpan;
  /** The last query run, with the dashboard's variables replaced. */
  ran?: EmberscopeQuery;
  answer: QueryAnswer;
  error?: string;
  /** How many queries are out; the Run button spins while any is. */
  inflight: number;
  /** A range picked on the series, and its flamegraph once loaded. */
  selection?: TimeSpan;
  selectedFlame?: DataFrame;
  /** An exemplar opened on the series, and its flamegraph once loaded. */
  picked?: { exemplar: Exemplar; flame?: DataFrame };
  /** A novel point whose diff is open, and the diff once loaded. */
  novelDiff?: { point: NovelPoint; flame?: DataFrame };
  /** The data links of the series point clicked last. */
  links?: { at: number; links: Array<LinkModel<unknown>> };
}

export type PageAction =
  | { type: 'edited'; query: EmberscopeQuery }
  /** A run began; a live poll keeps what was picked on the series (keepPicks). */
  | { type: 'runStarted'; ran: EmberscopeQuery; range: TimeSpan; keepPicks: boolean }
  | { type: 'answered'; answer: QueryAnswer }
  | { type: 'runFailed'; error: string }
  /** A query besides the run (a picked range, exemplar or diff) failed, or none could be run. */
  | { type: 'failed'; error: string }
  | { type: 'errorDismissed' }
  | { type: 'workStarted' }
  | { type: 'workEnded' }
  | { type: 'rangeSelected'; range: TimeSpan }
  | { type: 'rangeFlameLoaded'; flame?: DataFrame }
  | { type: 'selectionCleared' }
  | { type: 'exemplarOpened'; exemplar: Exemplar }
  | { type: 'exemplarFlameLoaded'; exemplar: Exemplar; flame?: DataFrame }
  | { type: 'exemplarClosed' }
  | { type: 'novelDiffOpened'; point: NovelPoint }
  | { type: 'novelDiffLoaded'; point: NovelPoint; flame?: DataFrame }
  | { type: 'pointClicked'; at: number; links: Array<LinkModel<unknown>> };

export const EMPTY_ANSWER: QueryAnswer = { series: [], annotations: [], tables: [], frames: [] };

export function initialPageState(query: EmberscopeQuery, range: TimeSpan, error?: string): PageState {
  return { query, range, answer: EMPTY_ANSWER, error, inflight: 0 };
}

export function pageReducer(s: PageState, a: PageAction): PageState {
  switch (a.type) {
    case 'edited':
      return { ...s, query: a.query };
    case 'runStarted': {
      const next = { ...s, ran: a.ran, range: a.range, links: undefined };
      return a.keepPicks
        ? next
        : { ...next, selection: undefined, selectedFlame: undefined, novelDiff: undefined, picked: undefined };
    }
    case 'answered':
      return { ...s, answer: a.answer, error: undefined };
    case 'runFailed':
      return { ...s, answer: EMPTY_ANSWER, error: a.error };
    case 'failed':
      return { ...s, error: a.error };
    case 'errorDismissed':
      return { ...s, error: undefined };
    case 'workStarted':
      return { ...s, inflight: s.inflight + 1 };
    case 'workEnded':
      return { ...s, inflight: Math.max(0, s.inflight - 1) };
    case 'rangeSelected':
      // the previous range's flamegraph stays until the new one's comes
      return { ...s, picked: undefined, selection: a.range };
    case 'rangeFlameLoaded':
      return { ...s, selectedFlame: a.flame, error: undefined };
    case 'selectionCleared':
      return { ...s, selection: undefined, selectedFlame: undefined };
    case 'exemplarOpened':
      return { ...s, picked: { exemplar: a.exemplar }, selection: undefined };
    case 'exemplarFlameLoaded':
      return { ...s, picked: { exemplar: a.exemplar, flame: a.flame }, error: undefined };
    case 'exemplarClosed':
      return { ...s, picked: undefined };
    case 'novelDiffOpened':
      return { ...s, novelDiff: { point: a.point } };
    case 'novelDiffLoaded':
      return { ...s, novelDiff: { point: a.point, flame: a.flame }, error: undefined };
    case 'pointClicked':
      return { ...s, links: { at: a.at, links: a.links } };
  }
}

/**
 * What the page draws: the views of the query type run, and the flame area also when a range,
 * exemplar or novel point was opened on the series.
 */
export function shownViews(s: PageState): ReturnType<typeof viewsOf> & { flameArea: boolean } {
  const v = viewsOf(s.ran?.queryType ?? 'both');
  return { ...v, flameArea: v.flame || Boolean(s.selection || s.novelDiff || s.picked) };
}

/** The flamegraph shown: an open diff's, else an opened exemplar's, else a picked range's, else the run's. */
export function shownFlame(s: PageState): DataFrame | undefined {
  if (s.novelDiff) {
    return s.novelDiff.flame;
  }
  if (s.picked) {
    return s.picked.flame;
  }
  return s.selection ? s.selectedFlame : s.answer.flame;
}
