// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useState } from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { Alert, Field, Input, useStyles2 } from '@grafana/ui';
import { unitOf } from '../profileTypes';
import { contributionsOf, formatShare, formatValue } from '../query';
import { useAsync } from '../useAsync';
import { errorText, queryFiles } from '../../shared/adhoc';

/** The labels breakdown of open files, as `go tool pprof -tags`: each value's total and share. */
export function OpenFileLabels({ uid, ids, type }: { uid: string; ids: string[]; type: string }) {
  const styles = useStyles2(getStyles);
  const [label, setLabel] = useState('');
  const answer = useAsync(
    () => (label ? queryFiles(uid, ids, { queryType: 'labels', profileTypeId: type, expr: `{} by (${label})` }) : undefined),
    [uid, ids, type, label]
  );
  const rows = answer.value ? contributionsOf(answer.value.frames, label) : [];
  const unit = unitOf(type);
  return (
    <div className={styles.box} data-testid="openfile-labels">
      <Field label="Labels breakdown" description="the files' sample labels, as go tool pprof -tags">
        <Input aria-label="Breakdown label" width={24} placeholder="label name" onBlur={(e) => setLabel(e.currentTarget.value.trim())} />
      </Field>
      {answer.error && (
        <Alert severity="error" title="Labels breakdown failed">
          {errorText(answer.error)}
        </Alert>
      )}
      {rows.length > 0 && (
        <table className={styles.table}>
          <tbody>
            {rows.map((r) => (
              <tr key={r.value} data-testid="openfile-label-row" data-value={r.value} data-total={r.total}>
                <td>{r.value}</td>
                <td>{formatValue(r.total, unit)}</td>
                <td>{formatShare(r.share)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  box: css({ display: 'flex', flexDirection: 'column', gap: theme.spacing(1) }),
  table: css({ fontSize: 12, td: { padding: theme.spacing(0.25, 1) } }),
});
