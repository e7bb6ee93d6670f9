// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useEffect, useState } from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { Alert, ClipboardButton, LoadingPlaceholder, Modal, useStyles2, useTheme2 } from '@grafana/ui';
import { formatPercent, formatValue } from '../../model/format';
import { OverTimeChart } from './OverTimeChart';
import { OverTimeSeries, OverTimeSource, queryText } from './overTimeQuery';

type Loaded = { key: string; series?: OverTimeSeries; error?: string };

const CHART_WIDTH = 720;
const CHART_HEIGHT = 140;

const getStyles = (theme: GrafanaTheme2) => ({
  modal: css({ width: CHART_WIDTH + 64, maxWidth: '95vw' }),
  path: css({
    fontFamily: theme.typography.fontFamilyMonospace,
    fontSize: theme.typography.bodySmall.fontSize,
    color: theme.colors.text.secondary,
    marginBottom: theme.spacing(1),
    wordBreak: 'break-all',
  }),
  heading: css({ fontSize: theme.typography.h6.fontSize, margin: theme.spacing(1, 0, 0.5) }),
  query: css({
    fontFamily: theme.typography.fontFamilyMonospace,
    fontSize: theme.typography.bodySmall.fontSize,
    maxHeight: 160,
    overflow: 'auto',
    margin: theme.spacing(0.5, 0),
  }),
});

/**
 * "Show over time" of one call path: its value per step and its share of each step's whole, from
 * the datasource's `callSiteSeries` query, and that query's text to put in a dashboard panel or an
 * alert rule.
 */
export function OverTimeModal({
  source,
  path,
  onClose,
}: {
  source: OverTimeSource;
  path: string[];
  onClose: () => void;
}) {
  const styles = useStyles2(getStyles);
  const theme = useTheme2();
  const key = JSON.stringify(path);
  const [loaded, setLoaded] = useState<Loaded>();
  useEffect(() => {
    let live = true;
    source.fetch(JSON.parse(key)).then(
      (series) => live && setLoaded({ key, series }),
      (e: Error) => live && setLoaded({ key, error: e.message })
    );
    return () => {
      live = false;
    };
  }, [source, key]);
  const current = loaded?.key === key ? loaded : undefined;
  const series = current?.series;
  const text = queryText(source.queryOf(path));
  return (
    <Modal title={`Over time: ${path[path.length - 1] ?? 'total'}`} isOpen onDismiss={onClose} className={styles.modal}>
      <div data-testid="over-time">
        <div className={styles.path} title={path.join(' › ')}>
          {path.join(' › ')}
        </div>
        {!current && <LoadingPlaceholder text="Merging each step's profiles…" />}
        {current?.error && (
          <Alert severity="error" title="The call path series could not be made">
            {current.error}
          </Alert>
        )}
        {series && (
          <>
            <div className={styles.heading}>Value per step</div>
            <OverTimeChart
              name="value"
              times={series.times}
              values={series.values}
              width={CHART_WIDTH}
              height={CHART_HEIGHT}
              format={(v) => formatValue(v, series.unit)}
              color={theme.visualization.getColorByName('blue')}
            />
            <div className={styles.heading}>Share of the whole</div>
            <OverTimeChart
              name="share"
              times={series.times}
              values={series.shares}
              width={CHART_WIDTH}
              height={CHART_HEIGHT}
              format={formatPercent}
              color={theme.visualization.getColorByName('orange')}
            />
          </>
        )}
        <div className={styles.heading}>Query (for a dashboard panel or an alert rule)</div>
        <pre className={styles.query} data-testid="over-time-query">
          {text}
        </pre>
        <ClipboardButton icon="copy" variant="secondary" size="sm" getText={() => text}>
          Copy query
        </ClipboardButton>
      </div>
    </Modal>
  );
}
