// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { css } from '@emotion/css';
import { Button, Combobox, InlineSwitch, RadioButtonGroup, useStyles2 } from '@grafana/ui';
import { ColorMode } from '../../types';
import {
  COLOR_OPTIONS,
  COLOUR_SCHEME_WIDTH,
  DIFF_PALETTE_OPTIONS,
  HeaderAction,
  HeaderControlsProps,
  HEADER_WORDS,
  TEXT_ALIGN_OPTIONS,
  VIEW_OPTIONS,
} from './headerOptions';

const getStyles = () => ({
  row: css({ display: 'flex', flexWrap: 'wrap', gap: 6, alignItems: 'center', minWidth: 0 }),
  colour: css({ width: COLOUR_SCHEME_WIDTH }),
});

/**
 * The colour scheme picker, re-rendered only when the scheme changes: the combobox positions its
 * popup on every render (reading the page's layout), which a view switch does not need.
 */
const ColourScheme = React.memo(function ColourScheme(props: {
  colorMode: ColorMode;
  onAction: (a: HeaderAction) => void;
}) {
  const { colorMode, onAction } = props;
  const styles = useStyles2(getStyles);
  return (
    <div className={styles.colour} data-testid="colour-scheme">
      <Combobox
        aria-label="Colour scheme"
        options={COLOR_OPTIONS}
        value={colorMode}
        onChange={(v) => v && onAction({ kind: 'options', changed: { colorMode: v.value } })}
      />
    </div>
  );
});

/**
 * The header's view, colour, alignment and collapse controls. Memoised: a zoom or a hover
 * re-renders the view but not these.
 */
export const Header = React.memo(function Header(props: HeaderControlsProps) {
  const { view, diff, colorMode, colorBlindDiff, textAlign, collapse, onAction } = props;
  const styles = useStyles2(getStyles);
  return (
    <div className={styles.row} data-testid="header-controls">
      <RadioButtonGroup
        size="sm"
        aria-label="View"
        data-testid="view-mode"
        options={VIEW_OPTIONS}
        value={view}
        onChange={(v) => onAction({ kind: 'view', view: v })}
      />
      {!diff && <ColourScheme colorMode={colorMode} onAction={onAction} />}
      {diff && (
        <RadioButtonGroup
          size="sm"
          aria-label="Diff palette"
          options={DIFF_PALETTE_OPTIONS}
          value={colorBlindDiff}
          onChange={(v) => onAction({ kind: 'options', changed: { colorBlindDiff: v } })}
        />
      )}
      <RadioButtonGroup
        size="sm"
        aria-label="Text align"
        options={TEXT_ALIGN_OPTIONS}
        value={textAlign}
        onChange={(v) => onAction({ kind: 'options', changed: { textAlign: v === 'right' ? 'right' : 'left' } })}
      />
      <InlineSwitch
        label={HEADER_WORDS.collapse}
        showLabel
        transparent
        aria-label="Collapse chains"
        value={collapse}
        onChange={(e) => onAction({ kind: 'collapse', on: e.currentTarget.checked })}
      />
      <Button size="sm" variant="secondary" fill="text" onClick={() => onAction({ kind: 'collapse', on: false })}>
        {HEADER_WORDS.expandAll}
      </Button>
      <Button size="sm" variant="secondary" fill="text" onClick={() => onAction({ kind: 'collapse', on: true })}>
        {HEADER_WORDS.collapseAll}
      </Button>
    </div>
  );
});
