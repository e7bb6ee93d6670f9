import React, { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { DataFrame, LoadingState, PanelData, dateTime, dateTimeFormat, getDefaultTimeRange } from '@grafana/data';
import { Alert, Button, InlineSwitch, RadioButtonGroup, useTheme2 } from '@grafana/ui';
import { FlamegraphPanel } from '../panel/FlamegraphPanel';
import { defaultOptions, PanelOptions } from '../panel/options';
import { useElementSize } from '../panel/components/useElementSize';
import { fetchProfileTypes, PlaygroundQuery, ProfileType, runQuery } from './api';
import { QueryDraft, QueryRow } from './QueryRow';
import { SeriesGraph } from './SeriesGraph';
import { exprOf, readUrl, writeUrl } from './url';

const SERIES_HEIGHT = 160;
const RANGES = [
  { value: 15 * 60_000, label: '15m' },
  { value: 60 * 60_000, label: '1h' },
  { value: 6 * 3600_000, label: '6h' },
  { value: 24 * 3600_000, label: '24h' },
];

function toQuery(d: QueryDraft): PlaygroundQuery {
  const groupBy = d.groupBy
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const expr = d.expr.trim() || (d.profileTypeId ? exprOf(d.profileTypeId, d.labelSelector, groupBy) : '');
  return { profileTypeId: d.profileTypeId, labelSelector: d.labelSelector, groupBy, expr };
}

/**
 * The playground page: a query row, a series graph and the flamegraph panel the plugin ships,
 * against Grafana's HTTP shapes served by `emberscope playground`. The address holds the view.
 */
export function App() {
  const theme = useTheme2();
  const initial = useMemo(() => readUrl(window.location.search), []);
  const [draft, setDraft] = useState<QueryDraft>({
    profileTypeId: '',
    labelSelector: '',
    groupBy: '',
    expr: initial.query,
  });
  const [range, setRange] = useState({ from: initial.from, to: initial.to });
  const [selection, setSelection] = useState<{ from: number; to: number } | undefined>();
  const [profileTypes, setProfileTypes] = useState<ProfileType[]>([]);
  const [series, setSeries] = useState<DataFrame[]>([]);
  const [flame, setFlame] = useState<DataFrame[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [running, setRunning] = useState(false);
  const [options, setOptions] = useState<PanelOptions>(defaultOptions);
  const panelBox = useRef<HTMLDivElement>(null);
  const panelSize = useElementSize(panelBox);
  const seriesBox = useRef<HTMLDivElement>(null);
  const seriesSize = useElementSize(seriesBox);

  useEffect(() => {
    fetchProfileTypes()
      .then((types) => {
        setProfileTypes(types);
        setDraft((d) => (d.profileTypeId || d.expr || !types.length ? d : { ...d, profileTypeId: types[0].id }));
      })
      .catch((e) => setError(`Loading profile types failed: ${e.message}`));
  }, []);

  const run = useCallback(async (d: QueryDraft, from: number, to: number) => {
    const q = toQuery(d);
    if (!q.expr) {
      setError('Choose a profile type or type a query');
      return;
    }
    window.history.replaceState(null, '', writeUrl({ query: q.expr, from, to }, window.location.search));
    setRunning(true);
    setError(undefined);
    setSelection(undefined);
    try {
      const answer = await runQuery(q, from, to, 'both');
      setSeries(answer.series);
      setFlame(answer.flame ? [answer.flame] : []);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setRunning(false);
    }
  }, []);

  // open the query of the address
  useEffect(() => {
    if (initial.query) {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- loads the address's query from the server on mount
      run({ profileTypeId: '', labelSelector: '', groupBy: '', expr: initial.query }, initial.from, initial.to);
    }
  }, [initial, run]);

  const selectRange = async (from: number, to: number) => {
    setSelection({ from, to });
    setRunning(true);
    setError(undefined);
    try {
      const answer = await runQuery(toQuery(draft), from, to, 'profile');
      setFlame(answer.flame ? [answer.flame] : []);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setRunning(false);
    }
  };

  const panelData: PanelData = useMemo(() => {
    const tr = getDefaultTimeRange();
    const f = selection ?? range;
    return {
      series: flame,
      state: LoadingState.Done,
      timeRange: { from: dateTime(f.from), to: dateTime(f.to), raw: tr.raw },
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
      <QueryRow
        draft={draft}
        profileTypes={profileTypes}
        onChange={setDraft}
        running={running}
        onRun={() => run(draft, range.from, range.to)}
      />
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, fontSize: 12, alignItems: 'center' }}>
        <span data-testid="time-range">
          {dateTimeFormat(range.from, { format: 'YYYY-MM-DD HH:mm:ss' })} –{' '}
          {dateTimeFormat(range.to, { format: 'YYYY-MM-DD HH:mm:ss' })}
        </span>
        {selection && (
          <span data-testid="selection-range">
            flamegraph of {dateTimeFormat(selection.from, { format: 'HH:mm:ss' })}–
            {dateTimeFormat(selection.to, { format: 'HH:mm:ss' })}{' '}
            <Button size="sm" variant="secondary" fill="text" onClick={() => run(draft, range.from, range.to)}>
              whole range
            </Button>
          </span>
        )}
        <RadioButtonGroup
          size="sm"
          aria-label="Colour mode"
          options={[
            { value: 'self', label: 'by self' },
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
        <RadioButtonGroup
          size="sm"
          aria-label="Time range"
          options={RANGES}
          value={Math.round(range.to - range.from)}
          onChange={(ms) => {
            const to = Date.now();
            setRange({ from: to - ms, to });
            run(draft, to - ms, to);
          }}
        />
      </div>
      {error && (
        <Alert title="Query failed" severity="error" data-testid="query-error" onRemove={() => setError(undefined)}>
          {error}
        </Alert>
      )}
      <div ref={seriesBox} style={{ flex: 'none', height: SERIES_HEIGHT, minWidth: 0 }}>
        {seriesSize.width > 0 && (
          <SeriesGraph
            series={series}
            from={range.from}
            to={range.to}
            width={seriesSize.width}
            height={SERIES_HEIGHT}
            selection={selection}
            onSelect={selectRange}
          />
        )}
      </div>
      <div
        ref={panelBox}
        data-testid="panel-box"
        style={{ flex: '1 1 auto', minHeight: 240, minWidth: 0, overflow: 'hidden' }}
      >
        {panelSize.width > 0 && (
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
      </div>
    </div>
  );
}
