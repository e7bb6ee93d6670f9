// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useMemo, useRef, useState } from 'react';
import { css } from '@emotion/css';
import { DataFrame, DataQueryRequest, LoadingState, PanelData, TimeRange } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';
import { FlamegraphPanel } from '../../panel/FlamegraphPanel';
import { defaultOptions, PanelOptions } from '../../panel/options';
import { useElementSize } from '../../panel/components/useElementSize';

/**
 * The flamegraph panel the plugin ships (graph, top table and every view it has), sized to a
 * box that takes the rest of the window and never less than 360 px.
 */
export function Flame(props: { frame: DataFrame; range: TimeRange; title: string; request?: DataQueryRequest }) {
  const { frame, range, title, request } = props;
  const styles = useStyles2(getStyles);
  const box = useRef<HTMLDivElement>(null);
  const size = useElementSize(box);
  const [options, setOptions] = useState<PanelOptions>(defaultOptions);
  const data: PanelData = useMemo(
    // the request too, as Grafana gives a panel its own: a zoom into a cut graph re-runs its target
    () => ({ series: [frame], state: LoadingState.Done, timeRange: range, request }),
    [frame, range, request]
  );
  return (
    <div ref={box} data-testid="panel-box" className={styles.box}>
      {size.width > 0 && size.height > 0 && (
        <FlamegraphPanel
          {...({} as React.ComponentProps<typeof FlamegraphPanel>)}
          id={1}
          data={data}
          timeRange={range}
          timeZone="browser"
          options={options}
          width={size.width}
          height={size.height}
          title={title}
          transparent={false}
          renderCounter={0}
          onOptionsChange={setOptions}
        />
      )}
    </div>
  );
}

const getStyles = () => ({
  box: css({ height: 'max(360px, calc(100vh - 300px))', minWidth: 0, overflow: 'hidden' }),
});
