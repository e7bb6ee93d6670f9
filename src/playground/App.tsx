// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { LinkModel, LoadingState, PanelData, dateTime, dateTimeFormat } from '@grafana/data';
import { Alert, Badge, Button, InlineSwitch, RadioButtonGroup, useTheme2 } from '@grafana/ui';
import { FlamegraphPanel } from '../panel/FlamegraphPanel';
import { defaultOptions, PanelOptions } from '../panel/options';
import { useElementSize } from '../panel/components/useElementSize';
import { EmberscopeQuery, FetchResourceClient, PlaygroundQueryEditor, QueryType, buildExpr } from '../datasource';
import { DEFAULT_LIVE_INTERVAL, DEFAULT_LIVE_WINDOW, parseDuration } from '../datasource/types';
import { DATASOURCE_UID, QueryAnswer, runQuery } from './api';
import { Exemplar, exemplarsOf, markersOf, SeriesGraph } from './SeriesGraph';
import { ResultTable } from './ResultTable';
import { NovelPoint, NoveltyDiffs, novelPointsOf } from './NoveltyDiffs';
import { readUrl, restoredQuery, storedQuery, writeUrl } from './url';
import { ExploreView, asRun, linkedSeries, pointLinks, readExploreUrl, readVariables } from './grafana';
import { GrafanaPanelBox } from './GrafanaPanelBox';

const SERIES_HEIGHT = 160;
const RANGES = [
  { value: 15 * 60_000, label: '15m' },
  { value: 60 * 60_000, label: '1h' },
  { value: 6 * 3600_000, label: '6h' },
  { value: 24 * 3600_000, label: '24h' },
];

/** What the page draws for each query type. */
export function viewsOf(type: QueryType): { series: boolean; flame: boolean; table: boolean } {
  return {
    series: type === 'both' || type === 'metrics' || type === 'novelty',
    flame: type === 'both' || type === 'profile' || type === 'diff',
    table: type === 'topTable' || type === 'labels' || type === 'histogram',
  };
}

/** The query text the address holds: the editor's text, else the structured fields written as text. */
export function addressText(q: EmberscopeQuery): string {
  const expr = q.expr?.trim();
  if (expr) {
    return expr;
  }
  return q.profileTypeId ? buildExpr(q.profileTypeId, q.labelSelector, q.groupBy) : '';
}

/** How often (ms) and over how long (ms) a live query is polled; defaults for empty or bad durations. */
export function livePolling(q: EmberscopeQuery): { every: number; window: number } {
  return {
    every: parseDuration(q.liveInterval || DEFAULT_LIVE_INTERVAL) ?? parseDuration(DEFAULT_LIVE_INTERVAL)!,
    window: parseDuration(q.liveWindow || DEFAULT_LIVE_WINDOW) ?? parseDuration(DEFAULT_LIVE_WINDOW)!,
  };
}

const EMPTY: QueryAnswer = { series: [], annotations: [], tables: [], frames: [] };

/**
 * The playground page: the datasource's query editor, and under it what the query type
 * returns (series graph with legend and markers, the flamegraph panel the plugin ships, or a
 * table), against Grafana's HTTP shapes served by `emberscope playground`. The address holds
 * the query text and range; a live query is re-run every live interval (no Grafana Live here).
 */
const PANEL_OPTIONS_KEY = 'emberscope.playground.panelOptions';

/** The panel options saved by the playground, over the defaults (bad or missing storage: the defaults). */
function loadPanelOptions(): PanelOptions {
  try {
    const raw = window.localStorage.getItem(PANEL_OPTIONS_KEY);
    return raw ? { ...defaultOptions, ...JSON.parse(raw) } : defaultOptions;
  } catch {
    return defaultOptions;
  }
}

function savePanelOptions(o: PanelOptions): void {
  try {
    window.localStorage.setItem(PANEL_OPTIONS_KEY, JSON.stringify(o));
  } catch {
    // storage full or disabled: the options live for this page only
  }
}

export function App() {
  const theme = useTheme2();
  // an Explore address (a data link's) opens its pane's query over its range
  const explore = useMemo((): { view?: ExploreView; error?: string } => {
    try {
      return { view: readExploreUrl(window.location.pathname, window.location.search) };
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  }, []);
  const initial = useMemo(() => {
    const u = readUrl(window.location.search);
    return explore.view ? { query: addressText(explore.view.query), from: explore.view.from, to: explore.view.to } : u;
  }, [explore]);
  // the dashboard's variables (var-<name> in the address, as Grafana's dashboard URLs have them)
  const variables = useMemo(() => readVariables(window.location.search), []);
  const client = useMemo(() => new FetchResourceClient(`/api/datasources/uid/${DATASOURCE_UID}/resources`), []);
  const [query, setQuery] = useState<EmberscopeQuery>(
    explore.view
      ? { queryType: 'both', labelSelector: '{}', groupBy: [], ...explore.view.query, refId: 'A' }
      : restoredQuery(initial, addressText)
  );
  const [links, setLinks] = useState<{ at: number; links: Array<LinkModel<unknown>> }>();
  // the cascader, query type and group-by call onChange then onRunQuery at once: run the latest
  const latest = useRef(query);
  const [range, setRange] = useState({ from: initial.from, to: initial.to });
  const rangeRef = useRef(range);
  const [ran, setRan] = useState<EmberscopeQuery | undefined>();
  const [answer, setAnswer] = useState<QueryAnswer>(EMPTY);
  const [selection, setSelection] = useState<{ from: number; to: number } | undefined>();
  const [selectedFlame, setSelectedFlame] = useState<QueryAnswer['flame']>();
  const [novelDiff, setNovelDiff] = useState<{ point: NovelPoint; flame?: QueryAnswer['flame'] }>();
  const [picked, setPicked] = useState<{ exemplar: Exemplar; flame?: QueryAnswer['flame'] }>();
  const [error, setError] = useState<string | undefined>(explore.error ?? ('error' in initial ? initial.error : undefined));
  const [running, setRunning] = useState(false);
  // the panel's options, kept across reloads as a saved dashboard keeps them
  const [options, setOptionsState] = useState<PanelOptions>(() => loadPanelOptions());
  const setOptions = useCallback((o: PanelOptions) => {
    setOptionsState(o);
    savePanelOptions(o);
  }, []);
  const panelBox = useRef<HTMLDivElement>(null);
  const panelSize = useElementSize(panelBox);
  const seriesBox = useRef<HTMLDivElement>(null);
  const seriesSize = useElementSize(seriesBox);

  const onChange = useCallback((q: EmberscopeQuery) => {
    latest.current = q;
    setQuery(q);
  }, []);

  // runs may overlap (a live poll and a Run); only the newest one's answer is shown
  const seq = useRef(0);
  const inflight = useRef(0);
  const track = useCallback(async <T,>(work: () => Promise<T>): Promise<T> => {
    inflight.current++;
    setRunning(true);
    try {
      return await work();
    } finally {
      inflight.current--;
      setRunning(inflight.current > 0);
    }
  }, []);

  /** Runs q over [from, to] (a live query over its window up to now) and shows the answer. */
  const execute = useCallback(
    async (q: EmberscopeQuery, from: number, to: number, keepSelection = false) => {
      if (!q.expr?.trim() && !q.profileTypeId) {
        setError('Choose a profile type or type a query');
        return;
      }
      if (q.live) {
        to = Date.now();
        from = to - livePolling(q).window;
      }
      const mine = ++seq.current;
      rangeRef.current = { from, to };
      setRange({ from, to });
      // an opened Explore address becomes the playground's own (its variables kept)
      const keep = new URLSearchParams(window.location.search);
      keep.delete('panes');
      keep.delete('left');
      keep.delete('schemaVersion');
      window.history.replaceState(null, '', '/' + writeUrl({ query: addressText(q), from, to, full: storedQuery(q) }, keep.toString()));
      // run as Grafana runs it: the dashboard's variables (and its range) replaced
      q = asRun(q, { variables, from, to });
      setRan(q);
      setLinks(undefined);
      if (!keepSelection) {
        setSelection(undefined);
        setSelectedFlame(undefined);
        setNovelDiff(undefined);
        setPicked(undefined);
      }
      await track(async () => {
        try {
          const a = await runQuery(q, from, to);
          if (mine === seq.current) {
            setAnswer(a);
            setError(undefined);
          }
        } catch (e) {
          if (mine === seq.current) {
            setAnswer(EMPTY);
            setError(e instanceof Error ? e.message : String(e));
          }
        }
      });
    },
    [track, variables]
  );

  const runLatest = useCallback(() => execute(latest.current, rangeRef.current.from, rangeRef.current.to), [execute]);

  // open the query of the address
  useEffect(() => {
    if (initial.query || ('full' in initial && initial.full) || explore.view) {
      execute(latest.current, initial.from, initial.to);
    }
  }, [initial, explore, execute]);

  // live: no Grafana Live in the playground, so poll every live interval
  const liveEvery = ran?.live ? livePolling(ran).every : 0;
  useEffect(() => {
    if (!ran?.live || !liveEvery) {
      return;
    }
    const id = window.setInterval(() => execute(ran, 0, 0, true), liveEvery);
    return () => window.clearInterval(id);
  }, [ran, liveEvery, execute]);

  // an exemplar's flamegraph: that one profile (profileIdSelector), or that span's samples
  const openExemplar = (exemplar: Exemplar) => {
    setPicked({ exemplar });
    setSelection(undefined);
    return track(async () => {
      try {
        const { live: _live, spanSelector: _spans, profileIdSelector: _ids, ...base } = ran ?? latest.current;
        const q: EmberscopeQuery = {
          ...base,
          queryType: 'profile',
          ...(exemplar.kind === 'span' ? { spanSelector: [exemplar.id] } : { profileIdSelector: [exemplar.id] }),
        };
        const a = await runQuery(q, rangeRef.current.from, rangeRef.current.to);
        setPicked({ exemplar, flame: a.flame });
        setError(undefined);
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      }
    });
  };
  const exemplars = useMemo(() => exemplarsOf(answer.annotations), [answer.annotations]);

  const selectRange = (from: number, to: number) => {
    setPicked(undefined);
    setSelection({ from, to });
    return track(async () => {
      try {
        const a = await runQuery({ ...(ran ?? latest.current), queryType: 'profile', live: undefined }, from, to);
        setSelectedFlame(a.flame);
        setError(undefined);
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      }
    });
  };

  // a novel point's diff against its most similar earlier profile (NoveltyDiffs)
  const openNovelDiff = (point: NovelPoint) => {
    setNovelDiff({ point });
    return track(async () => {
      try {
        const a = await runQuery(point.query, rangeRef.current.from, rangeRef.current.to);
        setNovelDiff({ point, flame: a.flame });
        setError(undefined);
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      }
    });
  };
  const novelPoints = useMemo(
    () => (ran?.queryType === 'novelty' ? novelPointsOf(answer.series, answer.annotations) : []),
    [ran, answer]
  );

  const type: QueryType = ran?.queryType ?? 'both';
  const views = viewsOf(type);
  const flame = novelDiff ? novelDiff.flame : picked ? picked.flame : selection ? selectedFlame : answer.flame;
  const markers = useMemo(() => markersOf(answer.annotations), [answer.annotations]);
  // the series as a Grafana panel holds them: with the datasource's links, configured by @grafana/data
  const series = useMemo(
    () =>
      ran
        ? linkedSeries(
            answer.series,
            ran,
            { variables, from: range.from, to: range.to },
            { from: String(range.from), to: String(range.to) }
          )
        : answer.series,
    [answer.series, ran, variables, range]
  );

  const panelData: PanelData = useMemo(() => {
    const f = selection ?? range;
    return {
      series: flame ? [flame] : [],
      state: LoadingState.Done,
      timeRange: { from: dateTime(f.from), to: dateTime(f.to), raw: { from: dateTime(f.from), to: dateTime(f.to) } },
    };
  }, [flame, selection, range]);

  return (
    <div
      style={{
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        gap: 8,
        padding: 8,
        boxSizing: 'border-box',
        background: theme.colors.background.primary,
        color: theme.colors.text.primary,
      }}
    >
      <div
        data-testid="query-row"
        style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'flex-start', minWidth: 0 }}
      >
        <div style={{ flex: '1 1 480px', minWidth: 0 }}>
          <PlaygroundQueryEditor
            query={query}
            onChange={onChange}
            onRunQuery={runLatest}
            client={client}
            exporter={client}
            range={range}
            app="explore"
            frames={answer.frames}
          />
        </div>
        <Button
          onClick={runLatest}
          disabled={running}
          icon={running ? 'spinner' : 'play'}
          data-testid="run-query"
          style={{ flex: 'none' }}
        >
          Run
        </Button>
      </div>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, fontSize: 12, alignItems: 'center' }}>
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
            flamegraph of {picked.exemplar.kind} {picked.exemplar.id}
            {picked.exemplar.traceId ? ` (trace ${picked.exemplar.traceId})` : ''}{' '}
            <Button size="sm" variant="secondary" fill="text" onClick={() => setPicked(undefined)}>
              whole range
            </Button>
          </span>
        )}
        {selection && (
          <span data-testid="selection-range">
            flamegraph of {dateTimeFormat(selection.from, { format: 'HH:mm:ss' })}–
            {dateTimeFormat(selection.to, { format: 'HH:mm:ss' })}{' '}
            <Button
              size="sm"
              variant="secondary"
              fill="text"
              onClick={() => {
                setSelection(undefined);
                setSelectedFlame(undefined);
              }}
            >
              whole range
            </Button>
          </span>
        )}
        {views.flame && (
          <>
            <RadioButtonGroup
              size="sm"
              aria-label="Colour mode"
              options={[
                { value: 'self', label: 'by self' },
                { value: 'selfNode', label: 'by self per node' },
                { value: 'total', label: 'by total' },
                { value: 'package', label: 'by package' },
              ]}
              value={options.colorMode}
              onChange={(v) => setOptions({ ...options, colorMode: v as PanelOptions['colorMode'] })}
            />
            <InlineSwitch
              label="Show top table"
              showLabel
              value={options.showTable}
              onChange={(e) => setOptions({ ...options, showTable: e.currentTarget.checked })}
            />
          </>
        )}
        {!ran?.live && (
          <RadioButtonGroup
            size="sm"
            aria-label="Time range"
            options={RANGES}
            value={Math.round(range.to - range.from)}
            onChange={(ms) => {
              const to = Date.now();
              execute(latest.current, to - ms, to);
            }}
          />
        )}
      </div>
      {error && (
        <Alert title="Query failed" severity="error" data-testid="query-error" onRemove={() => setError(undefined)}>
          {error}
        </Alert>
      )}
      {/* both boxes stay mounted (hidden when unused) so that their size observers keep working */}
      <GrafanaPanelBox
        ref={seriesBox}
        testId="series-box"
        style={{
          flex: 'none',
          height: SERIES_HEIGHT + 64,
          minWidth: 0,
          overflow: 'auto',
          display: views.series ? 'block' : 'none',
        }}
      >
        {views.series && seriesSize.width > 0 && (
          <SeriesGraph
            series={series}
            onPoint={(frame, row) => {
              setLinks({ at: Number(series[frame].fields[0].values[row]), links: pointLinks(series[frame], row) });
              return false;
            }}
            from={range.from}
            to={range.to}
            width={seriesSize.width}
            height={SERIES_HEIGHT}
            selection={selection}
            onSelect={selectRange}
            markers={markers}
            exemplars={exemplars}
            onExemplar={openExemplar}
          />
        )}
      </GrafanaPanelBox>
      {links && links.links.length > 0 && (
        <div data-testid="point-links" style={{ display: 'flex', flexWrap: 'wrap', gap: 12, fontSize: 12 }}>
          <span>Links of the point at {dateTimeFormat(links.at, { format: 'HH:mm:ss' })}:</span>
          {links.links.map((l) => (
            <a key={l.title} href={l.href} data-testid="point-link" style={{ color: theme.colors.text.link }}>
              {l.title}
            </a>
          ))}
        </div>
      )}
      <NoveltyDiffs points={novelPoints} open={novelDiff?.point} onOpen={openNovelDiff} />
      {views.table && answer.tables.map((f, i) => <ResultTable key={`${f.name ?? ''}-${i}`} frame={f} />)}
      <GrafanaPanelBox
        ref={panelBox}
        testId="panel-box"
        style={{
          flex: '1 1 auto',
          minHeight: 240,
          minWidth: 0,
          overflow: 'hidden',
          display: views.flame || selection || novelDiff || picked ? 'block' : 'none',
        }}
      >
        {(views.flame || selection || novelDiff || picked) && panelSize.width > 0 && flame && (
          <FlamegraphPanel
            {...({} as React.ComponentProps<typeof FlamegraphPanel>)}
            id={1}
            data={panelData}
            timeRange={panelData.timeRange}
            timeZone="browser"
            options={options}
            width={panelSize.width}
            height={panelSize.height}
            title="Flame graph"
            transparent={false}
            renderCounter={0}
            onOptionsChange={setOptions}
          />
        )}
      </GrafanaPanelBox>
    </div>
  );
}
