// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useCallback, useEffect, useMemo, useState } from 'react';
import { AppRootProps, GrafanaTheme2, TimeRange, dateTime } from '@grafana/data';
import { DataSourcePicker, PluginPage, locationService } from '@grafana/runtime';
import { Alert, Button, Icon, Select, Tab, TabsBar, TimeRangePicker, useStyles2 } from '@grafana/ui';
import { css } from '@emotion/css';
import { AppState, Provider, resolveRange } from './context';
import { useFavourites } from './favourites';
import { groupedOptions, defaultType } from './profileTypes';
import { DATASOURCE_TYPE, loadDatasource } from './query';
import { APP_BASE, PAGES, PageId, ViewState, readView, writeView } from './state';
import { useAsync } from './useAsync';
import { ServicesPage } from './pages/Services';
import { ServicePage } from './pages/Service';
import { LabelsPage } from './pages/Labels';
import { DiffPage } from './pages/Diff';
import { SpansPage } from './pages/Spans';
import { FavouritesPage } from './pages/Favourites';
import { OpenFilePage } from './pages/OpenFile';
import { RulesPage } from './pages/Rules';

const PAGE_COMPONENTS: Record<PageId, React.ComponentType> = {
  services: ServicesPage,
  service: ServicePage,
  labels: LabelsPage,
  diff: DiffPage,
  spans: SpansPage,
  favourites: FavouritesPage,
  openfile: OpenFilePage,
  rules: RulesPage,
};

/** Pages that need a service chosen. */
const NEEDS_SERVICE: PageId[] = ['service', 'labels', 'diff', 'spans'];

/** The address Grafana's location service holds now. */
function currentLocation() {
  const l = locationService.getLocation();
  return { pathname: l.pathname, search: l.search };
}

/**
 * The Emberscope app: a profiling home (services, a service's flame graph, its labels, diffs,
 * spans and novelty, favourites) routed under the app's base path. Every view is its address:
 * the page, the datasource, the profile type, the range and the page's own parameters.
 */
export function AppRoot(props: Partial<AppRootProps>) {
  const base = (props.basename || APP_BASE).replace(/\/$/, '');
  const styles = useStyles2(getStyles);
  const [loc, setLoc] = useState(currentLocation);
  useEffect(() => locationService.getHistory().listen(() => setLoc(currentLocation())), []);
  const view = useMemo(() => readView(loc.pathname, loc.search, base), [loc, base]);
  const [refresh, setRefresh] = useState(0);
  const range = useMemo(
    () => resolveRange(view.from, view.to),
    // `now` is read again on refresh
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [view.from, view.to, refresh]
  );
  const href = useCallback((patch: Partial<ViewState>) => writeView({ ...view, ...patch }, base), [view, base]);
  const go = useCallback(
    (patch: Partial<ViewState>, replace = false) => {
      const url = href(patch);
      if (replace) {
        locationService.replace(url);
      } else {
        locationService.push(url);
      }
    },
    [href]
  );
  const ds = useAsync(() => loadDatasource(view.ds), [view.ds]);
  const rangeMs = { from: range.from.valueOf(), to: range.to.valueOf() };
  const types = useAsync(
    () => ds.value?.profileTypes(rangeMs),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [ds.value, rangeMs.from, rangeMs.to]
  );
  const favourites = useFavourites();
  const typeList = types.value ?? [];
  const type = view.type || defaultType(typeList);
  const state: AppState = {
    view,
    go,
    href,
    ds: ds.value,
    range,
    types: typeList,
    type,
    favourites,
    refresh,
  };
  const Page = PAGE_COMPONENTS[view.page];
  const viewUrl = href({});
  const pageTitle = PAGES.find((p) => p.id === view.page)!.title;

  const setRange = (r: TimeRange) => {
    const raw = (v: TimeRange['raw']['from']) => (typeof v === 'string' ? v : String(v.valueOf()));
    go({ from: raw(r.raw.from), to: raw(r.raw.to), baseline: undefined, comparison: undefined });
  };
  const shift = (dir: number) => {
    const d = (range.to.valueOf() - range.from.valueOf()) * dir;
    go({ from: String(range.from.valueOf() + d), to: String(range.to.valueOf() + d) });
  };

  return (
    <PluginPage>
      <Provider value={state}>
        <div className={styles.root} data-testid="emberscope-app">
          <div className={styles.controls}>
            <div className={styles.control} data-testid="ds-picker">
              <DataSourcePicker
                pluginId={DATASOURCE_TYPE}
                current={ds.value?.uid ?? (view.ds || null)}
                onChange={(s) => go({ ds: s.uid, type: '', service: '', filters: [] })}
                width={24}
              />
            </div>
            <div className={styles.control}>
              <Select
                aria-label="Profile type"
                inputId="emberscope-app-profile-type"
                width={40}
                isLoading={types.loading}
                options={groupedOptions(typeList)}
                value={type || null}
                onChange={(v) => go({ type: v.value ?? '' })}
                placeholder="Profile type"
              />
            </div>
            <div className={styles.spacer} />
            <Button
              variant="secondary"
              icon={favourites.has(viewUrl) ? 'favorite' : 'star'}
              aria-label={favourites.has(viewUrl) ? 'Unstar this view' : 'Star this view'}
              data-testid="star-view"
              aria-pressed={favourites.has(viewUrl)}
              onClick={() =>
                favourites.toggle({
                  kind: 'view',
                  title: `${pageTitle}${view.service ? ` · ${view.service}` : ''}${view.filters.length ? ` · ${view.filters.length} filter(s)` : ''}`,
                  url: viewUrl,
                })
              }
            >
              {favourites.has(viewUrl) ? 'Starred' : 'Star view'}
            </Button>
            <TimeRangePicker
              value={range}
              onChange={setRange}
              onChangeTimeZone={() => {}}
              onMoveBackward={() => shift(-1)}
              onMoveForward={() => shift(1)}
              onZoom={() => {
                const c = (range.from.valueOf() + range.to.valueOf()) / 2;
                const d = range.to.valueOf() - range.from.valueOf();
                setRange({ from: dateTime(c - d), to: dateTime(c + d), raw: { from: dateTime(c - d), to: dateTime(c + d) } });
              }}
              timeZone="browser"
            />
            <Button variant="secondary" icon="sync" aria-label="Refresh" onClick={() => setRefresh((r) => r + 1)} />
          </div>
          <TabsBar className={styles.tabs}>
            {PAGES.map((p) => (
              <Tab
                key={p.id}
                label={p.title}
                icon={p.icon as React.ComponentProps<typeof Icon>['name']}
                active={p.id === view.page}
                href={href({ page: p.id, pageNo: 1 })}
                onChangeTab={(e) => {
                  e?.preventDefault();
                  go({ page: p.id, pageNo: 1 });
                }}
              />
            ))}
          </TabsBar>
          {ds.error && (
            <Alert severity="error" title="Data source">
              {ds.error}
            </Alert>
          )}
          {types.error && (
            <Alert severity="error" title="Profile types">
              {types.error}
            </Alert>
          )}
          {ds.value && NEEDS_SERVICE.includes(view.page) && !view.service ? (
            <Alert severity="info" title="Choose a service" data-testid="choose-service">
              Pick a service on the{' '}
              <a className={styles.link} href={href({ page: 'services' })} onClick={(e) => (e.preventDefault(), go({ page: 'services' }))}>
                Services
              </a>{' '}
              page first.
            </Alert>
          ) : (
            ds.value && (type || view.page === 'openfile' || view.page === 'rules') && <Page key={view.page} />
          )}
        </div>
      </Provider>
    </PluginPage>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  root: css({ display: 'flex', flexDirection: 'column', gap: theme.spacing(1), minWidth: 0, padding: theme.spacing(1) }),
  controls: css({ display: 'flex', flexWrap: 'wrap', gap: theme.spacing(1), alignItems: 'center', minWidth: 0 }),
  control: css({ minWidth: 0, maxWidth: '100%' }),
  spacer: css({ flex: '1 1 0' }),
  // the tabs wrap on a narrow window (at 200 % zoom) instead of scrolling out of sight
  tabs: css({ '& [role="tablist"]': { flexWrap: 'wrap' } }),
  link: css({ color: theme.colors.text.link }),
});
