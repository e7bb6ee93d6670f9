// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useCallback, useMemo, useState } from 'react';
import { css, cx } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { Button, useStyles2 } from '@grafana/ui';
import { FlameData } from '../../../shared/flameData';
import { buildIndex, FlameIndex, warmIndex } from '../../model/flameIndex';
import { memoOf } from '../../model/memo';
import { nodeColors, NodeColors } from '../../model/colors';
import { Sandwich } from '../../model/sandwich';
import { chunkStep, IdleStep, NO_DEADLINE } from '../../model/idle';
import { formatPercent, formatValue } from '../../model/format';
import { FlameCanvas } from '../FlameGraph/FlameCanvas';
import { warmCanvases } from '../../render/canvasPool';
import { Tooltip } from '../FlameGraph/Tooltip';
import { ColorMode, ViewOptions } from '../../types';
import { useSizeClass } from '../sizeStyles';
import { SandwichSourceMenu, SourceFrameMenu } from '../Source';
import { FocusNotice, FocusNoticeText } from '../focus/FocusNotice';

export interface SandwichViewProps {
  sandwich: Sandwich;
  unit?: string;
  rootTotal: number;
  width: number;
  height: number;
  options: ViewOptions;
  darkTheme: boolean;
  onExit: () => void;
  /** What the bar says about a full-resolution merge asked of the backend (none: merged here). */
  notice?: FocusNoticeText;
}

const BAR = 30;
const LABEL = 18;

// a half's index and colours, made once per half (an idle-time prefetch makes them before the
// click, the index in chunks: a large half's whole index in one go is a long task)
const halfIndex = memoOf((half: FlameData): FlameIndex => buildIndex(half, { later: true }));

/** A half's index made whole (what is left of it made now): what the view draws from. */
function wholeHalfIndex(half: FlameData): FlameIndex {
  const index = halfIndex(half);
  warmIndex(index)(NO_DEADLINE);
  return index;
}
const halfColors = memoOf((_: FlameData) => new Map<string, NodeColors>());

function halfColor(half: FlameData, mode: ColorMode, colorBlind: boolean): NodeColors {
  const m = halfColors(half);
  const key = `${mode}:${colorBlind}`;
  let c = m.get(key);
  if (!c) {
    c = nodeColors(half, mode, colorBlind);
    m.set(key, c);
  }
  return c;
}

/** Fills asked for per idle check while a half's colours are worked out ahead. */
const COLOR_CHUNK = 8192;

/**
 * The steps that make the halves' indexes and colours of a sandwich ahead of its view (so
 * opening it only draws), for idle time: each half's index, then its colours in chunks.
 */
export function prepareSandwichSteps(
  sandwich: Sandwich,
  options: Pick<ViewOptions, 'colorMode' | 'colorBlindDiff'>
): IdleStep[] {
  const steps: IdleStep[] = [];
  for (const half of [sandwich.callers, sandwich.callees]) {
    let i = 0;
    steps.push(
      (deadline) => warmIndex(halfIndex(half))(deadline),
      // every fill asked for once: the colours work out per function and per hue on first use,
      // which the first draw would otherwise do
      chunkStep(() => {
        const colors = halfColor(half, options.colorMode, !!options.colorBlindDiff);
        const stop = Math.min(half.count, i + COLOR_CHUNK);
        for (; i < stop; i++) {
          colors.get(i);
        }
        return i >= half.count;
      })
    );
  }
  // the two halves' canvases, with their bitmaps allocated (the main graph gives its own back
  // when the sandwich opens, so the pool then holds three)
  steps.push(() => warmCanvases(2));
  return steps;
}

/**
 * The sandwich of one function: its callers merged over every call site above, grown upward as
 * Grafana draws them (the function in the bottom row, each row above it one caller further
 * out), its callees merged below (the function in their top row); each half
 * zooms on click on its own. Back (or Escape) returns to the graph as it was.
 */
export function SandwichView({
  sandwich,
  unit,
  rootTotal,
  width,
  height,
  options,
  darkTheme,
  onExit,
  notice,
}: SandwichViewProps) {
  const styles = useStyles2(getStyles);
  const size = useSizeClass(width, height);
  const callers = useMemo(() => wholeHalfIndex(sandwich.callers), [sandwich]);
  const callees = useMemo(() => wholeHalfIndex(sandwich.callees), [sandwich]);
  const callerColors = useMemo(
    () => halfColor(sandwich.callers, options.colorMode, !!options.colorBlindDiff),
    [sandwich, options.colorMode, options.colorBlindDiff]
  );
  const calleeColors = useMemo(
    () => halfColor(sandwich.callees, options.colorMode, !!options.colorBlindDiff),
    [sandwich, options.colorMode, options.colorBlindDiff]
  );
  const [focus, setFocus] = useState<{ callers: number; callees: number }>({ callers: 0, callees: 0 });
  const [hover, setHover] = useState<{ half: 'callers' | 'callees'; node: number; x: number; y: number }>();
  const [sourceMenu, setSourceMenu] = useState<{ name: string; x: number; y: number }>();
  const half = Math.max(40, Math.floor((height - BAR - 2 * LABEL) / 2));
  const name = sandwich.callers.names[sandwich.nameIdx];
  const onHoverCallers = useCallback(
    (node: number, x: number, y: number) => setHover(node < 0 ? undefined : { half: 'callers', node, x, y }),
    []
  );
  const onHoverCallees = useCallback(
    (node: number, x: number, y: number) => setHover(node < 0 ? undefined : { half: 'callees', node, x, y }),
    []
  );
  const label = (text: string) => <div className={styles.label}>{text}</div>;
  const common = {
    selected: -1,
    width,
    height: half,
    minBarWidth: options.minBarWidth,
    textAlign: options.textAlign,
    darkTheme,
    onContextMenu: () => undefined,
  };
  return (
    <div
      data-testid="sandwich-view"
      // "false" while the first draw of a deep graph's sandwich is cut at the levels the view shows
      // (the whole merge then replaces it), "true" once both halves are whole
      data-whole={sandwich.depthLimit === undefined}
      className={cx(styles.root, size)}
    >
      <div className={styles.bar}>
        <Button size="sm" variant="secondary" icon="arrow-left" onClick={onExit} aria-label="Exit sandwich view">
          Back
        </Button>
        <span data-testid="sandwich-summary" title={name} className={styles.summary}>
          <b className={styles.name}>{name}</b>
          {` · self ${formatValue(sandwich.self, unit)} · total ${formatValue(sandwich.total, unit)} (${formatPercent(
            rootTotal > 0 ? sandwich.total / rootTotal : 0
          )}) · ${sandwich.sites} call site${sandwich.sites === 1 ? '' : 's'}`}
        </span>
        <SandwichSourceMenu fn={name} callers={sandwich.callers} callees={sandwich.callees} />
        {notice && <FocusNotice notice={notice} />}
      </div>
      {label('Callers: the function at the bottom, each row above it one caller further out')}
      <FlameCanvas
        {...common}
        index={callers}
        inverted
        colors={callerColors}
        focus={focus.callers}
        hovered={hover?.half === 'callers' ? hover.node : -1}
        testId="sandwich-callers-canvas"
        onContextMenu={(n, x, y) => setSourceMenu({ name: sandwich.callers.names[sandwich.callers.nameIdx[n]], x, y })}
        onHover={onHoverCallers}
        onClick={(n) => setFocus((f) => ({ ...f, callers: n }))}
      />
      {label('Callees: what the function calls, merged over every call site')}
      <FlameCanvas
        {...common}
        index={callees}
        colors={calleeColors}
        focus={focus.callees}
        hovered={hover?.half === 'callees' ? hover.node : -1}
        testId="sandwich-callees-canvas"
        onContextMenu={(n, x, y) => setSourceMenu({ name: sandwich.callees.names[sandwich.callees.nameIdx[n]], x, y })}
        onHover={onHoverCallees}
        onClick={(n) => setFocus((f) => ({ ...f, callees: n }))}
      />
      {sourceMenu && <SourceFrameMenu {...sourceMenu} onClose={() => setSourceMenu(undefined)} />}
      {hover && (
        <Tooltip
          index={hover.half === 'callers' ? callers : callees}
          node={hover.node}
          focus={hover.half === 'callers' ? focus.callers : focus.callees}
          clientX={hover.x}
          clientY={hover.y}
          dark={darkTheme}
        />
      )}
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  root: css({ display: 'flex', flexDirection: 'column', minWidth: 0 }),
  bar: css({ height: BAR, display: 'flex', alignItems: 'center', gap: 8, minWidth: 0, flex: 'none' }),
  summary: css({ fontSize: 12, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', minWidth: 0 }),
  name: css({ fontFamily: 'monospace' }),
  label: css({
    height: LABEL,
    fontSize: 11,
    color: theme.colors.text.secondary,
    whiteSpace: 'nowrap',
    overflow: 'hidden',
  }),
});
