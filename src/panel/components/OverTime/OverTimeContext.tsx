// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { createContext, ReactNode, useContext, useMemo, useState } from 'react';
import { OverTimeModal } from './OverTimeModal';
import { OverTimeSource } from './overTimeQuery';

/** Opens "Show over time" of a call path; absent where the panel's query cannot be asked for one. */
export interface OverTimeOpener {
  open: (path: string[]) => void;
}

const Ctx = createContext<OverTimeOpener | undefined>(undefined);

/** The surrounding panel's "Show over time", if it has one. */
export function useOverTimeOpener(): OverTimeOpener | undefined {
  return useContext(Ctx);
}

/** Gives the views inside "Show over time" and shows its modal above them. */
export function OverTimeProvider({ source, children }: { source?: OverTimeSource; children: ReactNode }) {
  const [path, setPath] = useState<string[]>();
  const opener = useMemo(() => (source ? { open: setPath } : undefined), [source]);
  return (
    <Ctx.Provider value={opener}>
      {children}
      {source && path && <OverTimeModal source={source} path={path} onClose={() => setPath(undefined)} />}
    </Ctx.Provider>
  );
}

/**
 * Takes "Show over time" away from the views inside: a graph whose paths do not start at the
 * root (the inverted view) names no call site a server can select.
 */
export function OverTimeOff({ off, children }: { off: boolean; children: ReactNode }) {
  const outer = useContext(Ctx);
  return <Ctx.Provider value={off ? undefined : outer}>{children}</Ctx.Provider>;
}
