// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useMemo, useRef } from 'react';
import { css, cx } from '@emotion/css';
import { CoreApp, DataFrame, DataQueryRequest, dateTime, LoadingState, PanelData } from '@grafana/data';
import { DATASOURCE_UID } from './api';
import type { EmberscopeQuery } from '../datasource/types';
import { useStyles2 } from '@grafana/ui';
import { FlamegraphPanel } from '../panel/FlamegraphPanel';
import type { PanelOptions } from '../panel/options';
import { useElementSize } from '../panel/components/useElementSize';
import { GrafanaPanelBox } from './GrafanaPanelBox';
import type { TimeSpan } from './pageState';

export interface FlameAreaProps {
  /** Whether a flamegraph belongs on the page; the box stays mounted (hidden) otherwise, so its size is known. */
  shown: boolean;
  flame?: DataFrame;
  /** The range the flamegraph is of. */
  range: TimeSpan;
  options: PanelOptions;
  onOptionsChange: (o: PanelOptions) => void;
  /**
   * The query the flamegraph is the answer of (as run): a zoom into a cut graph re-runs it for
   * the call site, and the source view asks the datasource about it.
   */
  query?: EmberscopeQuery;
}

/** The flamegraph panel the plugin ships, in a Grafana panel box that takes the rest of the page. */
export function FlameArea({ shown, flame, range, options, onOptionsChange, query }: FlameAreaProps) {
  const styles = useStyles2(getStyles);
  const box = useRef<HTMLDivElement>(null);
  const size = useElementSize(box);
  const data: PanelData = useMemo(
    () => ({
      series: flame ? [flame] : [],
      state: LoadingState.Done,
      timeRange: {
        from: dateTime(range.from),
        to: dateTime(range.to),
        raw: { from: dateTime(range.from), to: dateTime(range.to) },
      },
      request: query && flame ? requestOf(query, flame, range.from, range.to) : undefined,
    }),
    // primitives and the page's memoised query: a new series array would read the profile anew
    [flame, range.from, range.to, query]
  );
  return (
    <GrafanaPanelBox ref={box} testId="panel-box" className={cx(styles.box, !shown && styles.hidden)}>
      {shown && size.width > 0 && flame && (
        <FlamegraphPanel
          {...({} as React.ComponentProps<typeof FlamegraphPanel>)}
          id={1}
          data={data}
          timeRange={data.timeRange}
          timeZone="browser"
          options={options}
          width={size.width}
          height={size.height}
          title="Flame graph"
          transparent={false}
          renderCounter={0}
          onOptionsChange={onOptionsChange}
        />
      )}
    </GrafanaPanelBox>
  );
}

/** The request a panel in Grafana would have been given for flame, from the page's query as run. */
function requestOf(query: EmberscopeQuery, flame: DataFrame, fromMs: number, toMs: number): DataQueryRequest<EmberscopeQuery> {
  const from = dateTime(fromMs);
  const to = dateTime(toMs);
  const intervalMs = Math.max(1000, Math.floor((toMs - fromMs) / 200));
  return {
    app: CoreApp.Dashboard,
    requestId: 'playground-flame',
    interval: `${Math.round(intervalMs / 1000)}s`,
    intervalMs,
    range: { from, to, raw: { from, to } },
    scopedVars: {},
    targets: [{ ...query, refId: flame.refId ?? query.refId ?? 'A', datasource: { uid: DATASOURCE_UID } }],
    timezone: 'browser',
    startTime: Date.now(),
  };
}

const getStyles = () => ({
  box: css({ flex: '1 1 auto', minHeight: 240, minWidth: 0, overflow: 'hidden' }),
  hidden: css({ display: 'none' }),
});
