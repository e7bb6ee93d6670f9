// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { css, cx } from '@emotion/css';
import { DataFrame, Field, FieldType, GrafanaTheme2, formattedValueToString, getValueFormat } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';

/** Rows drawn before the table says how many more there are. */
export const MAX_TABLE_ROWS = 500;

/** A cell's text: numbers in the field's unit (share as a percentage), the rest as they are. */
export function cellText(field: Field, row: number): string {
  const v = field.values[row];
  if (v === null || v === undefined) {
    return '';
  }
  if (field.type === FieldType.number) {
    const unit = field.config.unit || (field.name === 'share' ? 'percentunit' : 'short');
    return formattedValueToString(getValueFormat(unit)(Number(v), field.name === 'share' ? 1 : undefined));
  }
  if (field.type === FieldType.time) {
    return new Date(Number(v)).toISOString();
  }
  return String(v);
}

/**
 * A plain table of one frame, as a top table (symbol, self, total) or a label contribution
 * (value, total, share) answers: one column per field, numbers right-aligned in their unit.
 */
export function ResultTable({ frame }: { frame: DataFrame }) {
  const styles = useStyles2(getStyles);
  const n = frame.length;
  const shown = Math.min(n, MAX_TABLE_ROWS);
  const isNumber = (f: Field) => f.type === FieldType.number;
  return (
    <div className={styles.root}>
      <div data-testid="result-table-title" className={styles.title}>
        {frame.name || 'Result'} · {n} row{n === 1 ? '' : 's'}
      </div>
      <table data-testid="result-table" className={styles.table}>
        <thead>
          <tr>
            {frame.fields.map((f) => (
              <th key={f.name} className={cx(styles.cell, styles.head, isNumber(f) && styles.number)}>
                {f.config.displayName ?? f.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: shown }, (_, row) => (
            <tr key={row} data-testid="result-table-row">
              {frame.fields.map((f) => (
                <td key={f.name} className={cx(styles.cell, isNumber(f) && [styles.number, styles.digits])}>
                  {cellText(f, row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {n > shown && <div className={styles.more}>{n - shown} more rows not shown</div>}
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  root: css({ overflow: 'auto', minHeight: 0, flex: '1 1 auto' }),
  title: css({ fontSize: 12, fontWeight: 500, padding: '2px 8px' }),
  table: css({ borderCollapse: 'collapse', fontSize: 12, width: '100%' }),
  cell: css({
    padding: '2px 8px',
    borderBottom: `1px solid ${theme.colors.border.weak}`,
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    maxWidth: 640,
    textAlign: 'left',
  }),
  head: css({ fontWeight: 500 }),
  number: css({ textAlign: 'right' }),
  digits: css({ fontFamily: theme.typography.fontFamilyMonospace }),
  more: css({ fontSize: 12, padding: 4, color: theme.colors.text.secondary }),
});
