// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useRef, useState } from 'react';
import { css, cx } from '@emotion/css';
import { dateTimeFormat } from '@grafana/data';
import { useStyles2, useTheme2 } from '@grafana/ui';
import { useElementSize } from '../../panel/components/useElementSize';
import { Line, formatValue } from '../query';
import type { Span } from '../state';

/** A band drawn over the series (a picked range), with its colour and name. */
export interface Band extends Span {
  name: string;
  color: string;
}

/** A marked instant (e.g. a novel profile). */
export interface Mark {
  time: number;
  title: string;
}

export interface SeriesProps {
  lines: Line[];
  from: number;
  to: number;
  height: number;
  unit: string;
  /** Small: no axes and no legend (the services list). */
  small?: boolean;
  bands?: Band[];
  marks?: Mark[];
  onMarkClick?: (m: Mark) => void;
  /** Called with the range of a drag (a click picks the step around the point). */
  onSelect?: (s: Span) => void;
  testId?: string;
}

const PALETTE = ['#5794f2', '#73bf69', '#f2cc0c', '#ff9830', '#f2495c', '#b877d9', '#8ab8ff', '#96d98d'];
export const colourOf = (i: number) => PALETTE[i % PALETTE.length];

/**
 * Series as an SVG line chart that fills its container's width; drag across it (or click a
 * point) to pick a range. Each line's legend entry shows its total over the range.
 */
export function Series(props: SeriesProps) {
  const { lines, from, to, height, unit, small, bands = [], marks = [], onSelect, testId = 'app-series' } = props;
  const theme = useTheme2();
  const styles = useStyles2(getStyles);
  const box = useRef<HTMLDivElement>(null);
  const { width } = useElementSize(box);
  const [drag, setDrag] = useState<{ a: number; b: number } | undefined>();
  const pad = small ? { l: 2, r: 2, t: 2, b: 2 } : { l: 8, r: 8, t: 8, b: 20 };
  const w = Math.max(0, width - pad.l - pad.r);
  const h = Math.max(0, height - pad.t - pad.b);
  const max = Math.max(1e-9, ...lines.flatMap((l) => l.values.filter(Number.isFinite)));
  const x = (t: number) => pad.l + ((t - from) / Math.max(1, to - from)) * w;
  const y = (v: number) => pad.t + h - (v / max) * h;
  const tOf = (px: number) => from + ((px - pad.l) / Math.max(1, w)) * (to - from);
  const localX = (e: React.MouseEvent) => e.clientX - (box.current?.getBoundingClientRect().left ?? 0);
  const step = lines[0] && lines[0].times.length > 1 ? lines[0].times[1] - lines[0].times[0] : (to - from) / 60;

  const finish = (e: React.MouseEvent) => {
    if (!drag || !onSelect) {
      return;
    }
    const b = localX(e);
    setDrag(undefined);
    let a = tOf(Math.min(drag.a, b));
    let c = tOf(Math.max(drag.a, b));
    if (Math.abs(b - drag.a) < 4) {
      // a click: the step around the point
      a = tOf(drag.a) - step / 2;
      c = tOf(drag.a) + step / 2;
    }
    onSelect({ from: Math.round(Math.max(from, a)), to: Math.round(Math.min(to, c)) });
  };

  return (
    <div className={styles.root}>
      <div
        ref={box}
        data-testid={testId}
        className={cx(styles.plot, onSelect && styles.selectable)}
        style={{ height }}
        onMouseDown={onSelect ? (e) => setDrag({ a: localX(e), b: localX(e) }) : undefined}
        onMouseMove={drag ? (e) => setDrag({ ...drag, b: localX(e) }) : undefined}
        onMouseUp={finish}
        onMouseLeave={() => setDrag(undefined)}
      >
        {width > 0 && (
          <svg width={width} height={height} role="img" aria-label="series" className={styles.svg}>
            {bands.map((b) => (
              <g key={b.name} data-testid={`band-${b.name}`}>
                <rect
                  x={x(b.from)}
                  y={pad.t}
                  width={Math.max(1, x(b.to) - x(b.from))}
                  height={h}
                  fill={b.color}
                  opacity={0.18}
                />
                {!small && (
                  <text x={x(b.from) + 3} y={pad.t + 12} fontSize={11} fill={theme.colors.text.secondary}>
                    {b.name}
                  </text>
                )}
              </g>
            ))}
            {drag && (
              <rect
                x={Math.min(drag.a, drag.b)}
                y={pad.t}
                width={Math.abs(drag.b - drag.a)}
                height={h}
                fill={theme.colors.primary.main}
                opacity={0.2}
              />
            )}
            {lines.map((l, i) => {
              const pts = l.times.map((t, j) => `${x(t).toFixed(1)},${y(l.values[j] || 0).toFixed(1)}`).join(' ');
              return (
                <g key={l.name + i}>
                  <polyline points={pts} fill="none" stroke={colourOf(i)} strokeWidth={small ? 1.2 : 1.5} />
                  {l.times.map((t, j) =>
                    l.values[j] > 0 ? (
                      <circle key={t} cx={x(t)} cy={y(l.values[j])} r={small ? 1.5 : 2.5} fill={colourOf(i)} />
                    ) : null
                  )}
                </g>
              );
            })}
            {marks.map((m) => (
              <g
                key={m.time}
                data-testid="novel-mark"
                className={styles.mark}
                onMouseDown={(e) => e.stopPropagation()}
                onClick={() => props.onMarkClick?.(m)}
              >
                <title>{m.title}</title>
                <line x1={x(m.time)} x2={x(m.time)} y1={pad.t} y2={pad.t + h} stroke={theme.colors.error.main} />
                <circle cx={x(m.time)} cy={pad.t + 4} r={5} fill={theme.colors.error.main} />
              </g>
            ))}
            {!small && (
              <>
                <line x1={pad.l} x2={pad.l + w} y1={pad.t + h} y2={pad.t + h} stroke={theme.colors.border.medium} />
                <text x={pad.l} y={height - 4} fontSize={11} fill={theme.colors.text.secondary}>
                  {dateTimeFormat(from, { format: 'MM-DD HH:mm' })}
                </text>
                <text x={pad.l + w} y={height - 4} fontSize={11} textAnchor="end" fill={theme.colors.text.secondary}>
                  {dateTimeFormat(to, { format: 'MM-DD HH:mm' })}
                </text>
                <text x={pad.l + 2} y={pad.t + h - 4} fontSize={11} fill={theme.colors.text.secondary}>
                  max {formatValue(max, unit)}
                </text>
              </>
            )}
          </svg>
        )}
      </div>
      {!small && lines.length > 0 && (
        <div data-testid="series-legend" className={styles.legend}>
          {lines.map((l, i) => (
            <span key={l.name + i} data-testid="legend-item" data-total={l.total} className={styles.legendItem}>
              <span style={{ color: colourOf(i) }}>▬</span> {l.name}: <b>{formatValue(l.total, unit)}</b>
            </span>
          ))}
        </div>
      )}
    </div>
  );
}

const getStyles = () => ({
  root: css({ minWidth: 0 }),
  plot: css({ position: 'relative', userSelect: 'none' }),
  selectable: css({ cursor: 'crosshair' }),
  svg: css({ display: 'block' }),
  mark: css({ cursor: 'pointer' }),
  legend: css({ display: 'flex', flexWrap: 'wrap', gap: '4px 12px', fontSize: 12 }),
  legendItem: css({ minWidth: 0, overflowWrap: 'anywhere' }),
});
