// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';

const getSizeStyles = (_theme: GrafanaTheme2, width?: number, height?: number) => css({ width, height });

/**
 * A class giving a box the size the panel gave it (either side left out when undefined), through
 * useStyles2 as every style of the panel: one class per size, remade only when the size changes.
 */
export function useSizeClass(width?: number, height?: number): string {
  return useStyles2(getSizeStyles, width, height);
}
