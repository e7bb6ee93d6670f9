// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useLayoutEffect, useRef, useState } from 'react';
import { css, cx } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { Portal, useStyles2 } from '@grafana/ui';
import { percentBase } from '../../../shared/flameData';
import { FlameIndex } from '../../model/flameIndex';
import { diffChange } from '../../model/colors';
import { formatPercent, formatValue } from '../../model/format';

export interface TooltipProps {
  index: FlameIndex;
  node: number;
  focus: number;
  clientX: number;
  clientY: number;
  dark: boolean;
  /** Rows added after the node's numbers (a collapsed chain's frames). */
  extra?: Array<[string, string]>;
}

/** Rows of the tooltip for node: label → value, as shown to the user. */
export function tooltipRows(index: FlameIndex, node: number, focus: number): Array<[string, string]> {
  const d = index.data;
  const unit = d.unit;
  const root = percentBase(d) || 1;
  const fz = d.value[focus] || 1;
  const rows: Array<[string, string]> = [];
  const pct = (v: number) =>
    focus > 0
      ? `${formatPercent(v / root)} of total, ${formatPercent(v / fz)} of zoomed`
      : `${formatPercent(v / root)} of total`;
  rows.push(['Total', `${formatValue(d.value[node], unit)} (${pct(d.value[node])})`]);
  rows.push(['Self', `${formatValue(d.self[node], unit)} (${pct(d.self[node])})`]);
  if (d.valueRight && d.selfRight) {
    const right = d.valueRight[node];
    const left = d.value[node] - right;
    const totalRight = d.valueRight[0];
    const totalLeft = d.value[0] - totalRight;
    rows.push(['Baseline', `${formatValue(left, unit)} (${formatPercent(totalLeft ? left / totalLeft : 0)})`]);
    rows.push(['Comparison', `${formatValue(right, unit)} (${formatPercent(totalRight ? right / totalRight : 0)})`]);
    const change = diffChange(left, right, totalLeft, totalRight);
    rows.push([
      'Change',
      `${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)}%${Math.abs(change) === 1 ? ' or more' : ''}`,
    ]);
  }
  if (d.virtual && d.virtual[node] && d.virtualLabelIdx) {
    const k = d.virtualLabelIdx[node];
    rows.push(['Label', `${k >= 0 ? d.names[k] : '?'}=${d.names[d.nameIdx[node]]}`]);
  }
  return rows;
}

/**
 * Hover tooltip: the full name and the node's numbers, at the cursor and kept inside the
 * viewport. It is rendered in a portal (as @grafana/ui's ContextMenu is), outside the panel:
 * Grafana's panel box has `contain: size layout` (and may be transformed), which makes it the
 * containing block of a `position: fixed` descendant, so a tooltip inside the panel would be
 * placed the panel's offset away from the cursor.
 */
export function Tooltip({ index, node, focus, clientX, clientY, dark, extra }: TooltipProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState({ left: clientX + 12, top: clientY + 12 });
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) {
      return;
    }
    const w = el.offsetWidth;
    const h = el.offsetHeight;
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    let left = clientX + 12;
    let top = clientY + 12;
    if (left + w > vw - 4) {
      left = Math.max(4, clientX - w - 12);
    }
    if (top + h > vh - 4) {
      top = Math.max(4, clientY - h - 12);
    }
    setPos({ left, top });
  }, [clientX, clientY, node]);
  const styles = useStyles2(getStyles, dark);
  const d = index.data;
  return (
    <Portal>
      <div
        ref={ref}
        data-testid="flamegraph-tooltip"
        role="tooltip"
        // where the pointer is: a class per place (emotion keeps them), the look from getStyles
        className={cx(styles.tooltip, css({ left: pos.left, top: pos.top }))}
      >
        <div data-testid="tooltip-name" className={styles.name}>
          {d.names[d.nameIdx[node]]}
        </div>
        <table className={styles.table}>
          <tbody>
            {[...tooltipRows(index, node, focus), ...(extra ?? [])].map(([k, v]) => (
              <tr key={k} data-testid={`tooltip-${k.toLowerCase()}`}>
                <td className={styles.key}>{k}</td>
                <td>{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Portal>
  );
}

const getStyles = (_theme: GrafanaTheme2, dark: boolean) => ({
  tooltip: css({
    position: 'fixed',
    zIndex: 1000,
    maxWidth: 'min(560px, calc(100vw - 8px))',
    padding: '6px 8px',
    borderRadius: 4,
    pointerEvents: 'none',
    font: '12px sans-serif',
    background: dark ? '#22252b' : '#ffffff',
    color: dark ? '#e6e6e6' : '#1b1b1f',
    boxShadow: '0 2px 8px rgba(0,0,0,0.35)',
    overflowWrap: 'anywhere',
  }),
  name: css({ fontFamily: 'monospace', fontWeight: 600, marginBottom: 4 }),
  table: css({ borderCollapse: 'collapse' }),
  key: css({ paddingRight: 8, opacity: 0.75, verticalAlign: 'top' }),
});
