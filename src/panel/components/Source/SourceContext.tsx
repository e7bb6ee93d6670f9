// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { createContext, ReactNode, useContext, useMemo, useState } from 'react';
import { SourceTarget } from './sourceApi';
import { SourceModal } from './SourceModal';

/** Opens the source view of a function; absent where the panel's query names no datasource. */
export interface SourceOpener {
  open: (fn: string) => void;
}

const Ctx = createContext<SourceOpener | undefined>(undefined);

/** The source opener of the surrounding panel, if it has one. */
export function useSourceOpener(): SourceOpener | undefined {
  return useContext(Ctx);
}

/** Gives the views inside a way to open a function's source, and shows it above them. */
export function SourceProvider({ target, children }: { target?: SourceTarget; children: ReactNode }) {
  const [fn, setFn] = useState<string>();
  const opener = useMemo(() => (target ? { open: setFn } : undefined), [target]);
  return (
    <Ctx.Provider value={opener}>
      {children}
      {target && fn && <SourceModal target={target} fn={fn} onClose={() => setFn(undefined)} />}
    </Ctx.Provider>
  );
}
