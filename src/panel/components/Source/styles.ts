// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';

export const getStyles = (theme: GrafanaTheme2) => ({
  modal: css({ width: 'min(1100px, 95vw)' }),
  file: css({ marginBottom: theme.spacing(2) }),
  fileHeader: css({
    display: 'flex',
    flexWrap: 'wrap',
    gap: theme.spacing(1),
    alignItems: 'baseline',
    marginBottom: theme.spacing(1),
  }),
  path: css({ fontFamily: theme.typography.fontFamilyMonospace, fontWeight: theme.typography.fontWeightMedium }),
  origin: css({ color: theme.colors.text.secondary, fontSize: theme.typography.bodySmall.fontSize }),
  link: css({ color: theme.colors.text.link }),
  scroller: css({ maxHeight: '60vh', overflow: 'auto', border: `1px solid ${theme.colors.border.weak}` }),
  table: css({
    borderCollapse: 'collapse',
    width: '100%',
    fontFamily: theme.typography.fontFamilyMonospace,
    fontSize: theme.typography.bodySmall.fontSize,
  }),
  num: css({
    textAlign: 'right',
    padding: theme.spacing(0, 1),
    whiteSpace: 'nowrap',
    color: theme.colors.text.secondary,
  }),
  code: css({ whiteSpace: 'pre', padding: theme.spacing(0, 1) }),
  hot: css({ background: theme.colors.warning.transparent }),
  hottest: css({ background: theme.colors.error.transparent, fontWeight: theme.typography.fontWeightBold }),
  header: css({ position: 'sticky', top: 0, background: theme.colors.background.secondary, textAlign: 'right' }),
});
