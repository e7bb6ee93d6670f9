// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useMemo } from 'react';
import { css, cx } from '@emotion/css';
import { DataFrame, dateTimeFormat, GrafanaTheme2 } from '@grafana/data';
import { getDataSourceSrv } from '@grafana/runtime';
import { Alert, LoadingPlaceholder, RadioButtonGroup, useStyles2 } from '@grafana/ui';
import { useApp } from '../context';
import { Series } from '../components/Series';
import { Flame } from '../components/Flame';
import { exemplarsOf, parsePick, pickOf, pickQuery, traceUrl } from '../exemplars';
import { novelProfilesOf } from '../novelty';
import { unitOf } from '../profileTypes';
import { flameTotals, formatValue, isFlame, linesOf, runQueries } from '../query';
import type { EmberscopeOptions } from '../../datasource/types';
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

const HEAT_OPTIONS = [
  { value: 'individual' as const, label: 'Profiles', description: 'Each cell counts whole profiles by their total' },
  { value: 'span' as const, label: 'Spans', description: 'Each cell counts single spans by their total' },
];

/**
 * Spans and novelty: the distribution of per-profile (or per-span) totals over time as a
 * heatmap with its exemplars (a cell opens the service's flame graph over its slot, an exemplar
 * that profile's or that span's flame graph in the page, and a span's trace in the tracing
 * datasource the settings name), and the novelty score over time with novel profiles marked,
 * each linked to its diff against the most similar earlier profile.
 */
export function SpansPage() {
  const { ds, type, range, view, go, href, refresh } = useApp();
  const styles = useStyles2(getStyles);
  const unit = unitOf(type);
  const sel = selectorOf(view.service, view.filters);
  const from = range.from.valueOf();
  const to = range.to.valueOf();
  const heatmapType = view.heat ?? 'individual';
  const pick = parsePick(view.pick);
  // the tracing datasource the datasource's settings name (jsonData.tracingDatasourceUid)
  const tracing = ds
    ? (getDataSourceSrv().getInstanceSettings(ds.uid)?.jsonData as EmberscopeOptions | undefined)?.tracingDatasourceUid
    : undefined;
  const answer = useAsync(
    () =>
      ds &&
      runQueries(
        ds,
        [
          {
            refId: 'heat',
            queryType: 'histogram',
            profileTypeId: type,
            labelSelector: sel,
            groupBy: [],
            heatmapType,
            includeExemplars: true,
          },
          { refId: 'novelty', queryType: 'novelty', profileTypeId: type, labelSelector: sel, groupBy: [] },
        ],
        range
      ),
    [ds, type, sel, range, refresh, heatmapType]
  );
  // the picked exemplar's flame graph: that span's samples, or that one profile
  const picked = useAsync(
    () => ds && pick && runQueries(ds, [pickQuery(pick, type, sel)], range).then((a) => ({ a, pick: view.pick })),
    [ds, type, sel, range, refresh, view.pick]
  );
  // only the answer of the exemplar picked now (an earlier pick's stays until the new one's comes)
  const current = picked.value?.pick === view.pick ? picked.value?.a : undefined;
  const pickedFlame = useMemo(() => current?.byRef('pick').find(isFlame), [current]);
  const exemplars = useMemo(() => exemplarsOf(answer.value?.byRef('heat') ?? []), [answer.value]);
  const pickedExemplar = pick && exemplars.find((e) => e.kind === pick.kind && e.id === pick.id);
  const cells = useMemo(() => cellsOf(answer.value?.byRef('heat') ?? []), [answer.value]);
  const scores = useMemo(
    () =>
      linesOf(answer.value?.byRef('novelty').filter((f) => f.meta?.dataTopic !== 'annotations') ?? []),
    [answer.value]
  );
  const novel = useMemo(() => novelProfilesOf(answer.value?.byRef('novelty') ?? []), [answer.value]);
  const xs = [...new Set(cells.map((c) => c.xMax))].sort((a, b) => a - b);
  const slot = xs.length > 1 ? Math.min(...xs.slice(1).map((x, i) => x - xs[i])) : (to - from) / 20;
  const maxY = Math.max(1, ...cells.map((c) => c.yMax), ...exemplars.map((e) => e.value));
  const maxCount = Math.max(1, ...cells.map((c) => c.count));

  return (
    <div className={styles.page} data-testid="spans-page">
      {answer.error && <Alert title="Query failed" severity="error">{answer.error}</Alert>}
      {answer.value?.error && <Alert title="Query failed" severity="error">{answer.value.error}</Alert>}
      {answer.loading && !answer.value && <LoadingPlaceholder text="Loading…" />}
      <div className={styles.bar}>
        <h4 className={styles.heading}>{heatmapType === 'span' ? 'Spans' : 'Profiles'} by total (heatmap)</h4>
        <RadioButtonGroup
          size="sm"
          options={HEAT_OPTIONS}
          value={heatmapType}
          onChange={(v) => go({ heat: v === 'span' ? 'span' : undefined, pick: undefined })}
          aria-label="Heatmap of"
        />
        <span className={styles.small} data-testid="exemplar-count">
          {exemplars.length} exemplar(s): click one to open its flame graph
        </span>
      </div>
      <div data-testid="heatmap" className={styles.heatmap}>
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
                className={styles.cell}
                // placed by its slot and totals, as opaque as it has profiles
                style={{
                  left: `${Math.max(0, left)}%`,
                  width: `max(3px, ${width}%)`,
                  bottom: `${bottom}%`,
                  height: `${height}%`,
                  opacity: 0.25 + 0.75 * (c.count / maxCount),
                }}
              />
            );
          })}
        {exemplars.map((e) => {
          const left = ((e.time - from) / (to - from)) * 100;
          const bottom = (e.value / maxY) * 100;
          const chosen = pick?.kind === e.kind && pick.id === e.id;
          return (
            <a
              key={pickOf(e)}
              data-testid="heat-exemplar"
              data-id={e.id}
              data-kind={e.kind}
              href={href({ pick: pickOf(e) })}
              onClick={(ev) => {
                ev.preventDefault();
                go({ pick: pickOf(e) });
              }}
              title={`${e.kind === 'span' ? 'span' : 'profile'} ${e.id} at ${dateTimeFormat(e.time, { format: 'HH:mm:ss' })}: ${formatValue(e.value, unit)}; open its flame graph`}
              className={cx(styles.exemplar, chosen && styles.chosen)}
              // centred on its time and total
              style={{
                left: `calc(${Math.min(100, Math.max(0, left))}% - 5px)`,
                bottom: `calc(${Math.min(100, Math.max(0, bottom))}% - 5px)`,
              }}
            />
          );
        })}
      </div>
      {pick && (
        <div data-testid="picked-exemplar" className={styles.picked}>
          <div className={styles.pickedBar}>
            <b data-testid="picked-title" className={styles.wrap}>
              Flame graph of {pick.kind} {pick.id}
            </b>
            {pickedFlame && (
              <span data-testid="picked-total" data-total={flameTotals(pickedFlame).total}>
                total {formatValue(flameTotals(pickedFlame).total, unit)}
              </span>
            )}
            {pickedExemplar?.traceId && tracing && (
              <a
                data-testid="trace-link"
                className={styles.link}
                href={traceUrl(tracing, pickedExemplar.traceId, range)}
              >
                View trace {pickedExemplar.traceId}
              </a>
            )}
            <a
              data-testid="picked-close"
              className={styles.link}
              href={href({ pick: undefined })}
              onClick={(ev) => {
                ev.preventDefault();
                go({ pick: undefined });
              }}
            >
              close
            </a>
          </div>
          {picked.error && <Alert title="Query failed" severity="error">{picked.error}</Alert>}
          {current?.error && <Alert title="Query failed" severity="error">{current.error}</Alert>}
          {picked.loading && !pickedFlame && <LoadingPlaceholder text="Loading…" />}
          {pickedFlame && <Flame frame={pickedFlame} range={range} title={`${pick.kind} ${pick.id}`} />}
        </div>
      )}
      <h4 className={styles.heading}>Novelty score</h4>
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
        <ul data-testid="novel-profiles" className={styles.novel}>
          {novel.map((p) => (
            <li key={p.time} className={styles.wrap}>
              <b>{dateTimeFormat(p.time, { format: 'MM-DD HH:mm:ss' })}</b> {p.title}: {p.text}{' '}
              <a
                data-testid="novel-diff-link"
                className={styles.link}
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
        answer.value && <span className={styles.small}>No novel profile in the range.</span>
      )}
    </div>
  );
}

const HEATMAP_HEIGHT = 160;

const getStyles = (theme: GrafanaTheme2) => ({
  page: css({ display: 'flex', flexDirection: 'column', gap: theme.spacing(1), minWidth: 0 }),
  bar: css({ display: 'flex', flexWrap: 'wrap', gap: theme.spacing(1), alignItems: 'center' }),
  heading: css({ margin: 0 }),
  small: css({ fontSize: 12 }),
  wrap: css({ overflowWrap: 'anywhere' }),
  link: css({ color: theme.colors.text.link }),
  heatmap: css({
    position: 'relative',
    height: HEATMAP_HEIGHT,
    minWidth: 0,
    background: theme.colors.background.secondary,
  }),
  cell: css({ position: 'absolute', background: theme.visualization.getColorByName('orange') }),
  exemplar: css({
    position: 'absolute',
    zIndex: 1,
    width: 10,
    height: 10,
    transform: 'rotate(45deg)',
    background: theme.visualization.getColorByName('blue'),
    border: `1px solid ${theme.colors.background.primary}`,
  }),
  chosen: css({ background: theme.colors.primary.main }),
  picked: css({ display: 'flex', flexDirection: 'column', gap: theme.spacing(0.5), minWidth: 0 }),
  pickedBar: css({
    display: 'flex',
    flexWrap: 'wrap',
    gap: theme.spacing(1),
    alignItems: 'baseline',
    fontSize: 12,
  }),
  novel: css({ margin: 0, paddingLeft: 16, fontSize: 12 }),
});
