// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useCallback, useState } from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2, SelectableValue } from '@grafana/data';
import { Button, IconButton, Select, useStyles2 } from '@grafana/ui';
import { MATCH_OPS, Matcher, MatchOp, formatSelector, parseSelector } from '../language/selector';
import { SuggestionSource } from '../language/completion';
import { useLazyOptions } from './useLazyOptions';

export interface MatcherChipsProps {
  /** The selector the chips edit, `{a="b", …}`. */
  selector: string;
  onChange: (selector: string) => void;
  source: SuggestionSource;
  profileTypeId?: string;
}

const OP_OPTIONS: Array<SelectableValue<MatchOp>> = MATCH_OPS.map((op) => ({ label: op, value: op }));

/**
 * The visual builder of a selector: one chip per matcher (label name, operator, value, each
 * completed from the data) editing the same selector text as the text input, both ways.
 */
export function MatcherChips({ selector, onChange, source, profileTypeId }: MatcherChipsProps) {
  const styles = useStyles2(getStyles);
  const [adding, setAdding] = useState(false);
  let matchers: Matcher[];
  try {
    matchers = parseSelector(selector);
  } catch (e) {
    return (
      <div className={styles.row} data-testid="matcher-chips">
        <span className={styles.problem}>The selector has an error, fix it in the text: {(e as Error).message}</span>
      </div>
    );
  }
  const write = (ms: Matcher[]) => onChange(formatSelector(ms));
  return (
    <div className={styles.row} data-testid="matcher-chips" role="group" aria-label="Matchers">
      {matchers.map((m, i) => (
        <Chip
          key={i}
          index={i}
          matcher={m}
          others={matchers.filter((_, j) => j !== i)}
          source={source}
          profileTypeId={profileTypeId}
          onChange={(next) => write(matchers.map((x, j) => (j === i ? next : x)))}
          onRemove={() => write(matchers.filter((_, j) => j !== i))}
        />
      ))}
      {adding ? (
        <Chip
          index={matchers.length}
          matcher={{ name: '', op: '=', value: '' }}
          others={matchers}
          source={source}
          profileTypeId={profileTypeId}
          onChange={(next) => {
            if (next.name) {
              setAdding(false);
              write([...matchers, next]);
            }
          }}
          onRemove={() => setAdding(false)}
        />
      ) : (
        <Button size="sm" variant="secondary" icon="plus" fill="outline" onClick={() => setAdding(true)}>
          Add matcher
        </Button>
      )}
    </div>
  );
}

interface ChipProps {
  index: number;
  matcher: Matcher;
  others: Matcher[];
  source: SuggestionSource;
  profileTypeId?: string;
  onChange: (m: Matcher) => void;
  onRemove: () => void;
}

function Chip({ index, matcher, others, source, profileTypeId, onChange, onRemove }: ChipProps) {
  const styles = useStyles2(getStyles);
  const scope = formatSelector(others);
  const n = index + 1;
  const names = useLazyOptions(
    useCallback(
      async () => (await source.labelNames(scope, profileTypeId)).filter((x) => !x.startsWith('__')),
      [source, scope, profileTypeId]
    )
  );
  const values = useLazyOptions(
    useCallback(
      async () => (matcher.name ? source.labelValues(matcher.name, scope, profileTypeId) : []),
      [source, scope, profileTypeId, matcher.name]
    )
  );
  const val = (v: string) => (v === '' ? null : { label: v, value: v });
  return (
    <div className={styles.chip} data-testid={`matcher-chip-${n}`}>
      <Select
        aria-label={`Label name of matcher ${n}`}
        width="auto"
        minWidth={12}
        allowCustomValue
        placeholder="label"
        value={val(matcher.name)}
        options={names.options}
        isLoading={names.isLoading}
        onOpenMenu={names.onOpenMenu}
        noOptionsMessage={names.error ?? 'No label names'}
        onChange={(v) => onChange({ ...matcher, name: v?.value ?? '' })}
      />
      <Select
        aria-label={`Operator of matcher ${n}`}
        width={8}
        value={matcher.op}
        options={OP_OPTIONS}
        onChange={(v) => onChange({ ...matcher, op: v.value ?? '=' })}
      />
      <Select
        aria-label={`Value of matcher ${n}`}
        width="auto"
        minWidth={12}
        allowCustomValue
        placeholder="value"
        value={val(matcher.value)}
        options={values.options}
        isLoading={values.isLoading}
        onOpenMenu={values.onOpenMenu}
        noOptionsMessage={values.error ?? 'No values'}
        disabled={!matcher.name}
        onChange={(v) => onChange({ ...matcher, value: v?.value ?? '' })}
      />
      <IconButton name="times" aria-label={`Remove matcher ${n}`} onClick={onRemove} />
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  row: css({ display: 'flex', flexWrap: 'wrap', gap: theme.spacing(1), alignItems: 'center', minWidth: 0 }),
  chip: css({
    display: 'flex',
    flexWrap: 'wrap',
    maxWidth: '100%',
    alignItems: 'center',
    gap: theme.spacing(0.5),
    padding: theme.spacing(0.25, 0.5),
    border: `1px solid ${theme.colors.border.medium}`,
    borderRadius: theme.shape.radius.pill,
    background: theme.colors.background.secondary,
  }),
  problem: css({ color: theme.colors.warning.text, fontSize: theme.typography.bodySmall.fontSize }),
});
