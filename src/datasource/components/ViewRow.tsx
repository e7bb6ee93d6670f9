// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2, SelectableValue } from '@grafana/data';
import { Button, InlineField, InlineFieldRow, Select, useStyles2 } from '@grafana/ui';
import { EmberscopeQuery } from '../types';

/**
 * The query's `view` as the editor reads it: the flamegraph panel's link (what its "Copy link"
 * writes: the zoomed call path, view, search, sandwich, collapse and colours). The panel owns the
 * format; the editor shows it, sets the view, and clears it.
 */
interface QueryView {
  path?: unknown;
  view?: unknown;
  search?: unknown;
  sandwich?: unknown;
  collapse?: unknown;
  color?: unknown;
}

/** The views the panel opens in, as its header names them. */
export const VIEW_OPTIONS: Array<SelectableValue<string>> = [
  { value: 'graph', label: 'Flame graph' },
  { value: 'table', label: 'Top table' },
  { value: 'both', label: 'Top table and flame graph' },
  { value: 'tree', label: 'Call tree' },
  { value: 'callgraph', label: 'Call graph' },
];

const COLOR_NAMES: Record<string, string> = {
  self: 'by self',
  selfNode: 'by self per node',
  total: 'by total',
  package: 'by package',
};

/** The query types whose answer the flamegraph panel draws (no query type: the app's default). */
const FLAME_TYPES = [undefined, 'profile', 'both', 'diff'];

/**
 * What the view opens besides the view itself, in words: `Zoom: main.main › main.work · Search:
 * json · Sandwich: main.work · Colours: by package · Collapse: off`; empty when nothing.
 */
export function viewSummary(view: QueryView | undefined): string {
  if (!view) {
    return '';
  }
  const parts: string[] = [];
  if (Array.isArray(view.path) && view.path.length > 0) {
    parts.push(`Zoom: ${view.path.join(' › ')}`);
  }
  if (typeof view.search === 'string' && view.search) {
    parts.push(`Search: ${view.search}`);
  }
  if (typeof view.sandwich === 'string') {
    parts.push(`Sandwich: ${view.sandwich}`);
  }
  if (typeof view.color === 'string' && COLOR_NAMES[view.color]) {
    parts.push(`Colours: ${COLOR_NAMES[view.color]}`);
  }
  if (typeof view.collapse === 'boolean') {
    parts.push(`Collapse: ${view.collapse ? 'on' : 'off'}`);
  }
  return parts.join(' · ');
}

/** The query with its view's `view` set (or unset); a view left with nothing is dropped. */
export function withViewMode(q: EmberscopeQuery, mode: string | undefined): EmberscopeQuery {
  const view: Record<string, unknown> = { ...q.view };
  if (mode) {
    view.view = mode;
  } else {
    delete view.view;
  }
  if (Object.keys(view).length > 0) {
    return { ...q, view };
  }
  const { view: _dropped, ...rest } = q;
  return rest;
}

export interface ViewRowProps {
  query: EmberscopeQuery;
  onChange: (q: EmberscopeQuery) => void;
  onRunQuery: () => void;
}

/**
 * The "View" row: which view the flamegraph panel opens the query's answer in, what else the
 * query's view opens (a zoom, a search, a sandwich: a "Copy link" made them), and Clear. Grafana
 * keeps the query, so Explore's address and a dashboard's JSON reopen the same picture.
 */
export function ViewRow({ query, onChange, onRunQuery }: ViewRowProps) {
  const styles = useStyles2(getStyles);
  if (!FLAME_TYPES.includes(query.queryType)) {
    return null;
  }
  const view = query.view as QueryView | undefined;
  const mode = typeof view?.view === 'string' ? view.view : undefined;
  const summary = viewSummary(view);
  return (
    <InlineFieldRow>
      <InlineField
        label="View"
        labelWidth={14}
        tooltip="The view the flamegraph panel opens in; a panel's Copy link in Explore also keeps its zoom, search and sandwich here"
      >
        <Select
          aria-label="View"
          width={30}
          isClearable
          placeholder="As the panel is set"
          options={VIEW_OPTIONS}
          value={mode ?? null}
          onChange={(v) => {
            onChange(withViewMode(query, v?.value));
            onRunQuery();
          }}
        />
      </InlineField>
      {summary && (
        <span className={styles.summary} data-testid="query-view-summary" title={summary}>
          {summary}
        </span>
      )}
      {view && (
        <Button
          size="sm"
          variant="secondary"
          fill="text"
          icon="times"
          aria-label="Clear the query's view"
          onClick={() => {
            const { view: _dropped, ...rest } = query;
            onChange(rest);
            onRunQuery();
          }}
        >
          Clear
        </Button>
      )}
    </InlineFieldRow>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  summary: css({
    alignSelf: 'center',
    minWidth: 0,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    color: theme.colors.text.secondary,
    fontSize: theme.typography.bodySmall.fontSize,
    marginRight: theme.spacing(1),
  }),
});
