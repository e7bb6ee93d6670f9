// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { css } from '@emotion/css';
import { dateTimeFormat, GrafanaTheme2 } from '@grafana/data';
import { useStyles2, useTheme2 } from '@grafana/ui';

export interface OverTimeChartProps {
  /** Each point's time (epoch ms) and value. */
  times: number[];
  values: number[];
  width: number;
  height: number;
  /** A point's value as text (for its title and the axis). */
  format: (v: number) => string;
  color: string;
  /** The line's name, also the test id of its points' group. */
  name: string;
}

const PAD = { l: 8, r: 8, t: 16, b: 18 };

const getStyles = (theme: GrafanaTheme2) => ({
  svg: css({ display: 'block', overflow: 'visible' }),
  label: css({ fill: theme.colors.text.secondary, fontSize: theme.typography.bodySmall.fontSize }),
});

/**
 * One series as an SVG line with a dot per step (as the app's series charts draw), the largest
 * value and the range's ends written on it. Each dot carries its time and value, and says them
 * on hover.
 */
export function OverTimeChart({ times, values, width, height, format, color, name }: OverTimeChartProps) {
  const theme = useTheme2();
  const styles = useStyles2(getStyles);
  const w = Math.max(1, width - PAD.l - PAD.r);
  const h = Math.max(1, height - PAD.t - PAD.b);
  const from = times[0] ?? 0;
  const to = times[times.length - 1] ?? from;
  const max = Math.max(0, ...values.filter(Number.isFinite));
  const x = (t: number) => PAD.l + ((t - from) / Math.max(1, to - from)) * w;
  const y = (v: number) => PAD.t + h - (max > 0 ? (v / max) * h : 0);
  const line = times.map((t, i) => `${i === 0 ? 'M' : 'L'}${x(t).toFixed(1)},${y(values[i]).toFixed(1)}`).join('');
  const fmt = (t: number) => dateTimeFormat(t, { format: 'HH:mm:ss' });
  return (
    <svg width={width} height={height} className={styles.svg} role="img" aria-label={name}>
      <line x1={PAD.l} x2={PAD.l + w} y1={PAD.t + h} y2={PAD.t + h} stroke={theme.colors.border.medium} />
      <text x={PAD.l} y={PAD.t - 4} className={styles.label}>
        max {format(max)}
      </text>
      <text x={PAD.l} y={height - 4} className={styles.label}>
        {times.length > 0 ? fmt(from) : ''}
      </text>
      <text x={PAD.l + w} y={height - 4} textAnchor="end" className={styles.label}>
        {times.length > 0 ? fmt(to) : ''}
      </text>
      <path d={line} fill="none" stroke={color} strokeWidth={1.5} />
      <g data-testid={`over-time-${name}`}>
        {times.map((t, i) => (
          <circle
            key={t}
            cx={x(t)}
            cy={y(values[i])}
            r={values[i] > 0 ? 2.5 : 1}
            fill={color}
            data-time={t}
            data-value={values[i]}
          >
            <title>{`${fmt(t)}: ${format(values[i])}`}</title>
          </circle>
        ))}
      </g>
    </svg>
  );
}
