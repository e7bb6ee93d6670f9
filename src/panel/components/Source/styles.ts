// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';

/** The width of a row's source action cell. */
export const SOURCE_ACTION_W = 26;

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
  change: css({ color: theme.colors.text.primary }),
  action: css({
    border: 'none',
    background: 'transparent',
    color: theme.colors.text.secondary,
    cursor: 'pointer',
    padding: 0,
    width: 22,
    height: 20,
    fontSize: 11,
    borderRadius: theme.shape.radius.default,
    '&:hover': { background: theme.colors.action.hover, color: theme.colors.text.primary },
    '&:focus-visible': { outline: `2px solid ${theme.colors.primary.border}` },
  }),
  actionCell: css({ width: SOURCE_ACTION_W, flex: 'none', textAlign: 'center' }),
  code: css({ whiteSpace: 'pre', padding: theme.spacing(0, 1) }),
  hot: css({ background: theme.colors.warning.transparent }),
  hottest: css({ background: theme.colors.error.transparent, fontWeight: theme.typography.fontWeightBold }),
  header: css({ position: 'sticky', top: 0, background: theme.colors.background.secondary, textAlign: 'right' }),
});
