// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { createContext, useContext } from 'react';
import { TimeRange, dateMath, dateTime, DateTime } from '@grafana/data';
import type { ProfileTypeInfo } from '../datasource/resources/client';
import type { EmberscopeDs } from './query';
import type { ViewState } from './state';
import type { useFavourites } from './favourites';

/** What every page gets: the view (from the address), the datasource, the resolved range. */
export interface AppState {
  view: ViewState;
  /** Opens a view: the current one with patch applied (pushed to the history unless replace). */
  go: (patch: Partial<ViewState>, replace?: boolean) => void;
  /** The address of the current view with patch applied. */
  href: (patch: Partial<ViewState>) => string;
  ds?: EmberscopeDs;
  range: TimeRange;
  types: ProfileTypeInfo[];
  /** The profile type shown (the view's, else the default). */
  type: string;
  favourites: ReturnType<typeof useFavourites>;
  /** Bumped by the refresh button: pages re-run their queries. */
  refresh: number;
}

export const AppContext = createContext<AppState | undefined>(undefined);

export function useApp(): AppState {
  const s = useContext(AppContext);
  if (!s) {
    throw new Error('useApp outside the Emberscope app root');
  }
  return s;
}

function parseTime(raw: string, roundUp: boolean): DateTime | undefined {
  if (/^\d+$/.test(raw)) {
    return dateTime(Number(raw));
  }
  const t = dateMath.parse(raw, roundUp);
  return t?.isValid() ? t : undefined;
}

/** Grafana's time range for the address's raw `from`/`to` (epoch ms or `now-1h`); bad values fall back to the last hour. */
export function resolveRange(from: string, to: string): TimeRange {
  let f = parseTime(from, false);
  let t = parseTime(to, true);
  if (!f || !t || f.valueOf() >= t.valueOf()) {
    t = dateTime();
    f = dateTime(t.valueOf() - 3_600_000);
    return { from: f, to: t, raw: { from: 'now-1h', to: 'now' } };
  }
  return { from: f, to: t, raw: { from, to } };
}

export const Provider = ({ value, children }: { value: AppState; children: React.ReactNode }) => (
  <AppContext.Provider value={value}>{children}</AppContext.Provider>
);
