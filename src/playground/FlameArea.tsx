// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useMemo, useRef } from 'react';
import { css, cx } from '@emotion/css';
import { DataFrame, DataQueryRequest, dateTime, LoadingState, PanelData } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';
import { FlamegraphPanel } from '../panel/FlamegraphPanel';
import type { PanelOptions } from '../panel/options';
import { useElementSize } from '../panel/components/useElementSize';
import { GrafanaPanelBox } from './GrafanaPanelBox';
import type { TimeSpan } from './pageState';
import type { EmberscopeQuery } from '../datasource/types';
import { DATASOURCE_UID } from './api';

export interface FlameAreaProps {
  /** Whether a flamegraph belongs on the page; the box stays mounted (hidden) otherwise, so its size is known. */
  shown: boolean;
  flame?: DataFrame;
  /** The range the flamegraph is of. */
  range: TimeSpan;
  /** The query the flamegraph answers, which the source view asks the datasource about. */
  query?: EmberscopeQuery;
  options: PanelOptions;
  onOptionsChange: (o: PanelOptions) => void;
}

/** The flamegraph panel the plugin ships, in a Grafana panel box that takes the rest of the page. */
export function FlameArea({ shown, flame, range, query, options, onOptionsChange }: FlameAreaProps) {
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
      request: query
        ? ({ targets: [{ ...query, datasource: { uid: DATASOURCE_UID } }] } as unknown as DataQueryRequest)
        : undefined,
    }),
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

const getStyles = () => ({
  box: css({ flex: '1 1 auto', minHeight: 240, minWidth: 0, overflow: 'hidden' }),
  hidden: css({ display: 'none' }),
});
