// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useCallback, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { css, cx } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';
import {
  CompletionContext,
  Suggestion,
  SuggestionSource,
  TextMode,
  applySuggestion,
  completionContext,
  suggestionsFor,
} from '../language/completion';
import { TokenClass, highlight } from './highlight';

/** Most suggestions shown at once. */
const MAX_ITEMS = 50;

export interface CompletingInputProps {
  value: string;
  onChange: (value: string) => void;
  /** `selector`: a bare label selector; `expr`: a whole query text. */
  mode: TextMode;
  /** Where label names, values and profile types come from (already scoped by range). */
  source: SuggestionSource;
  placeholder?: string;
  'aria-label': string;
  'data-testid'?: string;
  /** Called when the input loses focus (the editor runs the query if the text changed). */
  onBlur?: () => void;
  invalid?: boolean;
}

interface MenuState {
  ctx: CompletionContext;
  items: Suggestion[];
  active: number;
  error?: string;
}

/**
 * A one-line input for query text with syntax highlighting and completion: label names after
 * `{` or `,`, operators after a name, values after `=`/`="`, and in query text also profile
 * types and functions. It needs no Grafana runtime (only @grafana/ui styles), so the playground
 * embeds it as is. Keys: ↑/↓ move, Enter/Tab accept, Escape closes, Ctrl+Space opens;
 * Shift+Enter is left to the editor (it runs the query).
 */
export function CompletingInput(props: CompletingInputProps) {
  const { value, onChange, mode, source, placeholder, onBlur, invalid } = props;
  const styles = useStyles2(getStyles);
  const input = useRef<HTMLInputElement>(null);
  const mirror = useRef<HTMLDivElement>(null);
  const pendingCursor = useRef<number | null>(null);
  const seq = useRef(0);
  const [menu, setMenu] = useState<MenuState | undefined>();
  const listId = useId();
  const runs = useMemo(() => highlight(value), [value]);

  const syncScroll = useCallback(() => {
    if (input.current && mirror.current) {
      mirror.current.style.transform = `translateX(${-input.current.scrollLeft}px)`;
    }
  }, []);

  useLayoutEffect(() => {
    if (pendingCursor.current !== null && input.current) {
      input.current.setSelectionRange(pendingCursor.current, pendingCursor.current);
      pendingCursor.current = null;
    }
    syncScroll();
  }, [value, syncScroll]);

  const close = () => {
    seq.current++;
    setMenu(undefined);
  };

  const trigger = (text: string, cursor: number) => {
    const ctx = completionContext(text, cursor, mode);
    const mine = ++seq.current;
    if (ctx.kind === 'none') {
      setMenu(undefined);
      return;
    }
    suggestionsFor(ctx, source).then(
      (all) => {
        if (mine !== seq.current) {
          return;
        }
        const items = all.slice(0, MAX_ITEMS);
        setMenu(items.length ? { ctx, items, active: 0 } : undefined);
      },
      (e: unknown) => {
        if (mine === seq.current) {
          const msg =
            e instanceof Error ? e.message : String((e as { data?: { message?: string } })?.data?.message ?? e);
          setMenu({ ctx, items: [], active: 0, error: `No suggestions: ${msg}` });
        }
      }
    );
  };

  const accept = (s: Suggestion) => {
    if (!menu) {
      return;
    }
    const next = applySuggestion(value, menu.ctx, s);
    pendingCursor.current = next.cursor;
    onChange(next.text);
    if (s.kind === 'operator' || s.kind === 'function') {
      trigger(next.text, next.cursor);
    } else {
      close();
    }
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === ' ' && e.ctrlKey) {
      e.preventDefault();
      trigger(value, e.currentTarget.selectionStart ?? value.length);
      return;
    }
    if (!menu) {
      return;
    }
    const n = menu.items.length;
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === 'Enter' && e.shiftKey) {
      close();
    } else if (n && e.key === 'ArrowDown') {
      e.preventDefault();
      setMenu({ ...menu, active: (menu.active + 1) % n });
    } else if (n && e.key === 'ArrowUp') {
      e.preventDefault();
      setMenu({ ...menu, active: (menu.active - 1 + n) % n });
    } else if (n && (e.key === 'Enter' || e.key === 'Tab')) {
      e.preventDefault();
      accept(menu.items[menu.active]);
    }
  };

  const activeId = menu?.items.length ? `${listId}-${menu.active}` : undefined;
  return (
    <div className={cx(styles.wrapper, invalid && styles.invalid)}>
      <div className={styles.mirrorBox} aria-hidden>
        <div ref={mirror} className={styles.mirror} data-testid="highlighted">
          {runs.map((r, i) => (
            <span key={i} className={styles.token[r.cls]} data-token={r.cls}>
              {r.text}
            </span>
          ))}
        </div>
      </div>
      <input
        ref={input}
        className={styles.input}
        value={value}
        placeholder={placeholder}
        spellCheck={false}
        autoComplete="off"
        role="combobox"
        aria-label={props['aria-label']}
        data-testid={props['data-testid']}
        aria-autocomplete="list"
        aria-expanded={Boolean(menu)}
        aria-controls={listId}
        aria-activedescendant={activeId}
        aria-invalid={invalid || undefined}
        onChange={(e) => {
          onChange(e.currentTarget.value);
          trigger(e.currentTarget.value, e.currentTarget.selectionStart ?? e.currentTarget.value.length);
        }}
        onKeyDown={onKeyDown}
        onScroll={syncScroll}
        onSelect={syncScroll}
        onKeyUp={syncScroll}
        onBlur={() => {
          close();
          onBlur?.();
        }}
      />
      {menu && (
        <ul id={listId} role="listbox" aria-label={`Suggestions for ${props['aria-label']}`} className={styles.menu}>
          {menu.error && <li className={styles.error}>{menu.error}</li>}
          {menu.items.map((s, i) => (
            <li
              key={s.kind + s.label}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === menu.active}
              className={cx(styles.item, i === menu.active && styles.active)}
              onMouseDown={(e) => {
                e.preventDefault();
                accept(s);
              }}
              onMouseEnter={() => setMenu({ ...menu, active: i })}
            >
              <span className={styles.token[kindClass[s.kind]]}>{s.label}</span>
              {s.detail && <span className={styles.detail}>{s.detail}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const kindClass: Record<Suggestion['kind'], TokenClass> = {
  labelName: 'label',
  labelValue: 'string',
  operator: 'operator',
  function: 'function',
  profileType: 'profileType',
};

const getStyles = (theme: GrafanaTheme2) => {
  const pad = theme.spacing(1);
  const font = css({
    fontFamily: theme.typography.fontFamilyMonospace,
    fontSize: theme.typography.bodySmall.fontSize,
    letterSpacing: 'normal',
    whiteSpace: 'pre',
  });
  const c = theme.colors;
  return {
    wrapper: css({
      position: 'relative',
      flex: '1 1 auto',
      minWidth: 200,
      height: theme.spacing(4),
      background: theme.components.input.background,
      border: `1px solid ${theme.components.input.borderColor}`,
      borderRadius: theme.shape.radius.default,
      '&:focus-within': { outline: `2px solid ${c.primary.main}`, outlineOffset: -1 },
    }),
    invalid: css({ borderColor: c.error.border }),
    mirrorBox: css({ position: 'absolute', inset: 0, overflow: 'hidden', pointerEvents: 'none' }),
    mirror: cx(
      font,
      css({ height: '100%', display: 'flex', alignItems: 'center', paddingLeft: pad, paddingRight: pad })
    ),
    input: cx(
      font,
      css({
        position: 'relative',
        width: '100%',
        height: '100%',
        border: 'none',
        outline: 'none',
        background: 'transparent',
        color: 'transparent',
        caretColor: c.text.primary,
        paddingLeft: pad,
        paddingRight: pad,
        '::placeholder': { color: c.text.disabled },
        '::selection': { background: c.action.selected, color: 'transparent' },
      })
    ),
    menu: css({
      position: 'absolute',
      top: '100%',
      left: 0,
      zIndex: theme.zIndex.dropdown,
      minWidth: 240,
      maxWidth: 560,
      maxHeight: 280,
      overflowY: 'auto',
      margin: '2px 0 0',
      padding: theme.spacing(0.5, 0),
      listStyle: 'none',
      background: c.background.elevated,
      border: `1px solid ${c.border.weak}`,
      borderRadius: theme.shape.radius.default,
      boxShadow: theme.shadows.z3,
    }),
    item: cx(
      font,
      css({
        display: 'flex',
        justifyContent: 'space-between',
        gap: pad,
        padding: theme.spacing(0.5, 1),
        cursor: 'pointer',
      })
    ),
    active: css({ background: c.action.hover }),
    detail: css({ color: c.text.secondary, overflow: 'hidden', textOverflow: 'ellipsis' }),
    error: css({ padding: theme.spacing(0.5, 1), color: c.error.text }),
    token: {
      function: css({ color: theme.visualization.getColorByName('purple') }),
      keyword: css({
        color: theme.visualization.getColorByName('purple'),
        fontWeight: theme.typography.fontWeightMedium,
      }),
      profileType: css({ color: theme.visualization.getColorByName('orange') }),
      label: css({ color: theme.visualization.getColorByName('blue') }),
      string: css({ color: theme.visualization.getColorByName('green') }),
      number: css({ color: theme.visualization.getColorByName('yellow') }),
      operator: css({ color: c.text.secondary }),
      punct: css({ color: c.text.secondary }),
      plain: css({ color: c.text.primary }),
      error: css({ color: c.error.text, textDecoration: 'underline wavy' }),
    } satisfies Record<TokenClass, string>,
  };
};
