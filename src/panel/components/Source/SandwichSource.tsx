// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useMemo } from 'react';
import { ContextMenu, Dropdown, Menu, MenuItem, ToolbarButton } from '@grafana/ui';
import { FlameData } from '../../../shared/flameData';
import { useSourceOpener } from './SourceContext';

/** How many callers and callees the sandwich's source menu lists. */
const LISTED = 8;

/** The distinct names one level from a half's root, by their summed total, largest first. */
export function nextLevelNames(half: FlameData, count = LISTED): string[] {
  const sums = new Map<string, number>();
  for (let i = 1; i < half.count; i++) {
    if (half.level[i] === 1) {
      const name = half.names[half.nameIdx[i]];
      sums.set(name, (sums.get(name) ?? 0) + Math.abs(half.value[i]));
    }
  }
  return [...sums.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, count)
    .map(([n]) => n);
}

/**
 * The sandwich's "Source" menu: the function itself, its direct callers and its direct callees
 * (the largest first), each opening its source view. A menu button, so it works from the keyboard.
 */
export function SandwichSourceMenu({ fn, callers, callees }: { fn: string; callers: FlameData; callees: FlameData }) {
  const source = useSourceOpener();
  const callerNames = useMemo(() => nextLevelNames(callers), [callers]);
  const calleeNames = useMemo(() => nextLevelNames(callees), [callees]);
  if (!source) {
    return null;
  }
  const item = (name: string, group: string) => (
    <MenuItem
      key={`${group}:${name}`}
      label={name}
      ariaLabel={`Source of ${name}`}
      testId={`sandwich-source-${group}`}
      onClick={() => source.open(name)}
    />
  );
  const menu = (
    <Menu>
      {item(fn, 'function')}
      {callerNames.length > 0 && <Menu.Group label="Callers">{callerNames.map((n) => item(n, 'caller'))}</Menu.Group>}
      {calleeNames.length > 0 && <Menu.Group label="Callees">{calleeNames.map((n) => item(n, 'callee'))}</Menu.Group>}
    </Menu>
  );
  return (
    <Dropdown overlay={menu} placement="bottom-start">
      <ToolbarButton
        icon="brackets-curly"
        data-testid="sandwich-source"
        aria-label={`Source of ${fn}, its callers or callees`}
      >
        Source
      </ToolbarButton>
    </Dropdown>
  );
}

/** A frame's context menu in the sandwich's halves: the frame's source. */
export function SourceFrameMenu({ name, x, y, onClose }: { name: string; x: number; y: number; onClose: () => void }) {
  const source = useSourceOpener();
  if (!source) {
    return null;
  }
  return (
    <ContextMenu
      x={x}
      y={y}
      onClose={onClose}
      renderMenuItems={() => (
        <MenuItem
          label={`Source of ${name}`}
          icon="brackets-curly"
          onClick={() => {
            source.open(name);
            onClose();
          }}
        />
      )}
    />
  );
}
