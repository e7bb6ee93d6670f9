// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { css } from '@emotion/css';
import { dateTimeFormat, GrafanaTheme2 } from '@grafana/data';
import { Badge, Button, InlineSwitch, RadioButtonGroup, useStyles2 } from '@grafana/ui';
import { DEFAULT_LIVE_INTERVAL, DEFAULT_LIVE_WINDOW, EmberscopeQuery } from '../datasource/types';
import type { PanelOptions } from '../panel/options';
import type { Exemplar } from '../shared/exemplars';
import type { TimeSpan } from './pageState';

const RANGES = [
  { value: 15 * 60_000, label: '15m' },
  { value: 60 * 60_000, label: '1h' },
  { value: 6 * 3600_000, label: '6h' },
  { value: 24 * 3600_000, label: '24h' },
];

const COLOUR_MODES = [
  { value: 'self', label: 'by self' },
  { value: 'selfNode', label: 'by self per node' },
  { value: 'total', label: 'by total' },
  { value: 'package', label: 'by package' },
];

export interface ViewBarProps {
  range: TimeSpan;
  /** The last query run (a live one shows its badge and no range buttons). */
  ran?: EmberscopeQuery;
  /** The exemplar whose flamegraph is shown, with a way back to the whole range. */
  picked?: Exemplar;
  onClosePicked: () => void;
  /** The range picked on the series, with a way back to the whole range. */
  selection?: TimeSpan;
  onClearSelection: () => void;
  /** Whether the query type draws a flamegraph: then its colour mode and table switch are shown. */
  flameControls: boolean;
  options: PanelOptions;
  onOptionsChange: (o: PanelOptions) => void;
  /** Runs the query over the last `ms` up to now. */
  onRange: (ms: number) => void;
}

/** What the page shows (range, live, what was opened on the series) and how the panel and range are set. */
export function ViewBar(props: ViewBarProps) {
  const { range, ran, picked, selection, options, onOptionsChange } = props;
  const styles = useStyles2(getStyles);
  return (
    <div className={styles.bar}>
      <span data-testid="time-range">
        {dateTimeFormat(range.from, { format: 'YYYY-MM-DD HH:mm:ss' })} –{' '}
        {dateTimeFormat(range.to, { format: 'YYYY-MM-DD HH:mm:ss' })}
      </span>
      {ran?.live && (
        <span data-testid="live-badge">
          <Badge
            color="green"
            icon="sync"
            text={`live (polling) every ${ran.liveInterval || DEFAULT_LIVE_INTERVAL}, last ${ran.liveWindow || DEFAULT_LIVE_WINDOW}`}
          />
        </span>
      )}
      {picked && (
        <span data-testid="exemplar-picked">
          flamegraph of {picked.kind} {picked.id}
          {picked.traceId ? ` (trace ${picked.traceId})` : ''}{' '}
          <Button size="sm" variant="secondary" fill="text" onClick={props.onClosePicked}>
            whole range
          </Button>
        </span>
      )}
      {selection && (
        <span data-testid="selection-range">
          flamegraph of {dateTimeFormat(selection.from, { format: 'HH:mm:ss' })}–
          {dateTimeFormat(selection.to, { format: 'HH:mm:ss' })}{' '}
          <Button size="sm" variant="secondary" fill="text" onClick={props.onClearSelection}>
            whole range
          </Button>
        </span>
      )}
      {props.flameControls && (
        <>
          <RadioButtonGroup
            size="sm"
            aria-label="Colour mode"
            options={COLOUR_MODES}
            value={options.colorMode}
            onChange={(v) => onOptionsChange({ ...options, colorMode: v as PanelOptions['colorMode'] })}
          />
          <InlineSwitch
            label="Show top table"
            showLabel
            value={options.showTable}
            onChange={(e) => onOptionsChange({ ...options, showTable: e.currentTarget.checked })}
          />
        </>
      )}
      {!ran?.live && (
        <RadioButtonGroup
          size="sm"
          aria-label="Time range"
          options={RANGES}
          value={Math.round(range.to - range.from)}
          onChange={props.onRange}
        />
      )}
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  bar: css({ display: 'flex', flexWrap: 'wrap', gap: theme.spacing(1.5), fontSize: 12, alignItems: 'center' }),
});
