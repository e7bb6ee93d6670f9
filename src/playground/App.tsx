// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useMemo } from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { Alert, useStyles2 } from '@grafana/ui';
import type { EmberscopeQuery } from '../datasource/types';
import { FlameArea } from './FlameArea';
import { NoveltyDiffs, novelPointsOf } from './NoveltyDiffs';
import { shownFlame, shownViews } from './pageState';
import { usePanelOptions } from './panelOptions';
import { QueryBar } from './QueryBar';
import { ResultTable } from './ResultTable';
import { SeriesArea } from './SeriesArea';
import { usePlaygroundPage } from './usePlaygroundPage';
import { ViewBar } from './ViewBar';

/**
 * The playground page: the datasource's query editor, and under it what the query type
 * returns (series graph with legend and markers, the flamegraph panel the plugin ships, or a
 * table), against Grafana's HTTP shapes served by `emberscope playground`. The address holds
 * the query text and range; a live query is re-run every live interval (no Grafana Live here).
 */
export function App() {
  const styles = useStyles2(getStyles);
  const [options, setOptions] = usePanelOptions();
  const { state, variables, actions } = usePlaygroundPage({ ignore: options.ignore, hide: options.hide });
  const { dispatch } = actions;
  const { answer, ran, range, selection } = state;
  const views = shownViews(state);
  const { novelDiff, picked } = state;
  // memoised: the panel reads its data anew when the request changes
  const flameQuery = useMemo(() => flameQueryOf(ran, !!novelDiff || !!picked), [ran, novelDiff, picked]);
  const novelPoints = useMemo(
    () => (ran?.queryType === 'novelty' ? novelPointsOf(answer.series, answer.annotations) : []),
    [ran, answer]
  );

  return (
    <div className={styles.page}>
      <QueryBar
        query={state.query}
        onChange={actions.edit}
        onRun={actions.run}
        running={state.inflight > 0}
        range={range}
        frames={answer.frames}
      />
      <ViewBar
        range={range}
        ran={ran}
        picked={state.picked?.exemplar}
        onClosePicked={() => dispatch({ type: 'exemplarClosed' })}
        selection={selection}
        onClearSelection={() => dispatch({ type: 'selectionCleared' })}
        flameControls={views.flame}
        options={options}
        onOptionsChange={setOptions}
        onRange={actions.runLast}
      />
      {state.error && (
        <Alert
          title="Query failed"
          severity="error"
          data-testid="query-error"
          onRemove={() => dispatch({ type: 'errorDismissed' })}
        >
          {state.error}
        </Alert>
      )}
      {/* both panel boxes stay mounted (hidden when unused) so that their size observers keep working */}
      <SeriesArea
        shown={views.series}
        answer={answer}
        ran={ran}
        variables={variables}
        range={range}
        selection={selection}
        onSelect={actions.selectRange}
        onExemplar={actions.openExemplar}
        links={state.links}
        onPointLinks={(at, links) => dispatch({ type: 'pointClicked', at, links })}
      />
      <NoveltyDiffs points={novelPoints} open={state.novelDiff?.point} onOpen={actions.openNovelDiff} />
      {views.table && answer.tables.map((f, i) => <ResultTable key={`${f.name ?? ''}-${i}`} frame={f} />)}
      <FlameArea
        shown={views.flameArea}
        flame={shownFlame(state)}
        range={selection ?? range}
        options={options}
        onOptionsChange={setOptions}
        query={flameQuery}
      />
    </div>
  );
}

/**
 * The query the flamegraph shown is of, when it is the run's (or a range of it): not an exemplar's.
 * A diff's is passed as it ran, so that the source view asks for both sides.
 */
function flameQueryOf(ran: EmberscopeQuery | undefined, other: boolean): EmberscopeQuery | undefined {
  if (!other && ran?.queryType === 'diff') {
    return ran;
  }
  if (other || !ran || !['profile', 'both', 'metrics'].includes(ran.queryType ?? 'profile')) {
    return undefined;
  }
  return { ...ran, queryType: 'profile', live: undefined };
}

const getStyles = (theme: GrafanaTheme2) => ({
  page: css({
    height: '100%',
    display: 'flex',
    flexDirection: 'column',
    gap: theme.spacing(1),
    padding: theme.spacing(1),
    boxSizing: 'border-box',
    background: theme.colors.background.primary,
    color: theme.colors.text.primary,
  }),
});
