// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { createContext, ReactNode, useContext, useMemo } from 'react';
import { trackUrl } from '../../app/rules';

/** What a new rule is prefilled with besides the function: the panel's datasource and query. */
export interface TrackTarget {
  datasourceUid: string;
  profileTypeId?: string;
  labelSelector?: string;
  expr?: string;
}

/** The app's address of a new rule for a function; absent where the panel's query names no datasource. */
type TrackLink = (fn: string) => string;

const Ctx = createContext<TrackLink | undefined>(undefined);

/** The "Track as a metric" link of the surrounding panel, if it has a datasource. */
export function useTrackLink(): TrackLink | undefined {
  return useContext(Ctx);
}

/** The profile type and selector of a query: its fields, else read from its expression (`type{…} …`). */
export function querySelection(t: TrackTarget): { profileType?: string; selector?: string } {
  if (t.profileTypeId) {
    return { profileType: t.profileTypeId, selector: t.labelSelector };
  }
  const m = /^\s*([^{\s]+)\s*(\{(?:[^"}]|"(?:[^"\\]|\\.)*")*\})?/.exec(t.expr ?? '');
  return m ? { profileType: m[1], selector: m[2] } : {};
}

/**
 * Gives the flame graph's context menu "Track as a metric": a link to the app's Rules page with a
 * new rule's form prefilled (the function, the query's profile type and selector). Every host
 * serves the app at that address (Grafana, and the playground too), so the link is a plain one.
 */
export function TrackMetricProvider({ target, children }: { target?: TrackTarget; children: ReactNode }) {
  const link = useMemo<TrackLink | undefined>(() => {
    if (!target) {
      return undefined;
    }
    const { profileType, selector } = querySelection(target);
    return (fn: string) => trackUrl({ ds: target.datasourceUid, profileType, selector, fn });
  }, [target]);
  return <Ctx.Provider value={link}>{children}</Ctx.Provider>;
}
