// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useMemo } from 'react';
import { css } from '@emotion/css';
import { DataFrame, GrafanaTheme2 } from '@grafana/data';
import { Button, useStyles2 } from '@grafana/ui';
import { EmberscopeQuery, FetchResourceClient, PlaygroundQueryEditor } from '../datasource';
import { DATASOURCE_UID } from './api';
import type { TimeSpan } from './pageState';

export interface QueryBarProps {
  query: EmberscopeQuery;
  onChange: (q: EmberscopeQuery) => void;
  onRun: () => void;
  /** Whether a query is out: the Run button spins and waits. */
  running: boolean;
  range: TimeSpan;
  /** The frames of the last answer, for the editor's export buttons. */
  frames: DataFrame[];
}

/** The datasource's query editor, as Explore shows it, with a Run button. */
export function QueryBar({ query, onChange, onRun, running, range, frames }: QueryBarProps) {
  const styles = useStyles2(getStyles);
  const client = useMemo(() => new FetchResourceClient(`/api/datasources/uid/${DATASOURCE_UID}/resources`), []);
  return (
    <div data-testid="query-row" className={styles.row}>
      <div className={styles.editor}>
        <PlaygroundQueryEditor
          query={query}
          onChange={onChange}
          onRunQuery={onRun}
          client={client}
          exporter={client}
          range={range}
          app="explore"
          frames={frames}
        />
      </div>
      <Button
        onClick={onRun}
        disabled={running}
        icon={running ? 'spinner' : 'play'}
        data-testid="run-query"
        className={styles.run}
      >
        Run
      </Button>
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  row: css({ display: 'flex', flexWrap: 'wrap', gap: theme.spacing(1), alignItems: 'flex-start', minWidth: 0 }),
  editor: css({ flex: '1 1 480px', minWidth: 0 }),
  run: css({ flex: 'none' }),
});
