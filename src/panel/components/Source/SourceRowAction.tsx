// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';

/** A table row's button that opens the row's function in the source view. */
export function SourceRowAction({
  name,
  open,
  className,
}: {
  name: string;
  open: (fn: string) => void;
  className?: string;
}) {
  return (
    <button
      type="button"
      className={className}
      aria-label={`Source of ${name}`}
      title="Source: the function's lines with their self and total"
      data-testid="row-source"
      onClick={(e) => {
        e.stopPropagation();
        open(name);
      }}
    >
      {'</>'}
    </button>
  );
}
