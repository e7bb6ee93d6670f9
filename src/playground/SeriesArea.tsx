// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useMemo, useRef } from 'react';
import { css, cx } from '@emotion/css';
import { dateTimeFormat, GrafanaTheme2, LinkModel } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';
import type { EmberscopeQuery } from '../datasource/types';
import { useElementSize } from '../panel/components/useElementSize';
import { exemplarsOf, Exemplar } from '../shared/exemplars';
import type { QueryAnswer } from './api';
import { GrafanaPanelBox } from './GrafanaPanelBox';
import { linkedSeries, pointLinks, readVariables } from './grafana';
import type { TimeSpan } from './pageState';
import { SeriesGraph } from './SeriesGraph';
import { markersOf } from './seriesData';

/** Height (px) of the graph's plot; the box adds room for its legend. */
const SERIES_HEIGHT = 160;
const LEGEND_ROOM = 64;

export interface SeriesAreaProps {
  /** Whether the query type draws series; the box stays mounted (hidden) otherwise, so its size is known. */
  shown: boolean;
  answer: QueryAnswer;
  /** The last query run, whose datasource links the series carry. */
  ran?: EmberscopeQuery;
  variables: ReturnType<typeof readVariables>;
  range: TimeSpan;
  selection?: TimeSpan;
  onSelect: (from: number, to: number) => void;
  onExemplar: (e: Exemplar) => void;
  /** The data links of the series point clicked last. */
  links?: { at: number; links: Array<LinkModel<unknown>> };
  onPointLinks: (at: number, links: Array<LinkModel<unknown>>) => void;
}

/** The series graph in a Grafana panel box, with the links of a clicked point under it. */
export function SeriesArea(props: SeriesAreaProps) {
  const { shown, answer, ran, variables, range, links } = props;
  const styles = useStyles2(getStyles);
  const box = useRef<HTMLDivElement>(null);
  const size = useElementSize(box);
  const markers = useMemo(() => markersOf(answer.annotations), [answer.annotations]);
  const exemplars = useMemo(() => exemplarsOf(answer.annotations), [answer.annotations]);
  // the series as a Grafana panel holds them: with the datasource's links, configured by @grafana/data
  const series = useMemo(
    () =>
      ran
        ? linkedSeries(
            answer.series,
            ran,
            { variables, from: range.from, to: range.to },
            { from: String(range.from), to: String(range.to) }
          )
        : answer.series,
    [answer.series, ran, variables, range]
  );
  return (
    <>
      <GrafanaPanelBox ref={box} testId="series-box" className={cx(styles.box, !shown && styles.hidden)}>
        {shown && size.width > 0 && (
          <SeriesGraph
            series={series}
            onPoint={(frame, row) => {
              props.onPointLinks(Number(series[frame].fields[0].values[row]), pointLinks(series[frame], row));
              return false;
            }}
            from={range.from}
            to={range.to}
            width={size.width}
            height={SERIES_HEIGHT}
            selection={props.selection}
            onSelect={props.onSelect}
            markers={markers}
            exemplars={exemplars}
            onExemplar={props.onExemplar}
          />
        )}
      </GrafanaPanelBox>
      {links && links.links.length > 0 && (
        <div data-testid="point-links" className={styles.links}>
          <span>Links of the point at {dateTimeFormat(links.at, { format: 'HH:mm:ss' })}:</span>
          {links.links.map((l) => (
            <a key={l.title} href={l.href} data-testid="point-link" className={styles.link}>
              {l.title}
            </a>
          ))}
        </div>
      )}
    </>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  box: css({ flex: 'none', height: SERIES_HEIGHT + LEGEND_ROOM, minWidth: 0, overflow: 'auto' }),
  hidden: css({ display: 'none' }),
  links: css({ display: 'flex', flexWrap: 'wrap', gap: theme.spacing(1.5), fontSize: 12 }),
  link: css({ color: theme.colors.text.link }),
});
