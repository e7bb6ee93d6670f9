// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { useCallback } from 'react';
import { KeptAnswerEvent, useKeptAnswer } from '../useKeptAnswer';
import { openSandwichName, ViewAction, ViewState } from '../state';
import { FetchedSandwich, fetchedSandwichOf, SandwichFetcher } from './fetchedSandwich';

/** Asks for one function's sandwich and reads the answer. */
function askSandwich(fetcher: SandwichFetcher, name: string): Promise<FetchedSandwich> {
  return fetcher(name).then((frames) => fetchedSandwichOf(name, frames));
}

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
  const name = fetcher && profileCut ? openSandwichName(state) : undefined;
  const key = name !== undefined && state.sandwichFetched?.name !== name ? name : undefined;

  const report = useCallback(
    (name: string, e: KeptAnswerEvent<FetchedSandwich>) => {
      if (e.kind === 'asking') {
        act({ type: 'sandwichFetching', name });
      } else if (e.kind === 'answered') {
        act({ type: 'sandwichFetched', fetched: e.answer });
      } else {
        act({ type: 'sandwichFailed', name, error: e.message });
      }
    },
    [act]
  );
  useKeptAnswer(key, data, fetcher, askSandwich, report);
}
