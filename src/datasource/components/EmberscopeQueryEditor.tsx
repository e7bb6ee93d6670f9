// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { css } from '@emotion/css';
import { DataFrame, GrafanaTheme2 } from '@grafana/data';
import { InlineField, InlineFieldRow, Stack, useStyles2 } from '@grafana/ui';
import { ALERT_QUERY_TYPE_OPTIONS, EmberscopeQuery, QUERY_TYPE_OPTIONS, QueryType } from '../types';
import { ProfileTypeInfo, ResourceClient, TimeRangeMs } from '../resources/client';
import { CachingResourceClient } from '../resources/cache';
import { SuggestionSource } from '../language/completion';
import { buildExpr, firstExprSelector, scopeToProfileType } from '../language/selector';
import { loadLastProfileType, saveLastProfileType } from '../storage';
import { PprofExporter } from '../export';
import { CompletingInput } from './CompletingInput';
import { MatcherChips } from './MatcherChips';
import { OptionsRow } from './OptionsRow';
import { ProfileTypeCascader } from './ProfileTypeCascader';
import { Notices } from './Notices';
import { ExportButtons } from './ExportButtons';
import { ComparisonRow, withDefaultComparison } from './ComparisonRow';
import { SeriesTargetRow } from './SeriesTargetRow';
import { ViewRow } from './ViewRow';

/** Props of the editor; it needs no Grafana runtime, so the playground embeds it too. */
export interface EmberscopeQueryEditorProps {
  query: EmberscopeQuery;
  onChange: (q: EmberscopeQuery) => void;
  onRunQuery: () => void;
  /** Profile types, label names and values; cached here by (matchers, range) unless already cached. */
  client: ResourceClient;
  /** The time range completion and the profile type list are scoped to. */
  range?: TimeRangeMs;
  /**
   * `explore` makes `both` the default query type; elsewhere it is `profile`. `alerting` (an alert
   * rule) offers only the query types that can alert, `metrics` first and the default.
   */
  app?: 'explore' | 'dashboard' | 'alerting';
  /** The last response's frames, for its notices and "Download JSON". */
  frames?: DataFrame[];
  /** Enables "Download pprof". */
  exporter?: PprofExporter;
}

/** The profile type to start with: the one chosen last, else a CPU type, else the first. */
export function pickDefaultProfileType(types: ProfileTypeInfo[], last = loadLastProfileType()): string | undefined {
  if (last && types.some((t) => t.id === last)) {
    return last;
  }
  return (types.find((t) => t.name === 'process_cpu' && t.sampleType === 'cpu') ?? types[0])?.id;
}

/**
 * The query editor: profile type, label selector (text with completion, and chips), the query
 * text, and collapsed options (query type, group-by, max nodes, limit). Shift+Enter runs the query.
 */
export function EmberscopeQueryEditor(props: EmberscopeQueryEditorProps) {
  const { query, onChange, onRunQuery, range, app, frames, exporter } = props;
  const styles = useStyles2(getStyles);
  const client = useMemo(
    () => (props.client instanceof CachingResourceClient ? props.client : new CachingResourceClient(props.client)),
    [props.client]
  );
  const alerting = app === 'alerting';
  const defaultType: QueryType = alerting ? 'metrics' : app === 'explore' ? 'both' : 'profile';
  const typeOptions = alerting ? ALERT_QUERY_TYPE_OPTIONS : QUERY_TYPE_OPTIONS;
  const latest = useRef(query);
  useLayoutEffect(() => {
    latest.current = query;
  }, [query]);
  const ranAs = useRef(JSON.stringify(query));
  const run = useCallback(() => {
    ranAs.current = JSON.stringify(latest.current);
    onRunQuery();
  }, [onRunQuery]);
  const runIfChanged = () => JSON.stringify(latest.current) !== ranAs.current && run();
  // the latest run for effects that must not restart when the host passes a new onRunQuery
  const runRef = useRef(run);
  useLayoutEffect(() => {
    runRef.current = run;
  }, [run]);
  const change = useCallback(
    (q: EmberscopeQuery) => {
      latest.current = q;
      onChange(q);
    },
    [onChange]
  );

  // an alert rule's query says its type: without one the backend would answer "both", which cannot alert
  useEffect(() => {
    const q = latest.current;
    if (alerting && !ALERT_QUERY_TYPE_OPTIONS.some((o) => o.value === q.queryType)) {
      change({ ...q, queryType: 'metrics' });
    }
  }, [alerting, query.queryType, change]);

  // profile types, once per client and hour of the range
  const hour = range ? Math.floor(range.to / 3_600_000) : 0;
  const rangeRef = useRef(range);
  useLayoutEffect(() => {
    rangeRef.current = range;
  }, [range]);
  const [types, setTypes] = useState<{ list: ProfileTypeInfo[]; loading: boolean; error?: string }>({
    list: [],
    loading: true,
  });
  useEffect(() => {
    let live = true;
    client.profileTypes(rangeRef.current).then(
      (list) => {
        if (!live) {
          return;
        }
        setTypes({ list, loading: false });
        const q = latest.current;
        const pick = pickDefaultProfileType(list);
        if (!q.profileTypeId && !q.expr?.trim() && pick) {
          // the type shown is the type run: Grafana ran the query before it had one (and sent
          // nothing), so Explore's first visit would show "No data" until the type is picked again
          change({ ...q, profileTypeId: pick });
          runRef.current();
        }
      },
      (e: unknown) =>
        live && setTypes({ list: [], loading: false, error: `Loading profile types failed: ${message(e)}` })
    );
    return () => {
      live = false;
    };
  }, [client, hour, change]);

  const source: SuggestionSource = useMemo(
    () => ({
      labelNames: (scope, pt) => client.labelNames(scopeToProfileType(scope, pt || query.profileTypeId), range),
      labelValues: (label, scope, pt) =>
        client.labelValues(label, scopeToProfileType(scope, pt || query.profileTypeId), range),
      profileTypes: () => client.profileTypes(range),
    }),
    // the range only matters to the minute (the cache rounds it)
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [client, query.profileTypeId, range && Math.floor(range.from / 60_000), range && Math.ceil(range.to / 60_000)]
  );

  const expr = query.expr ?? '';
  const exprSel = expr.trim() ? firstExprSelector(expr) : undefined;
  const chipsSelector = exprSel ? exprSel.text : query.labelSelector || '{}';
  const setChipsSelector = (sel: string) =>
    exprSel
      ? change({ ...query, expr: expr.slice(0, exprSel.start) + sel + expr.slice(exprSel.end) })
      : change({ ...query, labelSelector: sel });
  const loadGroupByNames = useCallback(
    () => source.labelNames(query.labelSelector || '{}'),
    [source, query.labelSelector]
  );

  return (
    <div
      className={styles.editor}
      data-testid="emberscope-query-editor"
      onKeyDown={(e) => {
        if (e.key === 'Enter' && e.shiftKey) {
          e.preventDefault();
          run();
        }
      }}
    >
      <InlineFieldRow>
        <ProfileTypeCascader
          types={types.list}
          loading={types.loading}
          error={types.error}
          value={query.profileTypeId}
          onChange={(id) => {
            saveLastProfileType(id);
            change({ ...latest.current, profileTypeId: id });
            run();
          }}
        />
        <InlineField label="Label selector" labelWidth={16} grow>
          <CompletingInput
            aria-label="Label selector"
            data-testid="label-selector"
            mode="selector"
            value={query.labelSelector ?? ''}
            placeholder='{service_name="api"}'
            source={source}
            onChange={(labelSelector) => change({ ...latest.current, labelSelector })}
            onBlur={runIfChanged}
          />
        </InlineField>
      </InlineFieldRow>
      <InlineFieldRow>
        <InlineField
          label="Matchers"
          labelWidth={14}
          grow
          className={styles.shrinkable}
          tooltip={exprSel ? 'Editing the selector of the query text' : 'Editing the label selector'}
        >
          <MatcherChips
            selector={chipsSelector}
            onChange={setChipsSelector}
            source={source}
            profileTypeId={query.profileTypeId}
          />
        </InlineField>
      </InlineFieldRow>
      <InlineFieldRow>
        <InlineField
          label="Query text"
          labelWidth={14}
          grow
          tooltip='Optional. When set it is used instead of the profile type, selector and group-by: type{matchers} by (labels), frames_from_label(q, "label"), reverse(q), focus(q, "re"), drop_frames(q, "re"), truncate(q, depth)'
        >
          <CompletingInput
            aria-label="Query text"
            data-testid="query-expr"
            mode="expr"
            value={expr}
            placeholder={
              query.profileTypeId
                ? buildExpr(query.profileTypeId, query.labelSelector, query.groupBy)
                : 'process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="api"} by (region)'
            }
            source={source}
            onChange={(e) => change({ ...latest.current, expr: e })}
            onBlur={runIfChanged}
          />
        </InlineField>
      </InlineFieldRow>
      {expr.trim() && (
        <div className={styles.hint} data-testid="expr-hint">
          The query text is set: it is used instead of the profile type, label selector and group-by.
        </div>
      )}
      {query.queryType === 'diff' && query.comparison && (
        <ComparisonRow
          comparison={query.comparison}
          source={source}
          range={range}
          onChange={(comparison) => change({ ...latest.current, comparison })}
          onRunQuery={run}
        />
      )}
      <SeriesTargetRow query={query} onChange={change} onRunQuery={run} />
      {!alerting && <ViewRow query={query} onChange={change} onRunQuery={run} />}
      <OptionsRow
        query={query}
        defaultType={defaultType}
        queryTypeOptions={typeOptions}
        onChange={(q) => change(withDefaultComparison(q, range))}
        onRunQuery={run}
        loadLabelNames={loadGroupByNames}
      />
      <Stack direction="column" gap={1}>
        <Notices frames={frames} refId={query.refId} />
        <ExportButtons query={query} range={range} frames={frames} exporter={exporter} />
      </Stack>
    </div>
  );
}

function message(e: unknown): string {
  if (e instanceof Error) {
    return e.message;
  }
  const o = e as { data?: { message?: string; error?: string }; statusText?: string } | undefined;
  return o?.data?.message ?? o?.data?.error ?? o?.statusText ?? String(e);
}

const getStyles = (theme: GrafanaTheme2) => ({
  editor: css({ display: 'flex', flexDirection: 'column', gap: theme.spacing(0.5), width: '100%' }),
  // lets the chips wrap in a narrow editor instead of widening the page
  shrinkable: css({ flex: '1 1 0', minWidth: 0, '& > div': { minWidth: 0, flexShrink: 1 } }),
  hint: css({ color: theme.colors.text.secondary, fontSize: theme.typography.bodySmall.fontSize }),
});
