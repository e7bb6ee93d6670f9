// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { locationService } from '@grafana/runtime';
import { Alert, IconButton, useStyles2 } from '@grafana/ui';
import { useApp } from '../context';

/** The starred services and views, each one click away; kept per user (see useFavourites). */
export function FavouritesPage() {
  const { favourites } = useApp();
  const styles = useStyles2(getStyles);
  if (favourites.loaded && !favourites.list.length) {
    return (
      <Alert severity="info" title="No favourites yet" data-testid="no-favourites">
        Star a service on the Services page, or any view with “Star view”.
      </Alert>
    );
  }
  return (
    <ul data-testid="favourites" className={styles.list}>
      {favourites.list.map((f) => (
        <li key={f.url} data-testid="favourite" className={styles.item}>
          <IconButton name="favorite" aria-label={`Unstar ${f.title}`} onClick={() => favourites.remove(f.url)} />
          <span className={styles.kind}>{f.kind}</span>
          <a
            href={f.url}
            className={styles.link}
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

const getStyles = (theme: GrafanaTheme2) => ({
  list: css({ listStyle: 'none', margin: 0, padding: 0 }),
  item: css({
    display: 'flex',
    gap: theme.spacing(1),
    alignItems: 'center',
    padding: theme.spacing(0.5, 0),
    borderBottom: `1px solid ${theme.colors.border.weak}`,
  }),
  kind: css({ fontSize: 12, color: theme.colors.text.secondary }),
  link: css({ color: theme.colors.text.link, overflowWrap: 'anywhere', minWidth: 0 }),
});
