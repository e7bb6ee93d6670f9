// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { css } from '@emotion/css';
import { dateTimeFormat } from '@grafana/data';
import { useStyles2, useTheme2 } from '@grafana/ui';
import type { Exemplar } from '../shared/exemplars';
import type { Marker } from './seriesData';

/** Where the plot is: time and value to pixels, and the plot's top and height. */
export interface PlotScale {
  xOf: (t: number) => number;
  yOf: (v: number) => number;
  top: number;
  height: number;
}

/** Marked windows as bands over the plot, each with a flag at its middle and its title on hover. */
export function Markers({ markers, scale }: { markers: Marker[]; scale: PlotScale }) {
  const theme = useTheme2();
  const { xOf, top, height } = scale;
  return (
    <>
      {markers.map((m, i) => (
        <g key={`m${i}`} data-testid="series-marker">
          <title>{m.title}</title>
          <rect
            x={xOf(m.from)}
            y={top}
            width={Math.max(2, xOf(m.to) - xOf(m.from))}
            height={height}
            fill={theme.colors.warning.transparent}
          />
          <path
            d={`M${xOf(m.from)},${top} l5,0 l-5,7 z`}
            fill={theme.colors.warning.main}
            transform={`translate(${Math.max(0, (xOf(m.to) - xOf(m.from)) / 2 - 2.5)},0)`}
          />
        </g>
      ))}
    </>
  );
}

export interface ExemplarPointsProps {
  exemplars: Exemplar[];
  scale: PlotScale;
  /** An exemplar's value as the axis writes it. */
  format: (v: number) => string;
  onOpen?: (e: Exemplar) => void;
}

/** Exemplars as diamonds at their time and value; a click opens that profile or span. */
export function ExemplarPoints({ exemplars, scale, format, onOpen }: ExemplarPointsProps) {
  const theme = useTheme2();
  const styles = useStyles2(getStyles);
  return (
    <>
      {exemplars.map((e, i) => {
        const x = scale.xOf(e.time);
        const y = scale.yOf(e.value);
        const name = `${e.kind === 'span' ? 'Span' : 'Profile'} ${e.id}`;
        return (
          <g
            key={`e${i}`}
            data-testid="series-exemplar"
            data-id={e.id}
            data-kind={e.kind}
            role="button"
            aria-label={name}
            className={styles.exemplar}
            // a click on an exemplar opens it, not the step under it
            onMouseDown={(ev) => ev.stopPropagation()}
            onMouseUp={(ev) => {
              ev.stopPropagation();
              onOpen?.(e);
            }}
          >
            <title>
              {`${name}${e.traceId ? ` (trace ${e.traceId})` : ''}: ${format(e.value)} at ${dateTimeFormat(e.time, { format: 'HH:mm:ss' })}`}
            </title>
            <rect
              x={x - 5}
              y={y - 5}
              width={10}
              height={10}
              transform={`rotate(45 ${x} ${y})`}
              fill={theme.colors.primary.main}
              stroke={theme.colors.background.primary}
              strokeWidth={1}
            />
          </g>
        );
      })}
    </>
  );
}

const getStyles = () => ({
  exemplar: css({ cursor: 'pointer' }),
});
