// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { useCallback, useEffect, useState } from 'react';
import { usePluginUserStorage } from '@grafana/runtime';

/** A starred service or view: what it is called and the app address that opens it. */
export interface Favourite {
  kind: 'service' | 'view';
  title: string;
  /** The app address (path and search), as writeView writes it. */
  url: string;
}

const KEY = 'favourites';

/** Reads the stored list; a value that is not a list of favourites reads as empty. */
export function parseFavourites(text: string | null | undefined): Favourite[] {
  if (!text) {
    return [];
  }
  try {
    const v = JSON.parse(text);
    return Array.isArray(v)
      ? v.filter((f) => f && typeof f.url === 'string' && typeof f.title === 'string' && (f.kind === 'service' || f.kind === 'view'))
      : [];
  } catch {
    return [];
  }
}

/**
 * The user's favourites, kept with Grafana's per-user plugin storage (`usePluginUserStorage`:
 * Grafana's user storage for a signed-in user, the browser's local storage otherwise).
 */
export function useFavourites() {
  // the hook makes a new storage object on every render: keep the first
  const fresh = usePluginUserStorage();
  const [storage] = useState(fresh);
  const [list, setList] = useState<Favourite[]>([]);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    let live = true;
    storage.getItem(KEY).then((text) => {
      if (live) {
        setList(parseFavourites(text));
        setLoaded(true);
      }
    });
    return () => {
      live = false;
    };
  }, [storage]);
  const save = useCallback(
    (next: Favourite[]) => {
      setList(next);
      return storage.setItem(KEY, JSON.stringify(next));
    },
    [storage]
  );
  const has = useCallback((url: string) => list.some((f) => f.url === url), [list]);
  const toggle = useCallback(
    (f: Favourite) => save(has(f.url) ? list.filter((x) => x.url !== f.url) : [...list, f]),
    [list, has, save]
  );
  const remove = useCallback((url: string) => save(list.filter((x) => x.url !== url)), [list, save]);
  return { list, loaded, has, toggle, remove };
}
