// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { useCallback, useMemo, useState } from 'react';
import { FlameData } from '../../../shared/flameData';
import { reshapeProfile } from '../../model/shownProfile';
import { ViewOptions } from '../../types';
import { SampleFilterChoices } from './SampleFilterControls';

const KEYS = ['ignore', 'hide', 'relative', 'inverted'] as const;

/**
 * The profile the view draws: the host's, with the panel's ignore, hide, relative and inverted
 * options applied (model/shownProfile). The header's changes to those options are kept here too,
 * for hosts that do not save options, and handed on to the host's onOptionsChange.
 */
export function useShownProfile(
  data: FlameData,
  options: ViewOptions,
  onOptionsChange?: (changed: Partial<ViewOptions>) => void
) {
  const [local, setLocal] = useState<Partial<ViewOptions>>({});
  const o = { ...options, ...local };
  const ignore = o.ignore ?? '';
  const hide = o.hide ?? '';
  const relative = o.relative ?? false;
  const inverted = o.inverted ?? false;
  const shown = useMemo(
    () => reshapeProfile(data, { ignore, hide, relative, inverted }),
    [data, ignore, hide, relative, inverted]
  );
  const save = useCallback(
    (changed: Partial<ViewOptions>) => {
      const mine: Partial<ViewOptions> = {};
      for (const k of KEYS) {
        if (k in changed) {
          Object.assign(mine, { [k]: changed[k] });
        }
      }
      if (Object.keys(mine).length > 0) {
        setLocal((l) => ({ ...l, ...mine }));
      }
      onOptionsChange?.(changed);
    },
    [onOptionsChange]
  );
  const choices: SampleFilterChoices = { ignore, hide, relative, inverted, error: shown.error };
  return { data: shown.data, table: shown.table, choices, onOptionsChange: save };
}
