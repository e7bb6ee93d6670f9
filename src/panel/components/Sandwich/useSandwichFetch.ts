// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { useEffect, useRef } from 'react';
import { FlameData } from '../../../shared/flameData';
import { openSandwichName, ViewAction, ViewState } from '../state';
import { FetchedSandwich, fetchedSandwichOf, SandwichFetcher } from './fetchedSandwich';

/**
 * When a sandwich opens on a graph cut at maxNodes (its function's calls may be folded into
 * `other`, under it or above it), asks for the function's sandwich merged from the
 * full-resolution profile and hands the answer to the view. Answers are kept per function until
 * the profile changes, so reopening one asks nothing; closing asks nothing.
 */
export function useSandwichFetch(
  state: Pick<ViewState, 'data' | 'fetched' | 'sandwich' | 'sandwichFetched'>,
  profileCut: boolean,
  fetcher: SandwichFetcher | undefined,
  act: (a: ViewAction) => void
) {
  const { data } = state;
  const kept = useRef<{ data?: FlameData; fetcher?: SandwichFetcher; answers: Map<string, Promise<FetchedSandwich>> }>({
    answers: new Map(),
  });
  const name = fetcher && profileCut ? openSandwichName(state) : undefined;
  const key = name !== undefined && state.sandwichFetched?.name !== name ? name : undefined;

  useEffect(() => {
    if (key === undefined || !fetcher) {
      return;
    }
    if (kept.current.data !== data || kept.current.fetcher !== fetcher) {
      kept.current = { data, fetcher, answers: new Map() };
    }
    const { answers } = kept.current;
    let answer = answers.get(key);
    if (!answer) {
      answer = fetcher(key).then((frames) => fetchedSandwichOf(key, frames));
      answers.set(key, answer);
      // a failure is not kept: the next opening asks again
      answer.catch(() => answers.delete(key));
    }
    const left = new AbortController();
    act({ type: 'sandwichFetching', name: key });
    answer.then(
      (f) => !left.signal.aborted && act({ type: 'sandwichFetched', fetched: f }),
      (e) =>
        !left.signal.aborted &&
        act({ type: 'sandwichFailed', name: key, error: e instanceof Error ? e.message : String(e) })
    );
    return () => left.abort();
  }, [key, data, fetcher, act]);
}
