// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { createDataFrame, FieldType } from '@grafana/data';
import type { EmberscopeQuery } from '../datasource/types';
import type { Exemplar } from '../shared/exemplars';
import type { NovelPoint } from './NoveltyDiffs';
import {
  EMPTY_ANSWER,
  initialPageState,
  PageAction,
  pageReducer,
  PageState,
  shownFlame,
  shownViews,
} from './pageState';

const flame = (name: string) =>
  createDataFrame({
    name,
    fields: [
      { name: 'level', type: FieldType.number, values: [0] },
      { name: 'label', type: FieldType.string, values: ['total'] },
    ],
  });
const query = (queryType: EmberscopeQuery['queryType']): EmberscopeQuery => ({ refId: 'A', queryType, expr: 'cpu{}' });
const exemplar: Exemplar = { time: 1500, value: 3, id: 'p1', kind: 'profile' };
const point: NovelPoint = { time: 1700, title: 'Novel profile', text: '', query: query('diff') };

const apply = (s: PageState, ...actions: PageAction[]) => actions.reduce(pageReducer, s);

/** A page that ran a "both" query and got its flamegraph. */
const answered = () =>
  apply(
    initialPageState(query('both'), { from: 1000, to: 2000 }),
    { type: 'runStarted', ran: query('both'), range: { from: 1000, to: 2000 }, keepPicks: false },
    { type: 'answered', answer: { ...EMPTY_ANSWER, flame: flame('run') } }
  );

describe('playground page state', () => {
  it("shows the run's flamegraph, a picked range's once it comes, and the whole range again when cleared", () => {
    let s = answered();
    expect(shownFlame(s)?.name).toBe('run');
    s = apply(s, { type: 'rangeSelected', range: { from: 1200, to: 1300 } });
    expect(shownFlame(s)).toBeUndefined();
    s = apply(s, { type: 'rangeFlameLoaded', flame: flame('range') });
    expect(shownFlame(s)?.name).toBe('range');
    s = apply(s, { type: 'selectionCleared' });
    expect(shownFlame(s)?.name).toBe('run');
  });

  it('shows an open diff over an opened exemplar, and an opened exemplar instead of a picked range', () => {
    let s = apply(
      answered(),
      { type: 'rangeSelected', range: { from: 1200, to: 1300 } },
      { type: 'rangeFlameLoaded', flame: flame('range') },
      { type: 'exemplarOpened', exemplar },
      { type: 'exemplarFlameLoaded', exemplar, flame: flame('exemplar') }
    );
    expect(s.selection).toBeUndefined();
    expect(shownFlame(s)?.name).toBe('exemplar');
    s = apply(s, { type: 'novelDiffOpened', point }, { type: 'novelDiffLoaded', point, flame: flame('diff') });
    expect(shownFlame(s)?.name).toBe('diff');
    // picking a range closes the exemplar
    s = apply(
      answered(),
      { type: 'exemplarOpened', exemplar },
      { type: 'rangeSelected', range: { from: 1200, to: 1300 } }
    );
    expect(s.picked).toBeUndefined();
  });

  it('closes what was opened on the series on a new run, and keeps it open across live polls', () => {
    const opened = apply(
      answered(),
      { type: 'exemplarOpened', exemplar },
      { type: 'novelDiffOpened', point },
      { type: 'pointClicked', at: 1500, links: [{ title: 'Explore', href: '/explore', target: '_self', origin: {} }] }
    );
    const poll = apply(opened, {
      type: 'runStarted',
      ran: query('both'),
      range: { from: 1100, to: 2100 },
      keepPicks: true,
    });
    expect([poll.picked?.exemplar.id, poll.novelDiff?.point.time, poll.range]).toEqual([
      'p1',
      1700,
      { from: 1100, to: 2100 },
    ]);
    expect(poll.links).toBeUndefined();
    const rerun = apply(opened, {
      type: 'runStarted',
      ran: query('both'),
      range: { from: 1000, to: 2000 },
      keepPicks: false,
    });
    expect([rerun.picked, rerun.novelDiff, rerun.selection]).toEqual([undefined, undefined, undefined]);
  });

  it("empties the answer when the run fails, and keeps it when an opened flamegraph's query fails", () => {
    const s = apply(answered(), { type: 'failed', error: 'profile not found' });
    expect([s.error, shownFlame({ ...s, picked: undefined })?.name]).toEqual(['profile not found', 'run']);
    const f = apply(answered(), { type: 'runFailed', error: 'bad query' });
    expect([f.error, f.answer]).toEqual(['bad query', EMPTY_ANSWER]);
    expect(apply(f, { type: 'errorDismissed' }).error).toBeUndefined();
    expect(apply(f, { type: 'answered', answer: EMPTY_ANSWER }).error).toBeUndefined();
  });

  it('counts the queries out, for the Run button', () => {
    const s = apply(answered(), { type: 'workStarted' }, { type: 'workStarted' }, { type: 'workEnded' });
    expect(s.inflight).toBe(1);
    expect(apply(s, { type: 'workEnded' }).inflight).toBe(0);
  });

  it('shows the flame area for a series query only when something on the series was opened', () => {
    const metrics = apply(initialPageState(query('metrics'), { from: 1000, to: 2000 }), {
      type: 'runStarted',
      ran: query('metrics'),
      range: { from: 1000, to: 2000 },
      keepPicks: false,
    });
    expect(shownViews(metrics)).toEqual({ series: true, flame: false, table: false, flameArea: false });
    const opened = apply(metrics, { type: 'rangeSelected', range: { from: 1200, to: 1300 } });
    // the colour mode and table switch stay with the query type
    expect(shownViews(opened)).toEqual({ series: true, flame: false, table: false, flameArea: true });
  });
});
