// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { ReactNode, useLayoutEffect, useRef } from 'react';
import { css, cx } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { getInputStyles, useStyles2 } from '@grafana/ui';

/** @grafana/ui's Input styles (no width, never invalid): worked out once per theme. */
const searchInputStyles = (theme: GrafanaTheme2) => getInputStyles({ theme, invalid: false });

/** The suffix's own layout: its words and buttons right-aligned in a row, the words cut first. */
const suffixRow = css({
  justifyContent: 'flex-end',
  gap: 2,
  fontSize: 12,
  // room for what is typed
  maxWidth: 'calc(100% - 84px)',
  overflow: 'hidden',
  whiteSpace: 'nowrap',
});

/**
 * The header's search box: the same elements and classes as @grafana/ui's `Input`, with its
 * styles made once per theme by `useStyles2` (`Input` makes them again on every mount). A
 * `suffix` sits inside the box at its right end, as `Input` places it; a ResizeObserver pads the
 * input by the suffix's width, so typing never moves the words under the cursor.
 */
export function SearchInput({
  suffix,
  ...props
}: React.InputHTMLAttributes<HTMLInputElement> & { suffix?: ReactNode }) {
  const styles = useStyles2(searchInputStyles);
  const inputRef = useRef<HTMLInputElement>(null);
  const suffixRef = useRef<HTMLDivElement>(null);
  const hasSuffix = suffix !== undefined && suffix !== null && suffix !== false;
  useLayoutEffect(() => {
    const input = inputRef.current;
    const box = suffixRef.current;
    if (!input) {
      return;
    }
    if (!box || typeof ResizeObserver === 'undefined') {
      input.style.paddingRight = '';
      return;
    }
    const ro = new ResizeObserver(() => {
      // as Input pads it: the suffix's width and 12 px
      input.style.paddingRight = `${box.offsetWidth + 12}px`;
    });
    ro.observe(box);
    return () => {
      ro.disconnect();
      input.style.paddingRight = '';
    };
  }, [hasSuffix]);
  return (
    <div className={styles.wrapper} data-testid="input-wrapper">
      <div className={styles.inputWrapper}>
        <input ref={inputRef} className={styles.input} {...props} />
        {hasSuffix && (
          <div ref={suffixRef} className={cx(styles.suffix, suffixRow)}>
            {suffix}
          </div>
        )}
      </div>
    </div>
  );
}
