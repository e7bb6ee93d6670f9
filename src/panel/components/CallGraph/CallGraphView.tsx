// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useCallback, useEffect, useState } from 'react';
import { css, cx } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';
import { FlameData } from '../../../shared/flameData';
import { CallGraph, CallGraphBuild, PPROF_GRAPH_DEFAULTS, sideValues } from '../../model/callGraph';
import { PlacedGraph } from '../../model/callGraphLayout';
import { chunkStep, inIdleSteps, promiseStep } from '../../model/idle';
import { keepLast, memoOf } from '../../model/memo';
import { placeCallGraphOffThread } from '../../worker/place';
import { formatValue } from '../../model/format';
import { MAX_CALL_GRAPH_NODES } from '../../options';
import { CallGraphPicture, CallGraphViewProps } from './CallGraphPicture';
import { measure } from './svg';
import { useSizeClass } from '../sizeStyles';

/**
 * pprof's call graph (its web UI's default Graph view): functions as boxes whose text grows with
 * their flat, arrows from caller to callee as thick as the value that went through them, red as
 * they grow, dotted where frames the picture leaves out were passed over. Trimmed as pprof trims it
 * (see callGraph); the legend says what was left out. Drag to pan, wheel to zoom, double-click or
 * "Fit" to see it whole; a click picks a function, whose sandwich is a button away.
 */
export function CallGraphView(props: CallGraphViewProps) {
  const { data, width, height, nodeCount } = props;
  const styles = useStyles2(getStyles);
  const size = useSizeClass(width, height);
  // a saved count out of range (a hand-edited dashboard) is brought back into it
  const count = Math.max(1, Math.min(MAX_CALL_GRAPH_NODES, Math.round(nodeCount || PPROF_GRAPH_DEFAULTS.nodeCount)));
  const format = useCallback((v: number) => formatValue(v, data.unit), [data.unit]);
  const key = `${count}`;
  const [made, setMade] = useState<Made | undefined>();
  // made before (for this frame and count: a switch back to the view), or made by the effect below
  const ready = made && made.data === data && made.key === key ? made : madeOf(data, key);
  const [placing, setPlacing] = useState<{ data: FlameData; key: string } | undefined>();
  const stage = placing && placing.data === data && placing.key === key ? 'layout' : 'graph';
  useEffect(() => {
    if (ready) {
      return;
    }
    // the graph is made in idle slices (three passes over every row at most), then placed off the
    // main thread: the switch to this view is one frame, the page takes inputs
    const diff = data.valueRight !== undefined;
    const build = new CallGraphBuild(
      data,
      { ...PPROF_GRAPH_DEFAULTS, nodeCount: count },
      sideValues(data, diff ? 'difference' : 'both')
    );
    let live = true;
    const cancelIdle = inIdleSteps([
      chunkStep(() => build.chunk()),
      promiseStep(() => {
        setPlacing({ data, key });
        // placed in the model worker (here after a paint that says so, where there is none)
        return placeCallGraphOffThread(build.graph!, measure, format).then((placed) => {
          if (live) {
            const m: Made = { data, key, graph: build.graph!, placed };
            remember(m);
            setMade(m);
          }
        });
      }),
    ]);
    return () => {
      live = false;
      cancelIdle();
    };
  }, [ready, data, key, count, format]);
  if (!ready) {
    return (
      <div data-testid="callgraph" data-state={stage} className={cx(styles.making, size)}>
        {stage === 'graph' ? 'Making the call graph…' : 'Placing the call graph…'}
      </div>
    );
  }
  return <CallGraphPicture {...props} graph={ready.graph} placed={ready.placed} format={format} />;
}

const getStyles = (theme: GrafanaTheme2) => ({
  making: css({
    display: 'grid',
    placeItems: 'center',
    color: theme.colors.text.secondary,
    fontSize: theme.typography.bodySmall.fontSize,
  }),
});

/** A made call graph and its picture, for one frame and node count. */
interface Made {
  data: FlameData;
  key: string;
  graph: CallGraph;
  placed: PlacedGraph;
}

// the last graphs made, per frame: a switch back to the view shows them at once
const madeByData = memoOf((_: FlameData) => new Map<string, Made>());
const KEEP_MADE = 3;

function madeOf(data: FlameData, key: string): Made | undefined {
  return madeByData.peek(data)?.get(key);
}

function remember(m: Made) {
  keepLast(madeByData(m.data), m.key, m, KEEP_MADE);
}
