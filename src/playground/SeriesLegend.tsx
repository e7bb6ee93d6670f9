// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { css, cx } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';
import { colourOf, Line, PLOT_PAD } from './seriesData';

export interface SeriesLegendProps {
  lines: Line[];
  /** Names of the hidden series. */
  hidden: Set<string>;
  onToggle: (name: string) => void;
}

/** The series' names in their colours; a click hides or shows a series. */
export function SeriesLegend({ lines, hidden, onToggle }: SeriesLegendProps) {
  const styles = useStyles2(getStyles);
  return (
    <div data-testid="series-legend" className={styles.legend}>
      {lines.map((l, i) => {
        const off = hidden.has(l.name);
        return (
          <button
            key={l.name}
            type="button"
            data-testid="series-legend-item"
            aria-pressed={!off}
            title={off ? 'Show this series' : 'Hide this series'}
            onClick={() => onToggle(l.name)}
            className={cx(styles.item, off && styles.off)}
          >
            {/* colours stay with their series when others are hidden */}
            <span className={styles.swatch} style={{ background: colourOf(i) }} />
            <span className={off ? styles.struck : undefined}>{l.name}</span>
          </button>
        );
      })}
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  // lined up with the plot
  legend: css({
    display: 'flex',
    flexWrap: 'wrap',
    gap: '2px 12px',
    fontSize: 11,
    padding: `2px ${PLOT_PAD.right}px 0 ${PLOT_PAD.left}px`,
  }),
  item: css({
    display: 'inline-flex',
    alignItems: 'center',
    gap: 4,
    border: 'none',
    background: 'none',
    padding: 0,
    cursor: 'pointer',
    color: theme.colors.text.primary,
    font: 'inherit',
  }),
  off: css({ opacity: 0.45 }),
  swatch: css({ width: 12, height: 3, display: 'inline-block' }),
  struck: css({ textDecoration: 'line-through' }),
});
