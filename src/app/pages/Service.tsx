// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useMemo, useState } from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { getBackendSrv, locationService } from '@grafana/runtime';
import { Alert, Button, InlineField, LoadingPlaceholder, Select, useStyles2 } from '@grafana/ui';
import type { EmberscopeQuery } from '../../datasource/types';
import { useApp } from '../context';
import { Flame } from '../components/Flame';
import { FilterChips } from '../components/FilterChips';
import { Series } from '../components/Series';
import { dashboardOf, exploreUrl } from '../links';
import { unitOf } from '../profileTypes';
import { flameTotals, formatValue, isFlame, linesOf, runQueries } from '../query';
import { selectorOf } from '../state';
import { useAsync } from '../useAsync';

/** The query of a service view: its selector, the series' group-by and the flame graph's virtual frames. */
export function serviceQuery(type: string, service: string, filters: Parameters<typeof selectorOf>[1], frames: string): EmberscopeQuery {
  const sel = selectorOf(service, filters);
  return {
    refId: 'A',
    queryType: 'both',
    profileTypeId: type,
    labelSelector: sel,
    groupBy: frames ? [frames] : [],
    expr: frames ? `${type}${sel} by (${frames})` : undefined,
    maxNodes: 16384,
  };
}

/** The label names worth grouping by: not hidden (`__name__`), not the service name. */
export const visibleLabels = (names: string[]) => names.filter((n) => !n.startsWith('__') && n !== 'service_name');

/**
 * One service: its series (grouped by a label picked from the labels API) over the flame graph
 * and top table of the plugin's panel, with "Open in Explore" and "Add to dashboard" carrying
 * the same query. Dragging across the series narrows the range.
 */
export function ServicePage() {
  const { ds, type, range, view, go, refresh } = useApp();
  const styles = useStyles2(getStyles);
  const unit = unitOf(type);
  const sel = selectorOf(view.service, view.filters);
  const rangeMs = { from: range.from.valueOf(), to: range.to.valueOf() };
  const names = useAsync(() => ds?.labelNames(sel, rangeMs), [ds, sel, rangeMs.from, rangeMs.to]);
  const query = serviceQuery(type, view.service, view.filters, view.frames);
  const answer = useAsync(
    () =>
      ds &&
      runQueries(
        ds,
        [
          { ...query, refId: 'flame', queryType: 'profile' },
          {
            refId: 'series',
            queryType: 'metrics',
            profileTypeId: type,
            labelSelector: sel,
            groupBy: view.by ? [view.by] : [],
          },
        ],
        range
      ),
    [ds, type, sel, view.by, view.frames, range, refresh]
  );
  const flame = useMemo(() => answer.value?.byRef('flame').find(isFlame), [answer.value]);
  const lines = useMemo(
    () =>
      linesOf(answer.value?.byRef('series') ?? []).map((l) =>
        // profiles without the label make a series of their own
        view.by && !(view.by in l.labels) ? { ...l, name: `no ${view.by}` } : l
      ),
    [answer.value, view.by]
  );
  const [dashError, setDashError] = useState<string>();
  const labelOptions = visibleLabels(names.value ?? []).map((n) => ({ value: n, label: n }));

  const addToDashboard = async () => {
    setDashError(undefined);
    try {
      const res = await getBackendSrv().post<{ url: string }>(
        '/api/dashboards/db',
        { dashboard: dashboardOf(`${view.service} profile`, ds!.uid, query, range), overwrite: false, message: 'from the Emberscope app' },
        { showErrorAlert: false }
      );
      locationService.push(res.url);
    } catch (e) {
      const err = e as { data?: { message?: string }; message?: string; status?: number };
      setDashError(`Could not create the dashboard: ${err.data?.message ?? err.message ?? String(e)}`);
    }
  };

  return (
    <div className={styles.page} data-testid="service-page">
      <div className={styles.bar}>
        <h3 className={styles.name} data-testid="service-name">
          {view.service}
        </h3>
        <InlineField label="Series by" tooltip="A label from the labels API">
          <Select
            aria-label="Series by"
            inputId="emberscope-app-series-by"
            width={24}
            isClearable
            isLoading={names.loading}
            options={labelOptions}
            value={view.by || null}
            onChange={(v) => go({ by: v?.value ?? '' })}
            placeholder="total"
          />
        </InlineField>
        <InlineField label="Frames by" tooltip="Turn a label's values into virtual frames at the base of the flame graph">
          <Select
            aria-label="Frames by"
            inputId="emberscope-app-frames-by"
            width={24}
            isClearable
            options={labelOptions}
            value={view.frames || null}
            onChange={(v) => go({ frames: v?.value ?? '' })}
            placeholder="none"
          />
        </InlineField>
        <Button
          variant="secondary"
          icon="compass"
          data-testid="open-explore"
          onClick={() => locationService.push(exploreUrl(ds!.uid, query, range))}
        >
          Open in Explore
        </Button>
        <Button variant="secondary" icon="apps" data-testid="add-dashboard" onClick={addToDashboard}>
          Add to dashboard
        </Button>
      </div>
      <FilterChips />
      {dashError && <Alert title="Add to dashboard" severity="error" onRemove={() => setDashError(undefined)}>{dashError}</Alert>}
      {names.error && <Alert title="Labels" severity="warning">{names.error}</Alert>}
      {answer.error && <Alert title="Query failed" severity="error">{answer.error}</Alert>}
      {answer.value?.error && <Alert title="Query failed" severity="error">{answer.value.error}</Alert>}
      {answer.loading && !answer.value && <LoadingPlaceholder text="Loading…" />}
      <Series
        lines={lines}
        from={range.from.valueOf()}
        to={range.to.valueOf()}
        height={140}
        unit={unit}
        onSelect={(s) => go({ from: String(s.from), to: String(s.to) })}
      />
      {flame && (
        <>
          <div data-testid="flame-total" data-total={flameTotals(flame).total} className={styles.total}>
            Total of the flame graph: <b>{formatValue(flameTotals(flame).total, unit)}</b>
          </div>
          <Flame frame={flame} range={range} title={view.service} request={answer.value?.request} />
        </>
      )}
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  page: css({ display: 'flex', flexDirection: 'column', gap: theme.spacing(1), minWidth: 0 }),
  bar: css({ display: 'flex', flexWrap: 'wrap', gap: theme.spacing(1), alignItems: 'center' }),
  name: css({ margin: 0, overflowWrap: 'anywhere' }),
  total: css({ fontSize: 12 }),
});
