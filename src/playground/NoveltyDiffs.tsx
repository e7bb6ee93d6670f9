// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { css } from '@emotion/css';
import { DataFrame, dateTimeFormat } from '@grafana/data';
import { Button, useStyles2 } from '@grafana/ui';
import type { EmberscopeQuery } from '../datasource/types';

/** A novel point of a novelty answer, with the diff query its data link opens. */
export interface NovelPoint {
  /** The profile's time (ms). */
  time: number;
  title: string;
  text: string;
  /** The link's query with the row's `${__data.fields.*}` filled in, as Grafana fills them. */
  query: EmberscopeQuery;
}

const FIELD_VAR = /\$\{__data\.fields\.([A-Za-z0-9_]+)\}/g;

/** Fills `${__data.fields.<name>}` in a link's query from row `row` of frame `f`. */
export function interpolateLink(query: unknown, f: DataFrame, row: number): unknown {
  const text = JSON.stringify(query).replace(FIELD_VAR, (whole, name: string) => {
    const field = f.fields.find((x) => x.name === name);
    return field ? String(field.values[row] ?? '') : whole;
  });
  return JSON.parse(text);
}

/**
 * The novel points of a novelty answer: each annotation row matched to the score frame row
 * at its time, whose score field's data link opens the diff of the most similar earlier
 * profile against it.
 */
export function novelPointsOf(series: DataFrame[], annotations: DataFrame[]): NovelPoint[] {
  const out: NovelPoint[] = [];
  for (const a of annotations) {
    const times = a.fields.find((x) => x.name === 'time');
    const titles = a.fields.find((x) => x.name === 'title');
    const texts = a.fields.find((x) => x.name === 'text');
    for (let i = 0; i < a.length; i++) {
      const t = Number(times?.values[i]);
      for (const s of series) {
        const score = s.fields.find((x) => x.name === 'score');
        const link = score?.config.links?.[0] as { internal?: { query?: unknown } } | undefined;
        const time = s.fields.find((x) => x.type === 'time');
        const row = time ? time.values.findIndex((v) => Number(v) === t) : -1;
        if (!link?.internal?.query || row < 0) {
          continue;
        }
        out.push({
          time: t,
          title: String(titles?.values[i] ?? ''),
          text: String(texts?.values[i] ?? ''),
          query: { refId: 'diff', ...(interpolateLink(link.internal.query, s, row) as object) } as EmberscopeQuery,
        });
        break;
      }
    }
  }
  return out;
}

export interface NoveltyDiffsProps {
  points: NovelPoint[];
  /** The point whose diff is shown. */
  open?: NovelPoint;
  onOpen: (p: NovelPoint) => void;
}

/** The novel points of a novelty answer, each one click from its diff. */
export function NoveltyDiffs({ points, open, onOpen }: NoveltyDiffsProps) {
  const styles = useStyles2(getStyles);
  if (points.length === 0) {
    return null;
  }
  return (
    <ul data-testid="novel-points" className={styles.list}>
      {points.map((p) => (
        <li key={`${p.time}-${p.title}`} data-testid="novel-point" className={styles.point}>
          <strong>{dateTimeFormat(p.time, { format: 'HH:mm:ss' })}</strong> {p.title}: {p.text}{' '}
          <Button
            size="sm"
            variant={open === p ? 'primary' : 'secondary'}
            data-testid="novel-point-diff"
            onClick={() => onOpen(p)}
          >
            Diff against the most similar earlier profile
          </Button>
        </li>
      ))}
    </ul>
  );
}

const getStyles = () => ({
  list: css({ margin: 0, paddingLeft: 16, fontSize: 12 }),
  point: css({ marginBottom: 4 }),
});
