// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { css, cx } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { Button, useStyles2 } from '@grafana/ui';
import { useSizeClass } from '../sizeStyles';

export interface SandwichPendingProps {
  /** The function whose sandwich is being merged. */
  name: string;
  width: number;
  height: number;
  onExit: () => void;
}

/**
 * What the sandwich view shows while a large frame's sandwich is merged off the click (in the
 * model worker, or in idle slices): the way back, and which function it is for.
 */
export function SandwichPending({ name, width, height, onExit }: SandwichPendingProps) {
  const styles = useStyles2(getStyles);
  const size = useSizeClass(width, height);
  return (
    <div data-testid="sandwich-pending" className={cx(styles.root, size)}>
      <div className={styles.bar}>
        <Button size="sm" variant="secondary" icon="arrow-left" onClick={onExit} aria-label="Exit sandwich view">
          Back
        </Button>
      </div>
      <div className={styles.message}>
        Merging the callers and callees of <b className={styles.name}>{name}</b>…
      </div>
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  root: css({ display: 'flex', flexDirection: 'column', minWidth: 0 }),
  bar: css({ height: 30, display: 'flex', alignItems: 'center', flex: 'none' }),
  message: css({
    flex: '1 1 auto',
    display: 'grid',
    placeItems: 'center',
    color: theme.colors.text.secondary,
    fontSize: theme.typography.bodySmall.fontSize,
  }),
  name: css({ fontFamily: theme.typography.fontFamilyMonospace }),
});
