// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { useCallback, useRef, useState } from 'react';
import { SelectableValue } from '@grafana/data';

/** Options of a Select loaded when its menu opens, with loading and error states. */
export function useLazyOptions(load: () => Promise<string[]>) {
  const [options, setOptions] = useState<Array<SelectableValue<string>>>([]);
  const [isLoading, setLoading] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const seq = useRef(0);
  const onOpenMenu = useCallback(() => {
    const mine = ++seq.current;
    setLoading(true);
    load().then(
      (values) => {
        if (mine === seq.current) {
          setOptions(values.map((v) => ({ label: v, value: v })));
          setError(undefined);
          setLoading(false);
        }
      },
      (e: unknown) => {
        if (mine === seq.current) {
          setError(e instanceof Error ? e.message : String(e));
          setLoading(false);
        }
      }
    );
  }, [load]);
  return { options, isLoading, onOpenMenu, error };
}
