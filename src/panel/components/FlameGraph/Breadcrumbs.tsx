// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { Button, useStyles2 } from '@grafana/ui';
import { FlameIndex, ancestors } from '../../model/flameIndex';

export interface BreadcrumbsProps {
  index: FlameIndex;
  focus: number;
  onZoom: (node: number) => void;
  onReset: () => void;
  /** The text of a step (a collapsed bar names every frame it holds); the node's name by default. */
  labelOf?: (node: number) => string;
}

/** How many path elements above the zoomed node are shown before the rest collapse into `…`. */
const SHOWN = 3;

const getStyles = (_theme: GrafanaTheme2, steps: number) => ({
  path: css({ display: 'flex', alignItems: 'center', gap: 4, minWidth: 0, flex: '1 1 100%', fontSize: 12 }),
  step: css({
    background: 'none',
    border: 'none',
    padding: 0,
    color: 'inherit',
    cursor: 'pointer',
    fontFamily: 'monospace',
    fontWeight: 400,
    minWidth: 0,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    // the steps share the row
    maxWidth: `${Math.floor(100 / Math.max(1, steps))}%`,
  }),
  current: css({ fontWeight: 700 }),
});

/** The path from the root to the zoomed node; each step zooms there; Reset returns to the root. */
export function Breadcrumbs({ index, focus, onZoom, onReset, labelOf }: BreadcrumbsProps) {
  const path = focus > 0 ? [...ancestors(index, focus), focus] : [];
  const shown = path.length > SHOWN + 1 ? path.slice(path.length - SHOWN) : path.slice(1);
  const hidden = path.length > SHOWN + 1;
  const styles = useStyles2(getStyles, shown.length);
  if (focus <= 0) {
    return null;
  }
  const d = index.data;
  return (
    <nav aria-label="Zoom path" data-testid="flamegraph-breadcrumbs" className={styles.path}>
      <Button size="sm" variant="secondary" icon="home-alt" onClick={onReset} aria-label="Reset zoom">
        Reset
      </Button>
      {hidden && <span aria-hidden>… ›</span>}
      {shown.map((n, k) => {
        const name = labelOf ? labelOf(n) : d.names[d.nameIdx[n]];
        return (
          <React.Fragment key={n}>
            {k > 0 && <span aria-hidden>›</span>}
            <button
              type="button"
              title={name}
              onClick={() => onZoom(n)}
              className={n === focus ? `${styles.step} ${styles.current}` : styles.step}
            >
              {name}
            </button>
          </React.Fragment>
        );
      })}
    </nav>
  );
}
