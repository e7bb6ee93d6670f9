// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useCallback, useState } from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2, SelectableValue } from '@grafana/data';
import {
  Collapse,
  InlineField,
  InlineFieldRow,
  InlineSwitch,
  Input,
  MultiSelect,
  RadioButtonGroup,
  useStyles2,
} from '@grafana/ui';
import {
  DEFAULT_LIVE_INTERVAL,
  DEFAULT_LIVE_WINDOW,
  DEFAULT_MAX_NODES,
  EmberscopeQuery,
  GRANULARITY_OPTIONS,
  Granularity,
  QUERY_TYPE_OPTIONS,
  QueryType,
  parseDuration,
} from '../types';
import { useLazyOptions } from './useLazyOptions';
import { TraceOptions } from './TraceOptions';

/** The options header's summary: `Type: both, Group by: region, Max nodes: 16384[, Limit: 20][, Live: 15m every 10s]`. */
export function optionsSummary(q: EmberscopeQuery, defaultType: QueryType): string {
  const parts = [`Type: ${q.queryType ?? defaultType}`];
  if (q.groupBy?.length) {
    parts.push(`Group by: ${q.groupBy.join(', ')}`);
  }
  parts.push(`Max nodes: ${q.maxNodes || DEFAULT_MAX_NODES}`);
  if (q.limit) {
    parts.push(`Limit: ${q.limit}`);
  }
  if (q.granularity && q.granularity !== 'functions') {
    parts.push(`Granularity: ${q.granularity}`);
  }
  if (q.spanSelector?.length) {
    parts.push(`Spans: ${q.spanSelector.join(', ')}`);
  }
  if (q.includeExemplars) {
    parts.push('Exemplars');
  }
  if (q.live) {
    parts.push(`Live: ${q.liveWindow || DEFAULT_LIVE_WINDOW} every ${q.liveInterval || DEFAULT_LIVE_INTERVAL}`);
  }
  return parts.join(', ');
}

export interface OptionsRowProps {
  query: EmberscopeQuery;
  defaultType: QueryType;
  onChange: (q: EmberscopeQuery) => void;
  /** Called after a change that should show at once (query type, group-by). */
  onRunQuery: () => void;
  /** Label names for the group-by, scoped to the query. */
  loadLabelNames: () => Promise<string[]>;
  /** The query types offered; all by default, fewer in an alert rule. */
  queryTypeOptions?: Array<SelectableValue<QueryType>>;
}

/** Reads a positive whole number from a text field; empty means unset. */
function positive(text: string): number | undefined | 'invalid' {
  const s = text.trim();
  if (!s) {
    return undefined;
  }
  return /^\d+$/.test(s) && Number(s) > 0 ? Number(s) : 'invalid';
}

/** The collapsed options: query type, group-by, max nodes and limit, summarised in the header. */
export function OptionsRow({
  query,
  defaultType,
  onChange,
  onRunQuery,
  loadLabelNames,
  queryTypeOptions = QUERY_TYPE_OPTIONS,
}: OptionsRowProps) {
  const styles = useStyles2(getStyles);
  const [open, setOpen] = useState(false);
  const names = useLazyOptions(
    useCallback(async () => (await loadLabelNames()).filter((n) => !n.startsWith('__')), [loadLabelNames])
  );
  const [maxNodes, setMaxNodes] = useState(query.maxNodes ? String(query.maxNodes) : '');
  const [limit, setLimit] = useState(query.limit ? String(query.limit) : '');
  // a query changed from outside (history, another editor) shows its own numbers
  const [shown, setShown] = useState({ maxNodes: query.maxNodes, limit: query.limit });
  if (shown.maxNodes !== query.maxNodes || shown.limit !== query.limit) {
    setShown({ maxNodes: query.maxNodes, limit: query.limit });
    setMaxNodes(query.maxNodes ? String(query.maxNodes) : '');
    setLimit(query.limit ? String(query.limit) : '');
  }
  const [liveWindow, setLiveWindow] = useState(query.liveWindow ?? '');
  const [liveInterval, setLiveInterval] = useState(query.liveInterval ?? '');
  const [shownLive, setShownLive] = useState({ w: query.liveWindow, i: query.liveInterval });
  if (shownLive.w !== query.liveWindow || shownLive.i !== query.liveInterval) {
    setShownLive({ w: query.liveWindow, i: query.liveInterval });
    setLiveWindow(query.liveWindow ?? '');
    setLiveInterval(query.liveInterval ?? '');
  }
  const windowOk = !liveWindow.trim() || parseDuration(liveWindow) !== undefined;
  const intervalOk = !liveInterval.trim() || parseDuration(liveInterval) !== undefined;
  const commitLive = (field: 'liveWindow' | 'liveInterval', text: string, ok: boolean) => {
    const v = text.trim() || undefined;
    if (ok && v !== query[field]) {
      onChange({ ...query, [field]: v });
      if (query.live) {
        onRunQuery();
      }
    }
  };
  const mn = positive(maxNodes);
  const lim = positive(limit);
  const commit = (field: 'maxNodes' | 'limit', v: number | undefined | 'invalid') => {
    if (v !== 'invalid' && v !== query[field]) {
      onChange({ ...query, [field]: v });
      onRunQuery();
    }
  };
  const groupBy = query.groupBy ?? [];
  return (
    <Collapse
      collapsible
      isOpen={open}
      onToggle={() => setOpen(!open)}
      label={
        <span className={styles.header}>
          Options{' '}
          <span className={styles.summary} data-testid="options-summary">
            {optionsSummary(query, defaultType)}
          </span>
        </span>
      }
    >
      <InlineFieldRow>
        <InlineField label="Query type" labelWidth={14} className={styles.shrinkable}>
          <RadioButtonGroup<QueryType>
            className={styles.wrapping}
            aria-label="Query type"
            options={queryTypeOptions}
            value={query.queryType ?? defaultType}
            onChange={(v) => {
              onChange({ ...query, queryType: v });
              onRunQuery();
            }}
          />
        </InlineField>
      </InlineFieldRow>
      <InlineFieldRow>
        <InlineField
          label="Granularity"
          labelWidth={14}
          tooltip="What a flamegraph frame stands for, as pprof's -functions, -lines and -files: lines and files are read from the server's merged pprof"
        >
          <RadioButtonGroup<Granularity>
            aria-label="Granularity"
            options={GRANULARITY_OPTIONS}
            value={query.granularity ?? 'functions'}
            onChange={(v) => {
              onChange({ ...query, granularity: v === 'functions' ? undefined : v });
              onRunQuery();
            }}
          />
        </InlineField>
      </InlineFieldRow>
      <InlineFieldRow>
        <InlineField
          label="Group by"
          labelWidth={14}
          tooltip="One series per value set of these labels; in a flamegraph, one base frame per value"
        >
          <MultiSelect
            aria-label="Group by"
            width={40}
            allowCustomValue
            placeholder="Label names"
            value={groupBy}
            options={[...new Set([...groupBy, ...names.options.map((o) => o.value!)])].map((v) => ({
              label: v,
              value: v,
            }))}
            isLoading={names.isLoading}
            onOpenMenu={names.onOpenMenu}
            noOptionsMessage={names.error ?? 'No label names'}
            onChange={(vs) => {
              onChange({ ...query, groupBy: vs.map((v) => v.value!).filter(Boolean) });
              onRunQuery();
            }}
          />
        </InlineField>
        <InlineField
          label="Max nodes"
          invalid={mn === 'invalid'}
          error="A whole number above 0"
          tooltip={`Node budget of the flamegraph; the default is ${DEFAULT_MAX_NODES}`}
        >
          <Input
            aria-label="Max nodes"
            width={12}
            placeholder={String(DEFAULT_MAX_NODES)}
            value={maxNodes}
            onChange={(e) => setMaxNodes(e.currentTarget.value)}
            onBlur={() => commit('maxNodes', mn)}
          />
        </InlineField>
        <InlineField
          label="Limit"
          invalid={lim === 'invalid'}
          error="A whole number above 0"
          tooltip="Most series or label values kept; the rest are summed into one 'other'"
        >
          <Input
            aria-label="Limit"
            width={10}
            placeholder="20"
            value={limit}
            onChange={(e) => setLimit(e.currentTarget.value)}
            onBlur={() => commit('limit', lim)}
          />
        </InlineField>
      </InlineFieldRow>
      <InlineFieldRow>
        <InlineField
          label="Live"
          labelWidth={14}
          tooltip="Keep the query up to date: it covers the last window and is re-run every interval"
        >
          <InlineSwitch
            aria-label="Live"
            data-testid="live-switch"
            value={Boolean(query.live)}
            onChange={(e) => {
              onChange({ ...query, live: e.currentTarget.checked || undefined });
              onRunQuery();
            }}
          />
        </InlineField>
        <InlineField
          label="Window"
          invalid={!windowOk}
          error="A duration such as 15m or 1h"
          tooltip={`How far back a live query looks from now; the default is ${DEFAULT_LIVE_WINDOW}`}
        >
          <Input
            aria-label="Live window"
            width={10}
            placeholder={DEFAULT_LIVE_WINDOW}
            value={liveWindow}
            onChange={(e) => setLiveWindow(e.currentTarget.value)}
            onBlur={() => commitLive('liveWindow', liveWindow, windowOk)}
          />
        </InlineField>
        <InlineField
          label="Every"
          invalid={!intervalOk}
          error="A duration such as 10s or 1m"
          tooltip={`How often a live query is re-run; the default is ${DEFAULT_LIVE_INTERVAL}`}
        >
          <Input
            aria-label="Live interval"
            width={10}
            placeholder={DEFAULT_LIVE_INTERVAL}
            value={liveInterval}
            onChange={(e) => setLiveInterval(e.currentTarget.value)}
            onBlur={() => commitLive('liveInterval', liveInterval, intervalOk)}
          />
        </InlineField>
      </InlineFieldRow>
      <TraceOptions query={query} onChange={onChange} onRunQuery={onRunQuery} />
    </Collapse>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  // the query type buttons wrap onto more lines in a narrow editor (at 200 % zoom or in a
  // split Explore pane) instead of being clipped
  shrinkable: css({ minWidth: 0, flex: '0 1 auto', '& > div': { minWidth: 0, flexShrink: 1 } }),
  wrapping: css({ flexWrap: 'wrap', height: 'auto', maxWidth: '100%' }),
  header: css({ display: 'flex', gap: theme.spacing(2), alignItems: 'baseline' }),
  summary: css({
    color: theme.colors.text.secondary,
    fontSize: theme.typography.bodySmall.fontSize,
    fontWeight: 'normal',
  }),
});
