// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useMemo } from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { Alert, IconButton, Input, LoadingPlaceholder, Pagination, useStyles2 } from '@grafana/ui';
import { useApp } from '../context';
import { Series } from '../components/Series';
import { unitOf } from '../profileTypes';
import { Line, contributionsOf, formatShare, formatValue, linesOf, runQueries } from '../query';
import { useAsync } from '../useAsync';

/** Services shown per page. */
export const PAGE_SIZE = 50;

/** One service of the list: its total over the range, share of the whole and series. */
export interface ServiceRow {
  name: string;
  total: number;
  share: number;
  line?: Line;
}

/** Rows sorted by total (then name), filtered by a case-insensitive substring of the name. */
export function filterRows(rows: ServiceRow[], search: string): ServiceRow[] {
  const s = search.trim().toLowerCase();
  return rows
    .filter((r) => !s || r.name.toLowerCase().includes(s))
    .sort((a, b) => b.total - a.total || a.name.localeCompare(b.name));
}

/**
 * Every service of the chosen profile type: its series, its total over the range and its
 * share of the whole (a `labels` query by service_name), sorted by total, filtered by name and
 * paged. A click opens the service.
 */
export function ServicesPage() {
  const { ds, type, range, view, go, href, favourites, refresh } = useApp();
  const styles = useStyles2(getStyles);
  const unit = unitOf(type);
  const answer = useAsync(
    () =>
      ds &&
      runQueries(
        ds,
        [
          { refId: 'totals', queryType: 'labels', profileTypeId: type, labelSelector: '{}', groupBy: ['service_name'], limit: 10000 },
          { refId: 'series', queryType: 'metrics', profileTypeId: type, labelSelector: '{}', groupBy: ['service_name'], limit: 10000 },
        ],
        range,
        60
      ),
    [ds, type, range, refresh]
  );
  const rows: ServiceRow[] = useMemo(() => {
    const a = answer.value;
    if (!a) {
      return [];
    }
    const lines = linesOf(a.byRef('series'));
    return contributionsOf(a.byRef('totals'), 'service_name').map((c) => ({
      name: c.value,
      total: c.total,
      share: c.share,
      line: lines.find((l) => l.labels.service_name === c.value),
    }));
  }, [answer.value]);
  const shown = filterRows(rows, view.search);
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const pageNo = Math.min(view.pageNo, pages);
  const slice = shown.slice((pageNo - 1) * PAGE_SIZE, pageNo * PAGE_SIZE);
  const from = range.from.valueOf();
  const to = range.to.valueOf();

  return (
    <div className={styles.page} data-testid="services-page">
      <div className={styles.bar}>
        <Input
          className={styles.search}
          prefix={<span aria-hidden>⌕</span>}
          placeholder="Filter services by name"
          aria-label="Filter services by name"
          defaultValue={view.search}
          onChange={(e) => go({ search: e.currentTarget.value, pageNo: 1 }, true)}
        />
        <span data-testid="services-count">
          {shown.length} of {rows.length} services
        </span>
      </div>
      {answer.error && <Alert title="Query failed" severity="error">{answer.error}</Alert>}
      {answer.value?.error && <Alert title="Query failed" severity="error">{answer.value.error}</Alert>}
      {answer.loading && !answer.value && <LoadingPlaceholder text="Loading services…" />}
      {answer.value && !rows.length && !answer.value.error && (
        <Alert title="No services" severity="info">
          No profiles of this type in the range: pick another profile type or a wider range.
        </Alert>
      )}
      <div className={styles.list} role="list">
        {slice.map((r) => {
          const url = href({ page: 'service', service: r.name, filters: [], by: '', frames: '', search: '', pageNo: 1 });
          return (
            <div key={r.name} className={styles.row} role="listitem" data-testid="service-row" data-service={r.name} data-total={r.total}>
              <IconButton
                name={favourites.has(url) ? 'favorite' : 'star'}
                aria-label={`${favourites.has(url) ? 'Unstar' : 'Star'} ${r.name}`}
                onClick={() => favourites.toggle({ kind: 'service', title: r.name, url })}
              />
              <a
                className={styles.name}
                href={url}
                data-testid="service-link"
                onClick={(e) => {
                  e.preventDefault();
                  go({ page: 'service', service: r.name, filters: [], by: '', frames: '', search: '', pageNo: 1 });
                }}
              >
                {r.name}
              </a>
              <div className={styles.spark}>
                {r.line && <Series lines={[r.line]} from={from} to={to} height={28} unit={unit} small testId="service-spark" />}
              </div>
              <span className={styles.total} data-testid="service-total">
                {formatValue(r.total, unit)}
              </span>
              <span className={styles.share} data-testid="service-share" title="share of the whole">
                <span className={styles.shareBar} style={{ width: `${Math.round(r.share * 100)}%` }} />
                <span className={styles.shareText}>{formatShare(r.share)}</span>
              </span>
            </div>
          );
        })}
      </div>
      {pages > 1 && (
        <Pagination currentPage={pageNo} numberOfPages={pages} onNavigate={(n) => go({ pageNo: n })} />
      )}
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  page: css({ display: 'flex', flexDirection: 'column', gap: theme.spacing(1), minWidth: 0 }),
  bar: css({ display: 'flex', flexWrap: 'wrap', gap: theme.spacing(1), alignItems: 'center' }),
  search: css({ maxWidth: 360, flex: '1 1 200px' }),
  list: css({ display: 'flex', flexDirection: 'column', minWidth: 0 }),
  row: css({
    display: 'grid',
    gridTemplateColumns: 'auto minmax(8em, 2fr) minmax(60px, 3fr) minmax(5em, auto) minmax(6em, 1fr)',
    alignItems: 'center',
    gap: theme.spacing(1),
    padding: theme.spacing(0.5, 0),
    borderBottom: `1px solid ${theme.colors.border.weak}`,
    minWidth: 0,
  }),
  name: css({ color: theme.colors.text.link, overflowWrap: 'anywhere', minWidth: 0 }),
  spark: css({ minWidth: 0 }),
  total: css({ textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }),
  share: css({ position: 'relative', height: 18, background: theme.colors.background.secondary, minWidth: 0 }),
  shareBar: css({ position: 'absolute', left: 0, top: 0, bottom: 0, background: theme.colors.primary.transparent }),
  shareText: css({ position: 'relative', paddingLeft: 4, fontSize: 12, whiteSpace: 'nowrap' }),
});
