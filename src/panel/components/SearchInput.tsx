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
 * The header's search box: the same elements and classes as @grafana/ui's `Input` (wrapper,
 * input wrapper, input), with the styles made once per theme by `useStyles2`. `Input` asks
 * `getInputStyles` with a new argument object on every mount, which its memo cannot match, so
 * each mount serialised its dozen emotion rules again (profiles put this box and the Combobox's
 * Input together at 3–9 ms of a 1k-node first draw). It also drops `Input`'s two `useMeasure`
 * hooks (a render more each): a `suffix`, inside the box at its right end as `Input` places it,
 * is measured by a ResizeObserver that sets the input's right padding itself, after the layout
 * and before the paint, with no render.
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

/** The stand-in's text box: a block with the input's classes, its text centred as an input's is. */
const STAND_IN_TEXT: React.CSSProperties = {
  paddingRight: 28,
  display: 'flex',
  alignItems: 'center',
  whiteSpace: 'nowrap',
  overflow: 'hidden',
};

/**
 * What stands in for a control mounted after the first paint: the same input box (classes and
 * size) showing the control's current text, neither focusable nor announced (the real control,
 * one frame later, is). The text sits in a plain block with the input's classes, not in an input:
 * an input is a text control the browser builds, lays out and paints apart, about half a ms of
 * the first frame for one that is never typed in.
 */
export function InputStandIn({ text }: { text: string }) {
  const styles = useStyles2(searchInputStyles);
  return (
    <div className={styles.wrapper} aria-hidden="true">
      <div className={styles.inputWrapper}>
        <div className={styles.input} style={STAND_IN_TEXT}>
          {text}
        </div>
      </div>
    </div>
  );
}
