// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useMemo } from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { Alert, Button, LoadingPlaceholder, useStyles2 } from '@grafana/ui';
import { useApp } from '../context';
import { FilterChips } from '../components/FilterChips';
import { Series, colourOf } from '../components/Series';
import { unitOf } from '../profileTypes';
import { contributionsOf, formatShare, formatValue, linesOf, runQueries } from '../query';
import { Filter, selectorOf } from '../state';
import { useAsync } from '../useAsync';
import { visibleLabels } from './Service';

/** Top values shown per label (the rest are summed into "other" by the backend). */
export const TOP_VALUES = 5;
/** Labels broken down at most (the first by name). */
export const MAX_LABELS = 24;

/**
 * The filter a label contribution row stands for: the backend names the profiles without the
 * label "(no <label>)", which Prometheus matchers select as the empty value; the row of the
 * values folded past the limit ("other", when there are more rows than the limit) has none.
 */
export function rowFilter(label: string, value: string, rows: number, exclude: boolean): Filter | undefined {
  if (value === 'other' && rows > TOP_VALUES) {
    return undefined;
  }
  return { name: label, value: value === `(no ${label})` ? '' : value, exclude };
}

/**
 * Every label of the service broken down: for each label name its top values as series with
 * their shares. A value can be included or excluded as a filter, or its label turned into
 * virtual frames of the flame graph.
 */
export function LabelsPage() {
  const { ds, type, range, view, go, refresh } = useApp();
  const styles = useStyles2(getStyles);
  const unit = unitOf(type);
  const sel = selectorOf(view.service, view.filters);
  const rangeMs = { from: range.from.valueOf(), to: range.to.valueOf() };
  const names = useAsync(() => ds?.labelNames(sel, rangeMs), [ds, sel, rangeMs.from, rangeMs.to]);
  const labels = useMemo(() => visibleLabels(names.value ?? []).sort().slice(0, MAX_LABELS), [names.value]);
  const answer = useAsync(
    () =>
      ds && labels.length
        ? runQueries(
            ds,
            labels.flatMap((l) => [
              { refId: `t:${l}`, queryType: 'labels' as const, profileTypeId: type, labelSelector: sel, groupBy: [l], limit: TOP_VALUES },
              { refId: `s:${l}`, queryType: 'metrics' as const, profileTypeId: type, labelSelector: sel, groupBy: [l], limit: TOP_VALUES },
            ]),
            range,
            60
          )
        : undefined,
    [ds, type, sel, labels.join(','), range, refresh]
  );
  const add = (f: Filter) => go({ page: 'service', filters: [...view.filters.filter((x) => x.name !== f.name), f] });

  return (
    <div className={styles.page} data-testid="labels-page">
      <FilterChips />
      {names.error && <Alert title="Labels" severity="error">{names.error}</Alert>}
      {answer.error && <Alert title="Query failed" severity="error">{answer.error}</Alert>}
      {answer.value?.error && <Alert title="Query failed" severity="error">{answer.value.error}</Alert>}
      {(names.loading || answer.loading) && !answer.value && <LoadingPlaceholder text="Loading labels…" />}
      {names.value && !labels.length && <Alert title="No labels" severity="info">This service&apos;s profiles carry no label but service_name.</Alert>}
      <div className={styles.grid}>
        {answer.value &&
          labels.map((l) => {
            const rows = contributionsOf(answer.value!.byRef(`t:${l}`), l);
            const lines = linesOf(answer.value!.byRef(`s:${l}`));
            const ordered = rows.map((r) => lines.find((x) => x.labels[l] === r.value)).filter((x) => x !== undefined);
            return (
              <section key={l} className={styles.card} data-testid="label-card" data-label={l}>
                <div className={styles.head}>
                  <h4 className={styles.title}>{l}</h4>
                  <Button size="sm" variant="secondary" fill="text" onClick={() => go({ page: 'service', frames: l })} aria-label={`Frames by ${l}`}>
                    by ({l})
                  </Button>
                </div>
                <Series lines={ordered} from={rangeMs.from} to={rangeMs.to} height={70} unit={unit} small testId="label-series" />
                <table className={styles.table}>
                  <tbody>
                    {rows.map((r) => {
                      const i = ordered.findIndex((x) => x.labels[l] === r.value);
                      return (
                        <tr key={r.value} data-testid="label-value" data-value={r.value} data-total={r.total}>
                          <td className={styles.value}>
                            <span style={{ color: i >= 0 ? colourOf(i) : undefined }}>▬</span> {r.value}
                          </td>
                          <td className={styles.num}>{formatValue(r.total, unit)}</td>
                          <td className={styles.num} data-testid="label-share">{formatShare(r.share)}</td>
                          <td className={styles.actions}>
                            {([false, true] as const).map((exclude) => {
                              const f = rowFilter(l, r.value, rows.length, exclude);
                              return (
                                f && (
                                  <Button
                                    key={String(exclude)}
                                    size="sm"
                                    variant="secondary"
                                    fill="text"
                                    aria-label={`${exclude ? 'Exclude' : 'Include'} ${l}=${r.value}`}
                                    onClick={() => add(f)}
                                  >
                                    {exclude ? '≠' : '='}
                                  </Button>
                                )
                              );
                            })}
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </section>
            );
          })}
      </div>
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  page: css({ display: 'flex', flexDirection: 'column', gap: theme.spacing(1), minWidth: 0 }),
  grid: css({ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 320px), 1fr))', gap: theme.spacing(1) }),
  card: css({ border: `1px solid ${theme.colors.border.weak}`, borderRadius: theme.shape.radius.default, padding: theme.spacing(1), minWidth: 0 }),
  head: css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: theme.spacing(1) }),
  title: css({ margin: 0, overflowWrap: 'anywhere' }),
  table: css({ width: '100%', fontSize: 12, borderCollapse: 'collapse', tableLayout: 'fixed' }),
  value: css({ overflowWrap: 'anywhere', width: '45%' }),
  num: css({ textAlign: 'right', whiteSpace: 'nowrap' }),
  actions: css({ textAlign: 'right', whiteSpace: 'nowrap', width: 64 }),
});
