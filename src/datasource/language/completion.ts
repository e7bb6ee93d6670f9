// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { Token, braceGroups, quote, significant, tokenize, unquote } from './lexer';
import { FUNCTIONS } from './functions';
import { MATCH_OPS, Matcher, MatchOp, formatSelector } from './selector';

/** Whether the text is a bare label selector or a whole query text (`expr`). */
export type TextMode = 'selector' | 'expr';

/** What the cursor is on, and so what to offer. */
export type ContextKind = 'labelName' | 'operator' | 'labelValue' | 'exprStart' | 'none';

/** Where the cursor is in the language, and the text a chosen suggestion replaces. */
export interface CompletionContext {
  kind: ContextKind;
  /** What is typed so far of the word being completed (a string's value for labelValue). */
  prefix: string;
  /** The replaced range of the text: [from, to). */
  from: number;
  to: number;
  /** For labelValue: the label whose values to offer. */
  label?: string;
  /** The other, complete matchers of the selector around the cursor, as a selector. */
  scope: string;
  /** The profile type written in the text just before the selector, if any. */
  profileTypeId?: string;
  /** For labelName: the name goes inside a string (`frames_from_label(q, "…")`) and is quoted. */
  quoted?: boolean;
}

/** A completion item; choosing it replaces the context's range with `insert`. */
export interface Suggestion {
  label: string;
  insert: string;
  kind: 'labelName' | 'labelValue' | 'operator' | 'function' | 'profileType';
  detail?: string;
}

const isPunct = (t: Token | undefined, p: string) => t?.type === 'punct' && t.text === p;

/** Complete `name op "value"` matchers among tokens, with their extent. */
function matchersOf(toks: Token[]): Array<Matcher & { start: number; end: number }> {
  const out: Array<Matcher & { start: number; end: number }> = [];
  for (let i = 0; i + 2 < toks.length; i++) {
    const [n, o, v] = [toks[i], toks[i + 1], toks[i + 2]];
    if (n.type === 'ident' && o.type === 'op' && v.type === 'string' && v.closed) {
      out.push({ name: n.text, op: o.text as MatchOp, value: unquote(v), start: n.start, end: v.end });
      i += 2;
    }
  }
  return out;
}

/** The context at a cursor offset of the text. */
export function completionContext(text: string, cursor: number, mode: TextMode): CompletionContext {
  const all = tokenize(text);
  const none: CompletionContext = { kind: 'none', prefix: '', from: cursor, to: cursor, scope: '{}' };
  // the token the cursor is in or at the end of
  const here = all.find((t) => t.start < cursor && cursor <= t.end && t.type !== 'space');
  const group = braceGroups(text).find((g) => g.open < cursor && (g.close < 0 || cursor <= g.close));
  if (group) {
    const inside = significant(all).filter((t) => t.start > group.open && (group.close < 0 || t.end <= group.close));
    const scope = formatSelector(matchersOf(inside).filter((m) => !(m.start <= cursor && cursor <= m.end)));
    const before = significant(all).filter((t) => t.end <= group.open);
    const last = before[before.length - 1];
    const profileTypeId = last?.type === 'ident' && last.text.includes(':') ? last.text : undefined;
    const ctx = { scope, profileTypeId };
    // inside a quoted value
    if (here?.type === 'string' && (!here.closed || cursor < here.end)) {
      const idx = inside.indexOf(here);
      const op = inside[idx - 1];
      const name = inside[idx - 2];
      if (op?.type === 'op' && name?.type === 'ident') {
        const prefix = unquote({ ...here, text: text.slice(here.start, cursor), closed: false });
        const to = here.closed ? here.end : cursor;
        return { kind: 'labelValue', prefix, from: here.start, to, label: name.text, ...ctx };
      }
      return { ...none, ...ctx };
    }
    const partial = here?.type === 'ident' ? here : undefined;
    const prior = inside.filter((t) => t.end <= (partial ? partial.start : cursor));
    const prev = prior[prior.length - 1];
    const from = partial ? partial.start : cursor;
    const to = partial ? partial.end : cursor;
    const prefix = partial ? text.slice(partial.start, cursor) : '';
    if (!prev || isPunct(prev, ',')) {
      return { kind: 'labelName', prefix, from, to, ...ctx };
    }
    if (prev.type === 'op') {
      const name = prior[prior.length - 2];
      if (name?.type === 'ident') {
        return { kind: 'labelValue', prefix, from, to, label: name.text, ...ctx };
      }
    }
    if (prev.type === 'ident' && !partial) {
      return { kind: 'operator', prefix: '', from: cursor, to: cursor, ...ctx };
    }
    return { ...none, ...ctx };
  }
  if (mode !== 'expr') {
    return none;
  }
  const toks = significant(all).filter((t) => t.end <= cursor || t === here);
  if (here?.type === 'string' && (!here.closed || cursor < here.end)) {
    return labelArgContext(text, toks, here, cursor) ?? none;
  }
  const partial = here?.type === 'ident' ? here : undefined;
  const prior = toks.filter((t) => t !== partial);
  // inside `by ( … )`: label names
  let depth = 0;
  for (let i = prior.length - 1; i >= 0; i--) {
    const t = prior[i];
    if (isPunct(t, ')')) {
      depth++;
    } else if (isPunct(t, '(')) {
      if (depth === 0) {
        if (prior[i - 1]?.type === 'ident' && prior[i - 1].text === 'by') {
          const groups = braceGroups(text.slice(0, t.start)).filter((g) => g.close >= 0);
          const g = groups[groups.length - 1];
          const sel = g ? text.slice(g.open, g.close + 1) : '{}';
          const ms = matchersOf(significant(tokenize(sel)));
          const p = g ? significant(tokenize(text.slice(0, g.open))).pop() : undefined;
          return {
            kind: 'labelName',
            prefix: partial ? text.slice(partial.start, cursor) : '',
            from: partial ? partial.start : cursor,
            to: partial ? partial.end : cursor,
            scope: formatSelector(ms),
            profileTypeId: p?.type === 'ident' && p.text.includes(':') ? p.text : undefined,
          };
        }
        break;
      }
      depth--;
    }
  }
  const prev = prior[prior.length - 1];
  if (!prev || isPunct(prev, '(') || (isPunct(prev, ',') && depth === 0)) {
    return {
      kind: 'exprStart',
      prefix: partial ? text.slice(partial.start, cursor) : '',
      from: partial ? partial.start : cursor,
      to: partial ? partial.end : cursor,
      scope: '{}',
    };
  }
  return none;
}

/** Functions whose string arguments after the first are label names. */
const LABEL_ARG_FUNCTIONS = ['frames_from_label'];

/**
 * The context of a string argument of `frames_from_label(q, "a", "|")`: a quoted label name,
 * scoped by the selector of the call's first argument. Undefined for any other string.
 */
function labelArgContext(text: string, toks: Token[], here: Token, cursor: number): CompletionContext | undefined {
  const idx = toks.indexOf(here);
  if (!isPunct(toks[idx - 1], ',')) {
    return undefined; // the first argument, or a named one such as sep="::"
  }
  let depth = 0;
  for (let i = idx - 1; i >= 0; i--) {
    const t = toks[i];
    if (isPunct(t, ')')) {
      depth++;
    } else if (isPunct(t, '(')) {
      if (depth > 0) {
        depth--;
        continue;
      }
      const fn = toks[i - 1];
      if (fn?.type !== 'ident' || !LABEL_ARG_FUNCTIONS.includes(fn.text)) {
        return undefined;
      }
      const groups = braceGroups(text.slice(t.end, here.start)).filter((g) => g.close >= 0);
      const g = groups[0];
      const sel = g ? text.slice(t.end + g.open, t.end + g.close + 1) : '{}';
      const before = g ? significant(tokenize(text.slice(0, t.end + g.open))).pop() : undefined;
      return {
        kind: 'labelName',
        quoted: true,
        prefix: unquote({ ...here, text: text.slice(here.start, cursor), closed: false }),
        from: here.start,
        to: here.closed ? here.end : cursor,
        scope: formatSelector(matchersOf(significant(tokenize(sel)))),
        profileTypeId: before?.type === 'ident' && before.text.includes(':') ? before.text : undefined,
      };
    }
  }
  return undefined;
}

/** What suggestions are made from: the editor's resource calls, already scoped. */
export interface SuggestionSource {
  /** Label names among the series scope (a selector) selects, of profileTypeId when given. */
  labelNames(scope: string, profileTypeId?: string): Promise<string[]>;
  /** Values of label among the series scope selects, of profileTypeId when given. */
  labelValues(label: string, scope: string, profileTypeId?: string): Promise<string[]>;
  profileTypes(): Promise<Array<{ id: string; label?: string }>>;
}

/** Orders candidates: those starting with the prefix first, then those containing it. */
export function rank<T>(items: T[], prefix: string, key: (t: T) => string): T[] {
  const p = prefix.toLowerCase();
  if (!p) {
    return items;
  }
  const starts: T[] = [];
  const contains: T[] = [];
  for (const it of items) {
    const k = key(it).toLowerCase();
    if (k.startsWith(p)) {
      starts.push(it);
    } else if (k.includes(p)) {
      contains.push(it);
    }
  }
  return [...starts, ...contains];
}

/** The suggestions for a context. Internal labels (`__name__`, `__profile_type__`, …) are not offered. */
export async function suggestionsFor(ctx: CompletionContext, src: SuggestionSource): Promise<Suggestion[]> {
  switch (ctx.kind) {
    case 'labelName': {
      const names = (await src.labelNames(ctx.scope, ctx.profileTypeId)).filter((n) => !n.startsWith('__'));
      return rank(names, ctx.prefix, (n) => n).map((n) => ({
        label: n,
        insert: ctx.quoted ? quote(n) : n,
        kind: 'labelName' as const,
      }));
    }
    case 'operator':
      return MATCH_OPS.map((op) => ({ label: op, insert: op, kind: 'operator' as const, detail: OP_DOCS[op] }));
    case 'labelValue': {
      const values = await src.labelValues(ctx.label!, ctx.scope, ctx.profileTypeId);
      return rank(values, ctx.prefix, (v) => v).map((v) => ({
        label: v,
        insert: quote(v),
        kind: 'labelValue' as const,
        detail: ctx.label,
      }));
    }
    case 'exprStart': {
      const fns: Suggestion[] = FUNCTIONS.map((f) => ({
        label: f.name,
        insert: f.name + '(',
        kind: 'function',
        detail: f.signature,
      }));
      const types: Suggestion[] = (await src.profileTypes()).map((t) => ({
        label: t.id,
        insert: t.id,
        kind: 'profileType',
        detail: t.label,
      }));
      return rank([...types, ...fns], ctx.prefix, (s) => s.label);
    }
    default:
      return [];
  }
}

const OP_DOCS: Record<MatchOp, string> = {
  '=': 'equals',
  '!=': 'does not equal',
  '=~': 'matches the regular expression',
  '!~': 'does not match the regular expression',
};

/** The text after choosing a suggestion, and where the cursor goes. */
export function applySuggestion(text: string, ctx: CompletionContext, s: Suggestion): { text: string; cursor: number } {
  const out = text.slice(0, ctx.from) + s.insert + text.slice(ctx.to);
  return { text: out, cursor: ctx.from + s.insert.length };
}
