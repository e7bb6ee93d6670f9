// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useEffect, useRef } from 'react';
import { cx } from '@emotion/css';
import { Alert, useStyles2 } from '@grafana/ui';
import { formatValue } from '../../model/format';
import { hottestLines, SideCost, SourceFile } from './sourceApi';
import { getStyles } from './styles';

/** Grafana's unit for a pprof sample unit. */
function grafanaUnit(unit: string): string {
  switch (unit) {
    case 'nanoseconds':
      return 'ns';
    case 'bytes':
      return 'bytes';
    default:
      return 'short';
  }
}

/**
 * One file of the source view: where it came from, and its lines with self and total; the hottest
 * marked and scrolled to. On a diff, each line shows the baseline's, the comparison's and the
 * difference (comparison less baseline, as `go tool pprof -diff_base` lists it).
 */
export function SourceFileView({
  file,
  unit,
  total,
  diff = false,
}: {
  file: SourceFile;
  unit: string;
  total: number;
  diff?: boolean;
}) {
  const styles = useStyles2(getStyles);
  const hot = hottestLines(file);
  const hottest = hot[0];
  const hottestRow = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    hottestRow.current?.scrollIntoView?.({ block: 'center' });
  }, [file]);
  const fmt = (v: number) => (v === 0 ? '.' : formatValue(v, grafanaUnit(unit)));
  const signed = (v: number) => (v > 0 ? `+${fmt(v)}` : fmt(v));
  const side = (name: string, c: SideCost | undefined) => (
    <>
      <td className={styles.num} data-testid={`source-${name}-self`} data-value={c?.self ?? 0}>
        {fmt(c?.self ?? 0)}
      </td>
      <td className={styles.num} data-testid={`source-${name}-total`} data-value={c?.total ?? 0}>
        {fmt(c?.total ?? 0)}
      </td>
    </>
  );
  const pct = (v: number) =>
    total > 0 && v !== 0 ? `${((100 * v) / total).toFixed(2)}% of ${diff ? "the baseline's " : ''}total` : undefined;
  const link = (line: number) => (file.link ? `${file.link}#L${line}` : undefined);
  return (
    <section className={styles.file} data-testid="source-file">
      <div className={styles.fileHeader}>
        <span className={styles.path}>{file.path}</span>
        {file.origin && <span className={styles.origin}>from {file.origin}</span>}
        {file.goVersion && (
          <span className={styles.origin} data-testid="source-go-version">
            Go {file.goVersion}
          </span>
        )}
        {file.link && (
          <a
            className={styles.link}
            href={link(hottest ?? file.startLine ?? 1)}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="source-link"
          >
            Open in repository
          </a>
        )}
      </div>
      {file.warning && (
        <Alert severity="warning" title="The file found does not match the profile">
          {file.warning}
        </Alert>
      )}
      {file.message && (
        <Alert severity="info" title="No source text">
          {file.message}
        </Alert>
      )}
      <div className={styles.scroller}>
        <table className={styles.table}>
          <thead>
            {diff && (
              <tr>
                <th className={styles.header} colSpan={2}>
                  Baseline
                </th>
                <th className={styles.header} colSpan={2}>
                  Comparison
                </th>
                <th className={styles.header} colSpan={2}>
                  Difference
                </th>
                <th className={styles.header} colSpan={2} />
              </tr>
            )}
            <tr>
              {diff && (
                <>
                  <th className={styles.header}>Self</th>
                  <th className={styles.header}>Total</th>
                  <th className={styles.header}>Self</th>
                  <th className={styles.header}>Total</th>
                </>
              )}
              <th className={styles.header}>Self</th>
              <th className={styles.header}>Total</th>
              <th className={styles.header}>Line</th>
              <th className={styles.header} />
            </tr>
          </thead>
          <tbody>
            {file.lines.map((l) => (
              <tr
                key={l.line}
                ref={l.line === hottest ? hottestRow : undefined}
                className={cx(l.line === hottest ? styles.hottest : hot.includes(l.line) && styles.hot)}
                data-testid="source-line"
                data-line={l.line}
                data-self={l.self}
                data-total={l.total}
                data-hot={hot.includes(l.line) ? (l.line === hottest ? 'hottest' : 'hot') : undefined}
              >
                {diff && side('baseline', l.baseline)}
                {diff && side('comparison', l.comparison)}
                <td className={cx(styles.num, diff && styles.change)} title={pct(l.self)}>
                  {diff ? signed(l.self) : fmt(l.self)}
                </td>
                <td className={cx(styles.num, diff && styles.change)} title={pct(l.total)}>
                  {diff ? signed(l.total) : fmt(l.total)}
                </td>
                <td className={styles.num}>{l.line}</td>
                <td className={styles.code}>{l.text}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
