// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useCallback, useEffect, useRef, useState } from 'react';
import { Button, Combobox, InlineSwitch, RadioButtonGroup } from '@grafana/ui';
import { ColorMode } from '../types';
import { inIdleSteps } from '../model/idle';
import { afterPaint } from '../afterPaint';
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
import { ColourStandIn, CONTROLS_ROW_STYLE, HeaderStandIn } from './HeaderStandIn';

/**
 * Test hook: while `window.__emberscopeHoldHeader` is true the header keeps its stand-in (a
 * browser test measures it, then lets the real controls mount by setting it false).
 */
const held = () =>
  typeof window !== 'undefined' &&
  (window as Window & { __emberscopeHoldHeader?: boolean }).__emberscopeHoldHeader === true;

/**
 * The header's controls: a static stand-in (HeaderStandIn) in the first render, the @grafana/ui
 * controls from the first idle time after the graph has painted. The controls are about half of a
 * small profile's first draw (radio groups, an Icon per alignment choice parsed by
 * react-inlinesvg, a switch, two buttons, each making its styles on mount); the stand-in takes the
 * same boxes and does what a click on it asks, so the swap moves nothing and loses nothing.
 */
export const Header = React.memo(function Header(props: HeaderControlsProps) {
  const [ready, setReady] = useState(false);
  const [openColour, setOpenColour] = useState(false);
  useEffect(() => {
    if (ready) {
      return;
    }
    let cancelIdle: (() => void) | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const mount = () => {
      if (held()) {
        timer = setTimeout(mount, 50);
        return;
      }
      setReady(true);
    };
    const cancelPaint = afterPaint(() => {
      cancelIdle = inIdleSteps([mount]);
    });
    return () => {
      cancelPaint();
      cancelIdle?.();
      clearTimeout(timer);
    };
  }, [ready]);
  const wake = useCallback(() => {
    setReady(true);
    setOpenColour(true);
  }, []);
  useEffect(() => {
    // once: the colour scheme has opened (its effect ran before this one); a colour box mounted
    // later (a diff profile and back) must not open by itself
    if (openColour) {
      setOpenColour(false);
    }
  }, [openColour]);
  if (!ready) {
    return <HeaderStandIn {...props} onWake={wake} />;
  }
  return <HeaderControls {...props} openColour={openColour} />;
});

/**
 * The colour scheme picker, re-rendered only when the scheme changes: the combobox positions its
 * popup on every render (reading the page's layout), which a view switch does not need.
 */
const ColourScheme = React.memo(function ColourScheme(props: {
  colorMode: ColorMode;
  open: boolean;
  onAction: (a: HeaderAction) => void;
}) {
  const { colorMode, open, onAction } = props;
  const ref = useRef<HTMLDivElement>(null);
  // the Combobox (an Input, floating-ui, downshift and a virtualised list: 3–6 ms in a profile)
  // is mounted one idle time after the other controls, so that neither swap is one long task;
  // until then the stand-in's box shows the current scheme. A click on the stand-in's box, which
  // only the Combobox can answer, mounts it at once and opens it.
  const [comboReady, setComboReady] = useState(open);
  useEffect(() => {
    if (comboReady) {
      return;
    }
    let cancelIdle: (() => void) | undefined;
    const cancelPaint = afterPaint(() => {
      cancelIdle = inIdleSteps([() => setComboReady(true)]);
    });
    return () => {
      cancelPaint();
      cancelIdle?.();
    };
  }, [comboReady]);
  useEffect(() => {
    if (open) {
      // the stand-in was clicked: the combobox opens as a click on it would
      ref.current?.querySelector('input')?.click();
    }
  }, [open]);
  const label = COLOR_OPTIONS.find((o) => o.value === colorMode)?.label ?? '';
  return (
    <div ref={ref} style={{ width: COLOUR_SCHEME_WIDTH }} data-testid="colour-scheme">
      {!comboReady && <ColourStandIn label={label} />}
      {comboReady && (
        <Combobox
          aria-label="Colour scheme"
          options={COLOR_OPTIONS}
          value={colorMode}
          onChange={(v) => v && onAction({ kind: 'options', changed: { colorMode: v.value } })}
        />
      )}
    </div>
  );
});

/** The header's view, colour, alignment and collapse controls (@grafana/ui). */
const HeaderControls = React.memo(function HeaderControls(props: HeaderControlsProps & { openColour: boolean }) {
  const { view, diff, colorMode, colorBlindDiff, textAlign, collapse, onAction, openColour } = props;
  return (
    <div style={CONTROLS_ROW_STYLE} data-testid="header-controls">
      <RadioButtonGroup
        size="sm"
        aria-label="View"
        data-testid="view-mode"
        options={VIEW_OPTIONS}
        value={view}
        onChange={(v) => onAction({ kind: 'view', view: v })}
      />
      {!diff && <ColourScheme colorMode={colorMode} open={openColour} onAction={onAction} />}
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
