// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { Button, useStyles2 } from '@grafana/ui';
import { useApp } from '../context';
import { formatFilter } from '../state';

/** The view's label filters and virtual-frame label, each removable. */
export function FilterChips() {
  const { view, go } = useApp();
  const styles = useStyles2(getStyles);
  if (!view.filters.length && !view.frames) {
    return null;
  }
  return (
    <div data-testid="filters" className={styles.chips}>
      <span>Filters:</span>
      {view.filters.map((f, i) => (
        <Button
          key={formatFilter(f)}
          size="sm"
          variant="secondary"
          icon="times"
          data-testid="filter-chip"
          aria-label={`Remove filter ${formatFilter(f)}`}
          onClick={() => go({ filters: view.filters.filter((_, j) => j !== i) })}
        >
          {formatFilter(f)}
        </Button>
      ))}
      {view.frames && (
        <Button size="sm" variant="secondary" icon="times" aria-label="Remove virtual frames" onClick={() => go({ frames: '' })}>
          by ({view.frames})
        </Button>
      )}
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  chips: css({ display: 'flex', flexWrap: 'wrap', gap: theme.spacing(0.5), alignItems: 'center', fontSize: 12 }),
});
