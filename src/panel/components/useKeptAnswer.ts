// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { useEffect, useRef } from 'react';

/** How the asking of a kept answer went: started, answered, or failed with a message. */
export type KeptAnswerEvent<T> =
  { kind: 'asking' } | { kind: 'answered'; answer: T } | { kind: 'failed'; message: string };

/**
 * Asks `fetcher` for the answer of `key` (undefined: nothing wanted) and reports each step. Answers
 * are kept per key until the profile (`data`) or the fetcher changes, so asking for a key again
 * asks nothing; a failure is not kept, so the next time asks again. An answer that comes after
 * the key moved on is not reported. `ask` and `report` must be stable (module functions or
 * callbacks of stable values).
 */
export function useKeptAnswer<F, T>(
  key: string | undefined,
  data: unknown,
  fetcher: F | undefined,
  ask: (fetcher: F, key: string) => Promise<T>,
  report: (key: string, event: KeptAnswerEvent<T>) => void
) {
  const kept = useRef<{ data?: unknown; fetcher?: F; answers: Map<string, Promise<T>> }>({ answers: new Map() });

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
      answer = ask(fetcher, key);
      answers.set(key, answer);
      answer.catch(() => answers.delete(key));
    }
    const left = new AbortController();
    report(key, { kind: 'asking' });
    answer.then(
      (a) => !left.signal.aborted && report(key, { kind: 'answered', answer: a }),
      (e) =>
        !left.signal.aborted && report(key, { kind: 'failed', message: e instanceof Error ? e.message : String(e) })
    );
    return () => left.abort();
  }, [key, data, fetcher, ask, report]);
}
