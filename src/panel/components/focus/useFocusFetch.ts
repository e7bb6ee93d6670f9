// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { useCallback } from 'react';
import { DataFrame } from '@grafana/data';
import { readFlameData } from '../../../shared/flameData';
import { KeptAnswerEvent, useKeptAnswer } from '../useKeptAnswer';
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

/** Asks for one call path (the key is the path as JSON) and reads the answer. */
function askFocus(fetcher: CallSiteFetcher, key: string): Promise<FetchedFocus> {
  const path: string[] = JSON.parse(key);
  return fetcher(path).then((frame) => fetchedFocusOf(path, frame));
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
  const shown = fetched?.data ?? data;
  const cut = fetched ? fetched.cut : profileCut;
  const wanted = fetcher && cut && focus > 0 && cutUnder(shown, focus);
  const path = wanted ? pathOf(shown, focus) : undefined;
  const key =
    path && !(fetched && JSON.stringify(fetched.path) === JSON.stringify(path)) ? JSON.stringify(path) : undefined;

  const report = useCallback(
    (key: string, e: KeptAnswerEvent<FetchedFocus>) => {
      const path: string[] = JSON.parse(key);
      if (e.kind === 'asking') {
        act({ type: 'focusFetching', path });
      } else if (e.kind === 'answered') {
        act({ type: 'focusFetched', fetched: e.answer });
      } else {
        act({ type: 'focusFailed', path, error: e.message });
      }
    },
    [act]
  );
  useKeptAnswer(key, data, fetcher, askFocus, report);
}
