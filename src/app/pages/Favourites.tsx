// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { locationService } from '@grafana/runtime';
import { Alert, IconButton, useTheme2 } from '@grafana/ui';
import { useApp } from '../context';

/** The starred services and views, each one click away; kept per user (see useFavourites). */
export function FavouritesPage() {
  const { favourites } = useApp();
  const theme = useTheme2();
  if (favourites.loaded && !favourites.list.length) {
    return (
      <Alert severity="info" title="No favourites yet" data-testid="no-favourites">
        Star a service on the Services page, or any view with “Star view”.
      </Alert>
    );
  }
  return (
    <ul data-testid="favourites" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {favourites.list.map((f) => (
        <li
          key={f.url}
          data-testid="favourite"
          style={{ display: 'flex', gap: 8, alignItems: 'center', padding: '4px 0', borderBottom: `1px solid ${theme.colors.border.weak}` }}
        >
          <IconButton name="favorite" aria-label={`Unstar ${f.title}`} onClick={() => favourites.remove(f.url)} />
          <span style={{ fontSize: 12, color: theme.colors.text.secondary }}>{f.kind}</span>
          <a
            href={f.url}
            style={{ color: theme.colors.text.link, overflowWrap: 'anywhere', minWidth: 0 }}
            onClick={(e) => {
              e.preventDefault();
              locationService.push(f.url);
            }}
          >
            {f.title}
          </a>
        </li>
      ))}
    </ul>
  );
}
