// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useMemo, useState } from 'react';
import { css } from '@emotion/css';
import { dateTimeFormat, GrafanaTheme2 } from '@grafana/data';
import { Alert, Button, LoadingPlaceholder, RadioButtonGroup, useStyles2 } from '@grafana/ui';
import type { EmberscopeQuery } from '../../datasource/types';
import { useApp } from '../context';
import { Flame } from '../components/Flame';
import { FilterChips } from '../components/FilterChips';
import { Series } from '../components/Series';
import { deploysOf, lastHourPreset, lastTwoDeploys, versionLabel } from '../deploys';
import { unitOf } from '../profileTypes';
import { flameTotals, formatValue, isFlame, linesOf, msRange, runQueries } from '../query';
import { Span, selectorOf } from '../state';
import { useAsync } from '../useAsync';

/** A diff query with its own baseline range (the backend's `baseline: {from, to}`). */
type DiffQuery = EmberscopeQuery & { baseline: Span };

/** The diff of comparison against baseline, both on the selector. */
export function diffQuery(type: string, sel: string, baseline: Span, comparison: Span): DiffQuery {
  return {
    refId: 'diff',
    queryType: 'diff',
    profileTypeId: type,
    labelSelector: sel,
    baseline: { from: baseline.from, to: baseline.to },
    comparison: { labelSelector: sel, from: comparison.from, to: comparison.to },
    maxNodes: 16384,
  };
}

const BASE_COLOUR = '#5794f2';
const COMP_COLOUR = '#f2495c';
const fmt = (s: Span) =>
  `${dateTimeFormat(s.from, { format: 'MM-DD HH:mm:ss' })} – ${dateTimeFormat(s.to, { format: 'MM-DD HH:mm:ss' })}`;

/**
 * A diff of two ranges of one service: the baseline and the comparison are dragged on the
 * series (or set by a preset), and the diff flame graph with its table shows the comparison
 * against the baseline.
 */
export function DiffPage() {
  const { ds, type, range, view, go, refresh } = useApp();
  const styles = useStyles2(getStyles);
  const unit = unitOf(type);
  const sel = selectorOf(view.service, view.filters);
  const from = range.from.valueOf();
  const to = range.to.valueOf();
  const [picking, setPicking] = useState<'baseline' | 'comparison'>(view.baseline && !view.comparison ? 'comparison' : 'baseline');
  const names = useAsync(() => ds?.labelNames(sel, { from, to }), [ds, sel, from, to]);
  const version = versionLabel(names.value ?? []);
  const series = useAsync(
    () =>
      ds &&
      runQueries(
        ds,
        [
          { refId: 'total', queryType: 'metrics', profileTypeId: type, labelSelector: sel, groupBy: [] },
          ...(version ? [{ refId: 'deploys', queryType: 'metrics' as const, profileTypeId: type, labelSelector: sel, groupBy: [version], limit: 100 }] : []),
        ],
        range
      ),
    [ds, type, sel, version, range, refresh]
  );
  const lines = useMemo(() => linesOf(series.value?.byRef('total') ?? []), [series.value]);
  const step = lines[0]?.times.length > 1 ? lines[0].times[1] - lines[0].times[0] : 0;
  const deploys = useMemo(
    () => (version ? deploysOf(linesOf(series.value?.byRef('deploys') ?? []), version, step) : []),
    [series.value, version, step]
  );
  const lastTwo = lastTwoDeploys(deploys);
  const { baseline, comparison } = view;
  const diff = useAsync(
    () =>
      ds && baseline && comparison
        ? runQueries(
            ds,
            [
              diffQuery(type, sel, baseline, comparison),
            ],
            msRange(Math.min(baseline.from, comparison.from), Math.max(baseline.to, comparison.to))
          )
        : undefined,
    [ds, type, sel, baseline?.from, baseline?.to, comparison?.from, comparison?.to, refresh]
  );
  const flame = diff.value?.byRef('diff').find(isFlame);

  const pick = (s: Span) => {
    if (picking === 'baseline') {
      go({ baseline: s });
      setPicking('comparison');
    } else {
      go({ comparison: s });
      setPicking('baseline');
    }
  };
  const bands = [
    ...(baseline ? [{ ...baseline, name: 'baseline', color: BASE_COLOUR }] : []),
    ...(comparison ? [{ ...comparison, name: 'comparison', color: COMP_COLOUR }] : []),
  ];

  return (
    <div className={styles.page} data-testid="diff-page">
      <div className={styles.bar}>
        <span>Drag on the series to pick the</span>
        <RadioButtonGroup
          size="sm"
          aria-label="Dragging picks"
          options={[
            { value: 'baseline', label: 'Baseline' },
            { value: 'comparison', label: 'Comparison' },
          ]}
          value={picking}
          onChange={(v) => setPicking(v as typeof picking)}
        />
        <Button size="sm" variant="secondary" onClick={() => go(lastHourPreset(to))} data-testid="preset-hour">
          Last hour against the hour before
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={!lastTwo}
          tooltip={
            version
              ? lastTwo
                ? `${version}=${lastTwo.comparison.version} against ${version}=${lastTwo.baseline.version}`
                : `only one value of ${version} in the range`
              : `no version label (${['service_version', 'version', 'git commit labels'].join(', ')}) on this service`
          }
          onClick={() => lastTwo && go({ baseline: lastTwo.baseline.range, comparison: lastTwo.comparison.range })}
          data-testid="preset-deploy"
        >
          This deploy against the previous one
        </Button>
      </div>
      <FilterChips />
      <div className={styles.ranges}>
        <span data-testid="baseline-range" className={styles.baseline}>
          Baseline: {baseline ? fmt(baseline) : 'not picked'}
        </span>
        <span data-testid="comparison-range" className={styles.comparison}>
          Comparison: {comparison ? fmt(comparison) : 'not picked'}
        </span>
        {version && <span data-testid="version-label">deploys by {version}: {deploys.map((d) => d.version).join(', ') || 'none'}</span>}
      </div>
      {series.error && <Alert title="Query failed" severity="error">{series.error}</Alert>}
      {series.value?.error && <Alert title="Query failed" severity="error">{series.value.error}</Alert>}
      {diff.error && <Alert title="Diff failed" severity="error">{diff.error}</Alert>}
      {diff.value?.error && <Alert title="Diff failed" severity="error">{diff.value.error}</Alert>}
      <Series lines={lines} from={from} to={to} height={140} unit={unit} bands={bands} onSelect={pick} testId="diff-series" />
      {diff.loading && <LoadingPlaceholder text="Loading the diff…" />}
      {flame && (
        <>
          <div data-testid="diff-totals" data-baseline={flameTotals(flame).total} data-comparison={flameTotals(flame).right} className={styles.totals}>
            Baseline <b>{formatValue(flameTotals(flame).total, unit)}</b>, comparison{' '}
            <b>{formatValue(flameTotals(flame).right ?? 0, unit)}</b>
          </div>
          <Flame frame={flame} range={range} title={`${view.service}: diff`} />
        </>
      )}
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  page: css({ display: 'flex', flexDirection: 'column', gap: theme.spacing(1), minWidth: 0 }),
  bar: css({ display: 'flex', flexWrap: 'wrap', gap: theme.spacing(1), alignItems: 'center' }),
  ranges: css({ display: 'flex', flexWrap: 'wrap', gap: theme.spacing(2), fontSize: 12 }),
  baseline: css({ color: BASE_COLOUR }),
  comparison: css({ color: COMP_COLOUR }),
  totals: css({ fontSize: 12 }),
});
