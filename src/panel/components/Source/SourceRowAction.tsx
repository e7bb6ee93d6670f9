// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { useStyles2 } from '@grafana/ui';
import { getStyles } from './styles';

/**
 * A table row's button that opens the row's function in the source view. Enter and Space act on
 * the button only, not on the row around it (which opens or zooms on Enter).
 */
export function SourceRowAction({
  name,
  open,
  className,
}: {
  name: string;
  open: (fn: string) => void;
  className?: string;
}) {
  const styles = useStyles2(getStyles);
  return (
    <button
      type="button"
      className={className ?? styles.action}
      aria-label={`Source of ${name}`}
      title="Source: the function's lines with their self and total"
      data-testid="row-source"
      onClick={(e) => {
        e.stopPropagation();
        open(name);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.stopPropagation();
        }
      }}
    >
      {'</>'}
    </button>
  );
}

/** The cell of a row's source action, as wide as SOURCE_ACTION_W. */
export function SourceRowCell({ name, open }: { name: string; open: (fn: string) => void }) {
  const styles = useStyles2(getStyles);
  return (
    <div role="cell" className={styles.actionCell}>
      <SourceRowAction name={name} open={open} />
    </div>
  );
}

/** The header cell above a table's source actions. */
export function SourceColumnHeader() {
  const styles = useStyles2(getStyles);
  return <div role="columnheader" aria-label="Source" className={styles.actionCell} />;
}
