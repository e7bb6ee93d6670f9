// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef } from 'react';
import type { DataFrame } from '@grafana/data';
import { SampleFilterOptions, withSampleFilters } from '../datasource/language/sampleFilters';
import type { EmberscopeQuery } from '../datasource/types';
import type { Exemplar } from '../shared/exemplars';
import { runQuery } from './api';
import { asRun, readVariables } from './grafana';
import type { NovelPoint } from './NoveltyDiffs';
import { initialPageState, pageReducer, PageAction, PageState, TimeSpan } from './pageState';
import { startViewOf } from './startView';
import { storedQuery, writeUrl } from './url';
import { addressText, livePolling } from './views';

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Puts the view in the address; an opened Explore address becomes the playground's own (its variables kept). */
function replaceAddress(q: EmberscopeQuery, from: number, to: number): void {
  const keep = new URLSearchParams(window.location.search);
  keep.delete('panes');
  keep.delete('left');
  keep.delete('schemaVersion');
  window.history.replaceState(
    null,
    '',
    '/' + writeUrl({ query: addressText(q), from, to, full: storedQuery(q) }, keep.toString())
  );
}

/** What the page does: run, pick a range, open an exemplar or a novel point's diff, and edit. */
export interface PageActions {
  edit: (q: EmberscopeQuery) => void;
  /** Runs the editor's query over the range of the last run. */
  run: () => void;
  /** Runs the editor's query over the last `ms` up to now. */
  runLast: (ms: number) => void;
  selectRange: (from: number, to: number) => void;
  openExemplar: (e: Exemplar) => void;
  openNovelDiff: (p: NovelPoint) => void;
  dispatch: (a: PageAction) => void;
}

/**
 * The playground page's state and what changes it: the address's query run at once, runs
 * written back to the address, a live query polled every live interval (the playground has
 * no Grafana Live), and the flamegraphs of what is opened on the series.
 */
export function usePlaygroundPage(filters: SampleFilterOptions = {}): {
  state: PageState;
  variables: ReturnType<typeof readVariables>;
  actions: PageActions;
} {
  const start = useMemo(() => startViewOf(window.location.pathname, window.location.search), []);
  // the dashboard's variables (var-<name> in the address, as Grafana's dashboard URLs have them)
  const variables = useMemo(() => readVariables(window.location.search), []);
  const [state, dispatch] = useReducer(pageReducer, start, (v) =>
    initialPageState(v.query, { from: v.from, to: v.to }, v.error)
  );
  // the cascader, query type and group-by call onChange then onRunQuery at once: run the latest
  const latest = useRef(state.query);
  const range = useRef<TimeSpan>(state.range);
  // runs may overlap (a live poll and a Run); only the newest one's answer is shown
  const seq = useRef(0);
  // the panel's ignore and hide, written into each flamegraph query as it is sent
  const sampleFilters = useRef(filters);
  useLayoutEffect(() => {
    sampleFilters.current = filters;
  });

  const track = useCallback(async <T>(work: () => Promise<T>): Promise<T> => {
    dispatch({ type: 'workStarted' });
    try {
      return await work();
    } finally {
      dispatch({ type: 'workEnded' });
    }
  }, []);

  /** Runs q over [from, to] (a live query over its window up to now) and shows the answer. */
  const execute = useCallback(
    async (q: EmberscopeQuery, from: number, to: number, keepPicks = false) => {
      if (!q.expr?.trim() && !q.profileTypeId) {
        dispatch({ type: 'failed', error: 'Choose a profile type or type a query' });
        return;
      }
      if (q.live) {
        to = Date.now();
        from = to - livePolling(q).window;
      }
      const mine = ++seq.current;
      range.current = { from, to };
      replaceAddress(q, from, to);
      // run as Grafana runs it: the dashboard's variables (and its range) replaced
      const ran = asRun(q, { variables, from, to });
      dispatch({ type: 'runStarted', ran, range: { from, to }, keepPicks });
      await track(async () => {
        try {
          const answer = await runQuery(filtered(ran, sampleFilters.current), from, to);
          if (mine === seq.current) {
            dispatch({ type: 'answered', answer });
          }
        } catch (e) {
          if (mine === seq.current) {
            dispatch({ type: 'runFailed', error: messageOf(e) });
          }
        }
      });
    },
    [track, variables]
  );

  useEffect(() => {
    if (start.runAtOnce) {
      execute(latest.current, start.from, start.to);
    }
  }, [start, execute]);

  // new ignore or hide in the panel: the shown flamegraph's query again, with them
  const { ignore, hide } = filters;
  const filtersSeen = useRef({ ignore, hide });
  useEffect(() => {
    const seen = filtersSeen.current;
    if (seen.ignore === ignore && seen.hide === hide) {
      return;
    }
    filtersSeen.current = { ignore, hide };
    if (state.ran && flameQuery(state.ran)) {
      execute(latest.current, range.current.from, range.current.to, true);
    }
  }, [ignore, hide, state.ran, execute]);

  const { ran } = state;
  const liveEvery = ran?.live ? livePolling(ran).every : 0;
  useEffect(() => {
    if (!ran?.live || !liveEvery) {
      return;
    }
    const id = window.setInterval(() => execute(ran, 0, 0, true), liveEvery);
    return () => window.clearInterval(id);
  }, [ran, liveEvery, execute]);

  /** Loads the flamegraph of q over [from, to] for one of the things opened on the series. */
  const loadFlame = useCallback(
    (q: EmberscopeQuery, from: number, to: number, loaded: (flame?: DataFrame) => PageAction) =>
      track(async () => {
        try {
          const a = await runQuery(q, from, to);
          dispatch(loaded(a.flame));
        } catch (e) {
          dispatch({ type: 'failed', error: messageOf(e) });
        }
      }),
    [track]
  );

  const edit = useCallback((q: EmberscopeQuery) => {
    latest.current = q;
    dispatch({ type: 'edited', query: q });
  }, []);
  const run = useCallback(() => execute(latest.current, range.current.from, range.current.to), [execute]);
  const runLast = useCallback(
    (ms: number) => {
      const to = Date.now();
      execute(latest.current, to - ms, to);
    },
    [execute]
  );

  const actions = useMemo((): PageActions => {
    // what is opened on the series is of the query as run
    const base = () => ran ?? latest.current;
    return {
      edit,
      run,
      runLast,
      selectRange: (from, to) => {
        dispatch({ type: 'rangeSelected', range: { from, to } });
        loadFlame({ ...base(), queryType: 'profile', live: undefined }, from, to, (flame) => ({
          type: 'rangeFlameLoaded',
          flame,
        }));
      },
      // an exemplar's flamegraph: that one profile (profileIdSelector), or that span's samples
      openExemplar: (exemplar) => {
        dispatch({ type: 'exemplarOpened', exemplar });
        const { live: _live, spanSelector: _spans, profileIdSelector: _ids, ...rest } = base();
        const q: EmberscopeQuery = {
          ...rest,
          queryType: 'profile',
          ...(exemplar.kind === 'span' ? { spanSelector: [exemplar.id] } : { profileIdSelector: [exemplar.id] }),
        };
        loadFlame(q, range.current.from, range.current.to, (flame) => ({
          type: 'exemplarFlameLoaded',
          exemplar,
          flame,
        }));
      },
      // a novel point's diff against its most similar earlier profile
      openNovelDiff: (point) => {
        dispatch({ type: 'novelDiffOpened', point });
        loadFlame(point.query, range.current.from, range.current.to, (flame) => ({
          type: 'novelDiffLoaded',
          point,
          flame,
        }));
      },
      dispatch,
    };
  }, [ran, edit, run, runLast, loadFlame]);

  return { state, variables, actions };
}

/** Whether q's answer has a flamegraph that the panel's ignore and hide apply to. */
function flameQuery(q: EmberscopeQuery): boolean {
  return !q.queryType || q.queryType === 'profile' || q.queryType === 'both';
}

/** q with the panel's ignore and hide in its expression, when it is a flamegraph query written as text. */
function filtered(q: EmberscopeQuery, f: SampleFilterOptions): EmberscopeQuery {
  if (!flameQuery(q) || !q.expr?.trim() || (!f.ignore && !f.hide)) {
    return q;
  }
  return { ...q, expr: withSampleFilters(q.expr, f) };
}
