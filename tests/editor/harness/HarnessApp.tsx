import React, { useCallback, useMemo, useRef, useState } from 'react';
import { DataFrame, DataFrameJSON, LoadingState, PanelData, dataFrameFromJSON, dateTime } from '@grafana/data';
import { Alert, useTheme2 } from '@grafana/ui';
import { EmberscopeQuery, FetchResourceClient, PlaygroundQueryEditor } from '../../../src/datasource';
import { SeriesGraph } from '../../../src/playground/SeriesGraph';
import { FlamegraphPanel } from '../../../src/panel/FlamegraphPanel';
import { defaultOptions, PanelOptions } from '../../../src/panel/options';

/** The datasource uid `emberscope playground` serves. */
const UID = 'emberscope';

const isFlame = (f: DataFrame) => f.fields.some((x) => x.name === 'level') && f.fields.some((x) => x.name === 'label');
const isSeries = (f: DataFrame) => !isFlame(f) && f.fields.some((x) => x.type === 'time');

/** Runs one query through the playground's `POST /api/ds/query`; errors carry the backend's message. */
async function runQuery(q: EmberscopeQuery, from: number, to: number): Promise<DataFrame[]> {
  const res = await fetch('/api/ds/query', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ from: String(from), to: String(to), queries: [{ ...q, datasource: { uid: UID } }] }),
  });
  const body = await res.json();
  const r = body?.results?.[q.refId];
  if (!res.ok || r?.error) {
    throw new Error(r?.error ?? body?.message ?? `HTTP ${res.status}`);
  }
  return ((r?.frames ?? []) as DataFrameJSON[]).map((f) => dataFrameFromJSON(f));
}

/**
 * The query editor embedded as the playground should embed it (see the report of the editor
 * work): PlaygroundQueryEditor over a FetchResourceClient, the series graph, and the flamegraph
 * panel; a clicked series point loads the flamegraph of that point's step. Test page only.
 */
export function HarnessApp() {
  const theme = useTheme2();
  const client = useMemo(() => new FetchResourceClient(`/api/datasources/uid/${UID}/resources`), []);
  const range = useMemo(() => {
    const p = new URLSearchParams(window.location.search);
    const to = Number(p.get('to')) || Date.now() + 60_000;
    return { from: Number(p.get('from')) || to - 3_600_000, to };
  }, []);
  const [query, setQuery] = useState<EmberscopeQuery>({
    refId: 'A',
    queryType: 'both',
    labelSelector: '{}',
    groupBy: [],
  });
  const latest = useRef(query);
  const [frames, setFrames] = useState<DataFrame[]>([]);
  const [flame, setFlame] = useState<DataFrame[]>([]);
  const [selection, setSelection] = useState<{ from: number; to: number } | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [ran, setRan] = useState<EmberscopeQuery | undefined>();
  const [options, setOptions] = useState<PanelOptions>(defaultOptions);

  const onChange = useCallback((q: EmberscopeQuery) => {
    latest.current = q;
    setQuery(q);
  }, []);
  const onRunQuery = useCallback(async () => {
    const q = latest.current;
    setRan(q);
    setError(undefined);
    setSelection(undefined);
    try {
      const out = await runQuery(q, range.from, range.to);
      setFrames(out);
      setFlame(out.filter(isFlame));
    } catch (e) {
      setError((e as Error).message);
    }
  }, [range]);
  const onSelect = async (from: number, to: number) => {
    setSelection({ from, to });
    try {
      setFlame((await runQuery({ ...latest.current, queryType: 'profile' }, from, to)).filter(isFlame));
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const panelData: PanelData = useMemo(() => {
    const r = selection ?? range;
    return {
      series: flame,
      state: LoadingState.Done,
      timeRange: { from: dateTime(r.from), to: dateTime(r.to), raw: { from: dateTime(r.from), to: dateTime(r.to) } },
    };
  }, [flame, selection, range]);

  return (
    <div style={{ padding: 8, display: 'flex', flexDirection: 'column', gap: 8, color: theme.colors.text.primary }}>
      <PlaygroundQueryEditor
        query={query}
        onChange={onChange}
        onRunQuery={onRunQuery}
        client={client}
        exporter={client}
        range={range}
        app="explore"
        frames={frames}
      />
      <pre data-testid="last-run" style={{ fontSize: 11, margin: 0, whiteSpace: 'pre-wrap' }}>
        {ran ? JSON.stringify(ran) : ''}
      </pre>
      {error && (
        <Alert title="Query failed" severity="error" data-testid="query-error">
          {error}
        </Alert>
      )}
      <span data-testid="series-count">{frames.filter(isSeries).length} series</span>
      <span data-testid="series-names" style={{ fontSize: 11 }}>
        {frames
          .filter(isSeries)
          .map((f) => f.fields.find((x) => x.type === 'number')?.config.displayNameFromDS ?? f.name)
          .join(' | ')}
      </span>
      {selection && (
        <span data-testid="flame-range">
          flamegraph of {selection.from}–{selection.to}
        </span>
      )}
      <SeriesGraph
        series={frames.filter(isSeries)}
        from={range.from}
        to={range.to}
        width={1200}
        height={160}
        selection={selection}
        onSelect={onSelect}
      />
      <div style={{ height: 420 }}>
        {flame.length > 0 && (
          <FlamegraphPanel
            {...({} as React.ComponentProps<typeof FlamegraphPanel>)}
            id={1}
            data={panelData}
            timeRange={panelData.timeRange}
            timeZone="browser"
            options={options}
            width={1200}
            height={420}
            title="Flame graph"
            transparent={false}
            renderCounter={0}
            onOptionsChange={setOptions}
          />
        )}
      </div>
    </div>
  );
}
