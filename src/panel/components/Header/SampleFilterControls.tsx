// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useState } from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { InlineSwitch, Input, useStyles2 } from '@grafana/ui';
import { ViewOptions } from '../../types';

export interface SampleFilterChoices {
  ignore: string;
  hide: string;
  relative: boolean;
  inverted: boolean;
  /** What is wrong with the ignore or hide regex. */
  error?: string;
}

export interface SampleFilterControlsProps extends SampleFilterChoices {
  onChange: (changed: Partial<ViewOptions>) => void;
}

const getStyles = (theme: GrafanaTheme2) => ({
  row: css({ display: 'flex', alignItems: 'center', gap: 6, flexWrap: 'wrap' }),
  regex: css({ width: 150 }),
  error: css({ color: theme.colors.error.text, fontSize: theme.typography.bodySmall.fontSize }),
});

/**
 * The header's ignore and hide regexes (pprof's -ignore and -hide, taken when Enter is pressed or
 * the box is left), the relative percentages switch (pprof's -relative_percentages) and the
 * inverted flame graph switch; each is a panel option.
 */
export function SampleFilterControls(props: SampleFilterControlsProps) {
  const styles = useStyles2(getStyles);
  const { onChange } = props;
  return (
    <div className={styles.row}>
      <RegexBox
        label="Ignore"
        title="Drop the samples through frames matching this regex (pprof's -ignore)"
        value={props.ignore}
        className={styles.regex}
        onCommit={(ignore) => onChange({ ignore })}
      />
      <RegexBox
        label="Hide"
        title="Remove the frames matching this regex, keeping their values under their callers (pprof's -hide)"
        value={props.hide}
        className={styles.regex}
        onCommit={(hide) => onChange({ hide })}
      />
      <InlineSwitch
        label="Relative"
        showLabel
        transparent
        aria-label="Relative percentages"
        title="Percentages of what is shown, not of the whole profile (pprof's -relative_percentages)"
        value={props.relative}
        onChange={(e) => onChange({ relative: e.currentTarget.checked })}
      />
      <InlineSwitch
        label="Inverted"
        showLabel
        transparent
        aria-label="Inverted flame graph"
        title="Leaf functions at the root with their self, callers above"
        value={props.inverted}
        onChange={(e) => onChange({ inverted: e.currentTarget.checked })}
      />
      {props.error && (
        <span role="alert" className={styles.error} data-testid="sample-filter-error">
          {props.error}
        </span>
      )}
    </div>
  );
}

/** A regex box that keeps what is typed and hands it over on Enter or when left. */
function RegexBox(props: {
  label: string;
  title: string;
  value: string;
  className: string;
  onCommit: (v: string) => void;
}) {
  const { value, onCommit } = props;
  const [text, setText] = useState(value);
  // a new value from outside (options reset, a link) replaces what was typed, checked while rendering
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setText(value);
  }
  const commit = () => {
    if (text !== value) {
      onCommit(text);
    }
  };
  return (
    <Input
      className={props.className}
      aria-label={props.label}
      placeholder={`${props.label}: regex`}
      title={props.title}
      value={text}
      onChange={(e) => setText(e.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          commit();
          e.preventDefault();
          e.stopPropagation();
        }
      }}
    />
  );
}
