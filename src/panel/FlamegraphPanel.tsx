// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import { PanelProps } from '@grafana/data';
import { FlameData, findFlameFrame, readFlameData } from '../shared/flameData';
import { FlameGraphView } from './components/FlameGraphView';
import { defaultOptions, PanelOptions } from './options';

type Parsed = { data: FlameData } | { error: string } | { empty: true };

/** Reads the first flamegraph frame of the panel data; errors come back as text for the user. */
export function parsePanelData(series: PanelProps['data']['series']): Parsed {
  const frame = findFlameFrame(series);
  if (!frame) {
    return series.length === 0 || series.every((s) => s.length === 0)
      ? { empty: true }
      : { error: 'No flamegraph frame in the data: expected fields level, value, self and label' };
  }
  try {
    const data = readFlameData(frame);
    return data.count === 0 ? { empty: true } : { data };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** The Emberscope flamegraph panel. */
export function FlamegraphPanel({ data, width, height, options, onOptionsChange }: PanelProps<PanelOptions>) {
  const parsed = useMemo(() => parsePanelData(data.series), [data.series]);
  const opts = { ...defaultOptions, ...options };
  // the header's choices are saved as the panel's options (Grafana keeps them with the dashboard)
  const latest = useRef({ options, onOptionsChange });
  useLayoutEffect(() => {
    latest.current = { options, onOptionsChange };
  });
  const save = useCallback((changed: Partial<PanelOptions>) => {
    const { options: o, onOptionsChange: change } = latest.current;
    change?.({ ...defaultOptions, ...o, ...changed });
  }, []);
  if ('error' in parsed) {
    return (
      <div role="alert" style={{ width, height, padding: 8, overflow: 'auto' }}>
        Cannot draw this flamegraph: {parsed.error}
      </div>
    );
  }
  if ('empty' in parsed) {
    return <div style={{ width, height, display: 'grid', placeItems: 'center' }}>No profile data</div>;
  }
  return <FlameGraphView data={parsed.data} width={width} height={height} options={opts} onOptionsChange={save} />;
}
