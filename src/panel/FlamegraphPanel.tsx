// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { css, cx } from '@emotion/css';
import { PanelProps } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';
import { FlameData, findFlameFrame, readFlameData, ReadOptions } from '../shared/flameData';
import { afterPaint } from './afterPaint';
import { chunkStep, inIdleSteps } from './model/idle';
import { RepeatedNames } from './model/repeatedNames';
import { FlameGraphContainer } from './components/FlameGraphContainer';
import { SourceProvider, sourceTargetOf } from './components/Source';
import { TrackMetricProvider } from './components/TrackMetric';
import { useSizeClass } from './components/sizeStyles';
import { frameIsCut } from './components/focus/callSitePath';
import { requestFetcher, requestSandwichFetcher } from './components/focus/requestFetcher';
import { OverTimeProvider, overTimeSource } from './components/OverTime';
import {
  decodeLink,
  encodeLink,
  exploreUrlWithView,
  linkParam,
  queryLink,
  ViewLink,
} from './components/focus/viewLink';
import { locationService } from '@grafana/runtime';
import { defaultOptions } from './options';
import { PanelOptions } from './types';

type Parsed = { data: FlameData } | { error: string } | { empty: true };

/** Reads the first flamegraph frame of the panel data; errors come back as text for the user. */
export function parsePanelData(series: PanelProps['data']['series'], read: ReadOptions = {}): Parsed {
  const frame = findFlameFrame(series);
  if (!frame) {
    return series.length === 0 || series.every((s) => s.length === 0)
      ? { empty: true }
      : { error: 'No flamegraph frame in the data: expected fields level, value, self and label' };
  }
  try {
    const data = readFlameData(frame, read);
    return data.count === 0 ? { empty: true } : { data };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * The panel's flamegraph data: read for the first draw with the label enum's text taken as the
 * names (no name hashed before the graph is on screen); after the paint, the names are checked to
 * be distinct in idle slices (the top table is shown first) and, when the enum repeats one, the
 * frame is read again with its names interned, so the top table, the sandwich and the highlight
 * group every frame of a function together.
 */
export function usePanelData(series: PanelProps['data']['series']): Parsed {
  const fast = useMemo(() => parsePanelData(series, { enumTextAsNames: true }), [series]);
  const [interned, setInterned] = useState<{ of: Parsed; parsed: Parsed }>();
  useEffect(() => {
    if (!('data' in fast) || !fast.data.namesUnchecked) {
      return;
    }
    const repeated = new RepeatedNames(fast.data.names);
    let cancelIdle: (() => void) | undefined;
    const cancelPaint = afterPaint(() => {
      cancelIdle = inIdleSteps([
        chunkStep(() => repeated.chunk()),
        () => {
          if (repeated.found) {
            setInterned({ of: fast, parsed: parsePanelData(series) });
          }
        },
      ]);
    });
    return () => {
      cancelPaint();
      cancelIdle?.();
    };
  }, [fast, series]);
  return interned?.of === fast ? interned.parsed : fast;
}

/** The Emberscope flamegraph panel. */
export function FlamegraphPanel({ id, data, width, height, options, onOptionsChange }: PanelProps<PanelOptions>) {
  const parsed = usePanelData(data.series);
  // a host that gives no range (a test, an embed) leaves the source view without one
  const from = data.timeRange?.from.valueOf();
  const to = data.timeRange?.to.valueOf();
  // the source view asks the panel's datasource about the panel's query
  const sourceTarget = useMemo(
    () =>
      from === undefined || to === undefined
        ? undefined
        : sourceTargetOf(data.request?.targets as Parameters<typeof sourceTargetOf>[0], { from, to }),
    [data.request?.targets, from, to]
  );
  // a zoom into what the cut at maxNodes left out re-runs this panel's own query for the call site
  const frame = useMemo(() => findFlameFrame(data.series), [data.series]);
  const target = data.request?.targets.find((t) => t.refId === frame?.refId) as { view?: unknown } | undefined;
  const link = usePanelLink(id, queryLink(target), frame?.refId);
  const cut = frame !== undefined && frameIsCut(frame);
  const fetchCallSite = useMemo(
    () => (cut ? requestFetcher(data.request, frame?.refId) : undefined),
    [cut, data.request, frame]
  );
  // and a sandwich opened there asks it for the function's sandwich at full resolution
  const fetchSandwich = useMemo(
    () => (cut ? requestSandwichFetcher(data.request, frame?.refId) : undefined),
    [cut, data.request, frame]
  );
  // "Show over time" re-runs this panel's own query as a call path series
  const overTime = useMemo(() => overTimeSource(data.request, frame?.refId), [data.request, frame]);
  const opts = { ...defaultOptions, ...options };
  // the header's choices are saved as the panel's options (Grafana keeps them with the dashboard)
  const latest = useRef({ options, onOptionsChange });
  useLayoutEffect(() => {
    latest.current = { options, onOptionsChange };
  });
  const save = useCallback((changed: Partial<PanelOptions>) => {
    const { options: o, onOptionsChange: change } = latest.current;
    change?.({ ...defaultOptions, ...o, ...changed });
  }, []);
  const styles = useStyles2(getStyles);
  const size = useSizeClass(width, height);
  if ('error' in parsed) {
    return (
      <div role="alert" className={cx(styles.error, size)}>
        Cannot draw this flamegraph: {parsed.error}
      </div>
    );
  }
  if ('empty' in parsed) {
    return <div className={cx(styles.empty, size)}>No profile data</div>;
  }
  return (
    <SourceProvider target={sourceTarget}>
      <TrackMetricProvider target={sourceTarget}>
        <OverTimeProvider source={overTime}>
          <FlameGraphContainer
            data={parsed.data}
            width={width}
            height={height}
            options={opts}
            onOptionsChange={save}
            cut={cut}
            fetchCallSite={fetchCallSite}
            fetchSandwich={fetchSandwich}
            {...link}
          />
        </OverTimeProvider>
      </TrackMetricProvider>
    </SourceProvider>
  );
}

/**
 * The panel's view in the address (`flame<panel id>`, as Grafana keeps a panel's own state such
 * as viewPanel): read when the view opens, written as it changes (replacing the history entry),
 * and the address with it for "Copy link". Explore, dashboards, the app and the playground all
 * keep what they do not know in their addresses. Without one there, the query's own `view` opens
 * the view (a query Grafana keeps in Explore's address or a dashboard's JSON), and a query whose
 * view changes later (the query editor's View row) opens the new one. In Explore, "Copy link"
 * gives Explore's address with the view as the query's `view`, which Explore keeps.
 */
function usePanelLink(panelId: number, ofQuery: ViewLink | undefined, refId: string | undefined) {
  const param = linkParam(panelId);
  const [opened, setOpened] = useState(
    () => decodeLink(new URLSearchParams(window.location.search).get(param)) ?? ofQuery
  );
  const queryText = ofQuery ? encodeLink(ofQuery) : '';
  const seenQuery = useRef(queryText);
  useEffect(() => {
    if (queryText !== seenQuery.current) {
      seenQuery.current = queryText;
      setOpened(queryText ? decodeLink(queryText) : {});
    }
  }, [queryText]);
  const onLinkChange = useCallback(
    (l: ViewLink) => {
      // the address as it is now (a host may have written it without the location service)
      const search = new URLSearchParams(window.location.search);
      const text = encodeLink(l);
      if (search.get(param) !== text) {
        search.set(param, text);
        locationService.replace({ pathname: locationService.getLocation().pathname, search: `?${search}` });
      }
    },
    [param]
  );
  const linkUrl = useCallback(
    (l: ViewLink) => {
      const explore = exploreUrlWithView(window.location.href, refId, l);
      if (explore) {
        return explore;
      }
      const url = new URL(window.location.href);
      url.searchParams.set(param, encodeLink(l));
      return url.toString();
    },
    [param, refId]
  );
  return { link: opened, onLinkChange, linkUrl };
}

const getStyles = () => ({
  error: css({ padding: 8, overflow: 'auto' }),
  empty: css({ display: 'grid', placeItems: 'center' }),
});
