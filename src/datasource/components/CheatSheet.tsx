// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2, QueryEditorHelpProps } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';
import { EmberscopeQuery } from '../types';
import { FUNCTIONS } from '../language/functions';

const CPU = 'process_cpu:cpu:nanoseconds:cpu:nanoseconds';

/** Example query texts, one per feature of the language. */
export const EXAMPLES: Array<{ title: string; expr: string }> = [
  { title: 'A service’s CPU', expr: `${CPU}{service_name="ride-share-app"}` },
  {
    title: 'One base frame per region (a series per region in Metric)',
    expr: `${CPU}{service_name="ride-share-app"} by (region)`,
  },
  {
    title: 'Frames from labels, a value split on "::"',
    expr: `frames_from_label(${CPU}{service_name="ride-share-app"}, "category", sep="::")`,
  },
  {
    title: 'Callers of the functions matching a pattern',
    expr: `focus(${CPU}{service_name="ride-share-app"}, "json\\\\.")`,
  },
  {
    title: 'Without the runtime’s frames',
    expr: `drop_frames(${CPU}{service_name="ride-share-app"}, "^runtime\\\\.")`,
  },
  { title: 'Leaf functions first', expr: `reverse(${CPU}{service_name="ride-share-app"})` },
  { title: 'At most 12 frames deep', expr: `truncate(${CPU}{service_name="ride-share-app"}, 12)` },
];

/** Explore's cheat sheet: the query language by example; clicking one puts it in the query text. */
export function CheatSheet({ query, onClickExample }: QueryEditorHelpProps<EmberscopeQuery>) {
  const styles = useStyles2(getStyles);
  return (
    <div>
      <h2>Emberscope cheat sheet</h2>
      <p>
        The query text is a selector, optionally with <code>by (labels)</code> and wrapped in functions. When it is set
        it is used instead of the profile type, label selector and group-by fields.
      </p>
      {EXAMPLES.map((ex) => (
        <div key={ex.expr} className={styles.example}>
          <div className={styles.title}>{ex.title}</div>
          <button
            type="button"
            className={styles.expr}
            onClick={() => onClickExample({ ...query, expr: ex.expr })}
            aria-label={`Use example: ${ex.title}`}
          >
            {ex.expr}
          </button>
        </div>
      ))}
      <h3>Functions</h3>
      <ul>
        {FUNCTIONS.map((f) => (
          <li key={f.name}>
            <code>{f.signature}</code>: {f.doc}
          </li>
        ))}
      </ul>
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  example: css({ marginBottom: theme.spacing(2) }),
  title: css({ fontWeight: theme.typography.fontWeightMedium, marginBottom: theme.spacing(0.5) }),
  expr: css({
    display: 'block',
    width: '100%',
    textAlign: 'left',
    fontFamily: theme.typography.fontFamilyMonospace,
    padding: theme.spacing(1),
    background: theme.colors.background.secondary,
    border: `1px solid ${theme.colors.border.weak}`,
    borderRadius: theme.shape.radius.default,
    cursor: 'pointer',
    '&:hover': { borderColor: theme.colors.border.strong },
  }),
});
