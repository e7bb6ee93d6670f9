// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { useEffect, useRef } from 'react';
import { DataFrame } from '@grafana/data';
import { FlameData, readFlameData } from '../../../shared/flameData';
import type { ViewAction, ViewState } from '../state';
import { againstWhole, callSiteMeta, cutUnder, FetchedFocus, frameIsCut, pathOf } from './callSitePath';

/**
 * Asks the backend for the flamegraph of one call path (the query as run, with `callSite` set) and
 * answers its flamegraph frame. The panel makes one from its own request; the app and the
 * playground from the query their page ran.
 */
export type CallSiteFetcher = (path: string[]) => Promise<DataFrame>;

/** The frame of a call site read, checked to be focused, and raised to the whole graph's total. */
export function fetchedFocusOf(path: string[], frame: DataFrame): FetchedFocus {
  const meta = callSiteMeta(frame);
  if (!meta) {
    throw new Error('the datasource answered the whole graph: it does not select call sites');
  }
  return {
    path,
    data: againstWhole(readFlameData(frame), meta.wholeTotal, callSiteMeta(frame, 'comparisonCallSite')?.wholeTotal),
    selectedBy: meta.selectedBy,
    cut: frameIsCut(frame),
  };
}

/**
 * When the zoomed node of a graph cut at maxNodes lost detail to the cut (an `other` node under
 * it), asks for its call site at full resolution and hands the answer to the view. Answers are
 * kept per call path until the profile changes, so zooming back to one asks nothing.
 */
export function useFocusFetch(
  state: Pick<ViewState, 'data' | 'fetched' | 'focus'>,
  profileCut: boolean,
  fetcher: CallSiteFetcher | undefined,
  act: (a: ViewAction) => void
) {
  const { data, fetched, focus } = state;
  const kept = useRef<{ data?: FlameData; fetcher?: CallSiteFetcher; answers: Map<string, Promise<FetchedFocus>> }>({
    answers: new Map(),
  });
  const shown = fetched?.data ?? data;
  const cut = fetched ? fetched.cut : profileCut;
  const wanted = fetcher && cut && focus > 0 && cutUnder(shown, focus);
  const path = wanted ? pathOf(shown, focus) : undefined;
  const key =
    path && !(fetched && JSON.stringify(fetched.path) === JSON.stringify(path)) ? JSON.stringify(path) : undefined;

  useEffect(() => {
    if (key === undefined || !fetcher) {
      return;
    }
    const asked: string[] = JSON.parse(key);
    if (kept.current.data !== data || kept.current.fetcher !== fetcher) {
      kept.current = { data, fetcher, answers: new Map() };
    }
    const { answers } = kept.current;
    let answer = answers.get(key);
    if (!answer) {
      answer = fetcher(asked).then((frame) => fetchedFocusOf(asked, frame));
      answers.set(key, answer);
      // a failure is not kept: the next zoom there asks again
      answer.catch(() => answers.delete(key));
    }
    // an answer that comes after the zoom moved on is not the view's any more
    const left = new AbortController();
    act({ type: 'focusFetching', path: asked });
    answer.then(
      (f) => !left.signal.aborted && act({ type: 'focusFetched', fetched: f }),
      (e) =>
        !left.signal.aborted &&
        act({ type: 'focusFailed', path: asked, error: e instanceof Error ? e.message : String(e) })
    );
    return () => left.abort();
  }, [key, data, fetcher, act]);
}
