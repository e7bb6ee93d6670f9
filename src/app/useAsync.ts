// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { DependencyList, useEffect, useState } from 'react';

/** The state of an async load: its value, whether it is running, and its error's message. */
export interface AsyncState<T> {
  value?: T;
  loading: boolean;
  error?: string;
}

/** Runs load whenever deps change; an older run's answer never replaces a newer one's. */
export function useAsync<T>(load: () => Promise<T> | undefined, deps: DependencyList): AsyncState<T> {
  const [state, setState] = useState<AsyncState<T>>({ loading: false });
  useEffect(() => {
    let live = true;
    const p = load();
    // state changes only from callbacks, never synchronously in the effect
    queueMicrotask(() => live && setState((s) => (p ? { value: s.value, loading: true } : { loading: false })));
    if (!p) {
      return () => {
        live = false;
      };
    }
    p.then(
      (value) => live && setState({ value, loading: false }),
      (e) => live && setState({ loading: false, error: e instanceof Error ? e.message : String(e?.data?.message ?? e?.message ?? e) })
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return state;
}
