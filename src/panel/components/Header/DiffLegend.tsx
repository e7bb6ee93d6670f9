// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';
import { diffColor } from '../../model/colors';

const STEPS = [-1, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 0.75, 1];

/** The diff colour legend, −100 % … +100 %, in the palette the bars use. */
export function DiffLegend({ colorBlind }: { colorBlind: boolean }) {
  const styles = useStyles2(getStyles, colorBlind);
  return (
    <div
      data-testid="diff-legend"
      aria-label={`Diff legend, ${colorBlind ? 'colour-blind' : 'default'} palette: -100% to +100%`}
      className={styles.legend}
    >
      <span>−100 %</span>
      <span
        data-testid="diff-legend-bar"
        data-from={diffColor(-1, colorBlind)}
        data-to={diffColor(1, colorBlind)}
        className={styles.bar}
      />
      <span>+100 %</span>
    </div>
  );
}

const getStyles = (_theme: GrafanaTheme2, colorBlind: boolean) => {
  const stops = STEPS.map((c, k) => `${diffColor(c, colorBlind)} ${(k / (STEPS.length - 1)) * 100}%`).join(', ');
  return {
    legend: css({ display: 'flex', alignItems: 'center', gap: 4, fontSize: 11, whiteSpace: 'nowrap' }),
    bar: css({ width: 120, height: 10, borderRadius: 2, background: `linear-gradient(to right, ${stops})` }),
  };
};
