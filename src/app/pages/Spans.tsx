// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useMemo } from 'react';
import { DataFrame, dateTimeFormat } from '@grafana/data';
import { Alert, LoadingPlaceholder, useTheme2 } from '@grafana/ui';
import { useApp } from '../context';
import { Series } from '../components/Series';
import { novelProfilesOf } from '../novelty';
import { unitOf } from '../profileTypes';
import { formatValue, linesOf, runQueries } from '../query';
import { selectorOf } from '../state';
import { useAsync } from '../useAsync';

/** One heatmap cell: the slot ending at xMax, the totals [yMin, yMax), and how many profiles. */
export interface Cell {
  xMax: number;
  yMin: number;
  yMax: number;
  count: number;
}

/** The cells of a heatmap-cells frame (`xMax`, `yMin`, `yMax`, `count`). */
export function cellsOf(frames: DataFrame[]): Cell[] {
  const f = frames.find((x) => x.fields.some((y) => y.name === 'yMin') && x.fields.some((y) => y.name === 'count'));
  if (!f) {
    return [];
  }
  const col = (n: string) => f.fields.find((x) => x.name === n)?.values ?? [];
  const xs = col('xMax');
  const lo = col('yMin');
  const hi = col('yMax');
  const n = col('count');
  return xs.map((x, i) => ({ xMax: Number(x), yMin: Number(lo[i]), yMax: Number(hi[i]), count: Number(n[i]) }));
}

/**
 * The Service view of a cell's profiles. A heatmap server reports each of its own slots by one
 * instant (the embedded store by the slot's end, others by its start), which the cell's
 * bucket [xMax - slot, xMax) holds; the profiles counted there were taken within one slot of it.
 */
export function cellView(c: Cell, slot: number) {
  return { page: 'service' as const, from: String(c.xMax - 2 * slot), to: String(c.xMax + slot) };
}

/**
 * Spans and novelty: the distribution of per-profile totals over time as a heatmap (a cell
 * opens the service's flame graph over its slot), and the novelty score over time with novel
 * profiles marked, each linked to its diff against the most similar earlier profile.
 */
export function SpansPage() {
  const { ds, type, range, view, go, href, refresh } = useApp();
  const theme = useTheme2();
  const unit = unitOf(type);
  const sel = selectorOf(view.service, view.filters);
  const from = range.from.valueOf();
  const to = range.to.valueOf();
  const answer = useAsync(
    () =>
      ds &&
      runQueries(
        ds,
        [
          { refId: 'heat', queryType: 'histogram', profileTypeId: type, labelSelector: sel, groupBy: [] },
          { refId: 'novelty', queryType: 'novelty', profileTypeId: type, labelSelector: sel, groupBy: [] },
        ],
        range
      ),
    [ds, type, sel, range, refresh]
  );
  const cells = useMemo(() => cellsOf(answer.value?.byRef('heat') ?? []), [answer.value]);
  const scores = useMemo(
    () =>
      linesOf(answer.value?.byRef('novelty').filter((f) => f.meta?.dataTopic !== 'annotations') ?? []),
    [answer.value]
  );
  const novel = useMemo(() => novelProfilesOf(answer.value?.byRef('novelty') ?? []), [answer.value]);
  const xs = [...new Set(cells.map((c) => c.xMax))].sort((a, b) => a - b);
  const slot = xs.length > 1 ? Math.min(...xs.slice(1).map((x, i) => x - xs[i])) : (to - from) / 20;
  const maxY = Math.max(1, ...cells.map((c) => c.yMax));
  const maxCount = Math.max(1, ...cells.map((c) => c.count));
  const H = 160;

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 8, minWidth: 0 }} data-testid="spans-page">
      {answer.error && <Alert title="Query failed" severity="error">{answer.error}</Alert>}
      {answer.value?.error && <Alert title="Query failed" severity="error">{answer.value.error}</Alert>}
      {answer.loading && !answer.value && <LoadingPlaceholder text="Loading…" />}
      <h4 style={{ margin: 0 }}>Profiles by total (heatmap)</h4>
      <div data-testid="heatmap" style={{ position: 'relative', height: H, minWidth: 0, background: theme.colors.background.secondary }}>
        {cells
          .filter((c) => c.count > 0)
          .map((c) => {
            const left = ((c.xMax - slot - from) / (to - from)) * 100;
            const width = (slot / (to - from)) * 100;
            const bottom = (c.yMin / maxY) * 100;
            const height = Math.max(2, ((c.yMax - c.yMin) / maxY) * 100);
            return (
              <a
                key={`${c.xMax}-${c.yMin}`}
                data-testid="heat-cell"
                href={href(cellView(c, slot))}
                onClick={(e) => {
                  e.preventDefault();
                  go(cellView(c, slot));
                }}
                title={`${dateTimeFormat(c.xMax, { format: 'HH:mm:ss' })}: ${c.count} profile(s) of ${formatValue(c.yMin, unit)}–${formatValue(c.yMax, unit)}; open this slot's flame graph`}
                style={{
                  position: 'absolute',
                  left: `${Math.max(0, left)}%`,
                  width: `max(3px, ${width}%)`,
                  bottom: `${bottom}%`,
                  height: `${height}%`,
                  background: theme.visualization.getColorByName('orange'),
                  opacity: 0.25 + 0.75 * (c.count / maxCount),
                }}
              />
            );
          })}
      </div>
      <h4 style={{ margin: 0 }}>Novelty score</h4>
      <Series
        lines={scores}
        from={from}
        to={to}
        height={120}
        unit="short"
        marks={novel.map((p) => ({ time: p.time, title: `${p.title}: ${p.text}` }))}
        onMarkClick={(m) => {
          const p = novel.find((x) => x.time === m.time);
          if (p) {
            go({ page: 'diff', baseline: p.baseline, comparison: p.comparison });
          }
        }}
        testId="novelty-series"
      />
      {novel.length > 0 ? (
        <ul data-testid="novel-profiles" style={{ margin: 0, paddingLeft: 16, fontSize: 12 }}>
          {novel.map((p) => (
            <li key={p.time} style={{ overflowWrap: 'anywhere' }}>
              <b>{dateTimeFormat(p.time, { format: 'MM-DD HH:mm:ss' })}</b> {p.title}: {p.text}{' '}
              <a
                data-testid="novel-diff-link"
                style={{ color: theme.colors.text.link }}
                href={href({ page: 'diff', baseline: p.baseline, comparison: p.comparison })}
                onClick={(e) => {
                  e.preventDefault();
                  go({ page: 'diff', baseline: p.baseline, comparison: p.comparison });
                }}
              >
                diff against the most similar earlier profile
              </a>
            </li>
          ))}
        </ul>
      ) : (
        answer.value && <span style={{ fontSize: 12 }}>No novel profile in the range.</span>
      )}
    </div>
  );
}
