// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { useCallback, useState } from 'react';
import { defaultOptions, PanelOptions } from '../panel/options';

const PANEL_OPTIONS_KEY = 'emberscope.playground.panelOptions';

/** The panel options saved by the playground, over the defaults (bad or missing storage: the defaults). */
function loadPanelOptions(): PanelOptions {
  try {
    const raw = window.localStorage.getItem(PANEL_OPTIONS_KEY);
    return raw ? { ...defaultOptions, ...JSON.parse(raw) } : defaultOptions;
  } catch {
    return defaultOptions;
  }
}

function savePanelOptions(o: PanelOptions): void {
  try {
    window.localStorage.setItem(PANEL_OPTIONS_KEY, JSON.stringify(o));
  } catch {
    // storage full or disabled: the options live for this page only
  }
}

/** The flamegraph panel's options, kept across reloads as a saved dashboard keeps them. */
export function usePanelOptions(): [PanelOptions, (o: PanelOptions) => void] {
  const [options, setOptionsState] = useState<PanelOptions>(loadPanelOptions);
  const setOptions = useCallback((o: PanelOptions) => {
    setOptionsState(o);
    savePanelOptions(o);
  }, []);
  return [options, setOptions];
}
