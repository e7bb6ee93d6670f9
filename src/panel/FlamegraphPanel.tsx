import React from 'react';
import { PanelProps } from '@grafana/data';
import { PanelOptions } from './options';

/** Initial panel shell; replaced by the canvas flamegraph. */
export function FlamegraphPanel({ data, width, height }: PanelProps<PanelOptions>) {
  return <div style={{ width, height }}>{data.series.length} frame(s)</div>;
}
