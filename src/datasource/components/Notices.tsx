// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { css } from '@emotion/css';
import { DataFrame, GrafanaTheme2 } from '@grafana/data';
import { Icon, useStyles2 } from '@grafana/ui';

/** The distinct notices of a query's frames (e.g. "Showing the 20 largest of 57 series…"). */
export function noticesOf(frames: DataFrame[] | undefined, refId?: string): Array<{ text: string; severity: string }> {
  const seen = new Set<string>();
  const out: Array<{ text: string; severity: string }> = [];
  for (const f of frames ?? []) {
    if (refId && f.refId && f.refId !== refId) {
      continue;
    }
    for (const n of f.meta?.notices ?? []) {
      if (!seen.has(n.text)) {
        seen.add(n.text);
        out.push({ text: n.text, severity: n.severity });
      }
    }
  }
  return out;
}

/** The notices of the last response, one line each, under the editor. */
export function Notices({ frames, refId }: { frames?: DataFrame[]; refId?: string }) {
  const styles = useStyles2(getStyles);
  const notices = noticesOf(frames, refId);
  if (!notices.length) {
    return null;
  }
  return (
    <div className={styles.box}>
      {notices.map((n) => (
        <div key={n.text} className={styles.line} data-testid="response-notice" role="status">
          <Icon name={n.severity === 'error' ? 'exclamation-circle' : 'exclamation-triangle'} />
          {n.text}
        </div>
      ))}
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  box: css({ display: 'flex', flexDirection: 'column', gap: theme.spacing(0.5) }),
  line: css({
    display: 'flex',
    gap: theme.spacing(1),
    alignItems: 'center',
    color: theme.colors.warning.text,
    fontSize: theme.typography.bodySmall.fontSize,
  }),
});
