// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { braceGroups, quote, significant, tokenize, unquote } from './lexer';

/** A label matcher operator, as in PromQL. */
export type MatchOp = '=' | '!=' | '=~' | '!~';

/** The four operators, in the order the editor offers them. */
export const MATCH_OPS: MatchOp[] = ['=', '!=', '=~', '!~'];

/** One label matcher: `name op "value"`. */
export interface Matcher {
  name: string;
  op: MatchOp;
  value: string;
}

/** A selector that does not parse; `offset` is where in the text the problem is. */
export class SelectorError extends Error {
  constructor(
    readonly offset: number,
    what: string
  ) {
    super(`1:${offset + 1}: ${what}`);
    this.name = 'SelectorError';
  }
}

/**
 * Parses a label selector, `{service_name="api", region=~"eu.*"}`. Empty text (or `{}`) is no
 * matchers. Errors say where and what was expected.
 */
export function parseSelector(text: string): Matcher[] {
  const toks = significant(tokenize(text));
  if (toks.length === 0) {
    return [];
  }
  let i = 0;
  const at = () => toks[i];
  const end = () => (toks.length ? toks[toks.length - 1].end : 0);
  const where = () => (at() ? at().start : end());
  const expect = (ok: boolean, what: string) => {
    if (!ok) {
      const found = at() ? `found ${JSON.stringify(at().text)}` : 'found the end of the selector';
      throw new SelectorError(where(), `expected ${what}, ${found}`);
    }
  };
  expect(at()?.type === 'punct' && at().text === '{', '"{" to start the selector');
  i++;
  const out: Matcher[] = [];
  while (!(at()?.type === 'punct' && at().text === '}')) {
    expect(at()?.type === 'ident', out.length ? 'a label name or "}"' : 'a label name or "}"');
    const name = at().text;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new SelectorError(at().start, `${JSON.stringify(name)} is not a label name (letters, digits and _ only)`);
    }
    i++;
    expect(at()?.type === 'op', `an operator (=, !=, =~ or !~) after ${JSON.stringify(name)}`);
    const op = at().text as MatchOp;
    i++;
    expect(at()?.type === 'string', `a quoted value after ${JSON.stringify(name + op)}`);
    if (!at().closed) {
      throw new SelectorError(at().start, 'the quoted value is not closed');
    }
    out.push({ name, op, value: unquote(at()) });
    i++;
    if (at()?.type === 'punct' && at().text === ',') {
      i++;
      continue;
    }
    expect(at()?.type === 'punct' && at().text === '}', '"," or "}" after a matcher');
  }
  i++;
  if (at()) {
    throw new SelectorError(at().start, `unexpected ${JSON.stringify(at().text)} after the closing "}"`);
  }
  return out;
}

/** Formats matchers as a selector; no matchers is `{}`. */
export function formatSelector(matchers: Matcher[]): string {
  return '{' + matchers.map((m) => `${m.name}${m.op}${quote(m.value)}`).join(', ') + '}';
}

/**
 * Adds matchers to a selector. With `replaceSameName`, an added matcher replaces every matcher on
 * the same label (used when a series' labels narrow the query); otherwise it is appended unless
 * the very same matcher is already there (used for ad-hoc filters).
 */
export function withMatchers(selector: string, add: Matcher[], replaceSameName = false): string {
  let ms = parseSelector(selector);
  for (const m of add) {
    if (replaceSameName) {
      ms = ms.filter((x) => x.name !== m.name);
    } else if (ms.some((x) => x.name === m.name && x.op === m.op && x.value === m.value)) {
      continue;
    }
    ms.push(m);
  }
  return formatSelector(ms);
}

/**
 * Rewrites every selector of a query text with fn. A text with no `{…}` that starts with a
 * profile type ID gets one, so that `process_cpu:cpu:nanoseconds:cpu:nanoseconds` can be narrowed.
 */
export function mapExprSelectors(expr: string, fn: (selector: string) => string): string {
  const groups = braceGroups(expr).filter((g) => g.close >= 0);
  if (groups.length === 0) {
    const first = significant(tokenize(expr))[0];
    if (first?.type === 'ident' && first.text.includes(':')) {
      return expr.slice(0, first.end) + fn('{}') + expr.slice(first.end);
    }
    return expr;
  }
  let out = expr;
  for (const g of [...groups].reverse()) {
    out = out.slice(0, g.open) + fn(out.slice(g.open, g.close + 1)) + out.slice(g.close + 1);
  }
  return out;
}

/** The first selector of a query text and where it is, or undefined when there is none. */
export function firstExprSelector(expr: string): { text: string; start: number; end: number } | undefined {
  const g = braceGroups(expr).find((x) => x.close >= 0);
  return g ? { text: expr.slice(g.open, g.close + 1), start: g.open, end: g.close + 1 } : undefined;
}

/** The text form of structured fields: `type{matchers} by (a, b)`. */
export function buildExpr(profileTypeId: string, selector: string | undefined, groupBy: string[] | undefined): string {
  const sel = selector?.trim() || '{}';
  const by = groupBy?.length ? ` by (${groupBy.join(', ')})` : '';
  return `${profileTypeId}${sel}${by}`;
}

/** The label under which a series' profile type is stored and matched. */
export const PROFILE_TYPE_LABEL = '__profile_type__';

/** A selector narrowed to a profile type, as the label resources read it. */
export function scopeToProfileType(selector: string, profileTypeId?: string): string {
  const sel = selector.trim() || '{}';
  return profileTypeId ? withMatchers(sel, [{ name: PROFILE_TYPE_LABEL, op: '=', value: profileTypeId }], true) : sel;
}
