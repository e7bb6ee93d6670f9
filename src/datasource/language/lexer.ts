// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * A forgiving lexer of the query language (`expr`) and of label selectors. It never throws:
 * unterminated strings and unknown characters become tokens too, so the editor can highlight
 * and complete text that is still being typed.
 */

/** The kinds of token. `ident` covers profile type IDs, label names, functions and keywords. */
export type TokenType = 'ident' | 'string' | 'number' | 'op' | 'punct' | 'space' | 'unknown';

/** One token; `start`/`end` are offsets into the text (end exclusive). */
export interface Token {
  type: TokenType;
  text: string;
  start: number;
  end: number;
  /** For strings: whether the closing quote was found. */
  closed?: boolean;
}

const IDENT_START = /[A-Za-z_]/;
const IDENT_PART = /[A-Za-z0-9_:.\-]/;
const DIGIT = /[0-9]/;
const QUOTES = '"\'`';

/** Splits text into tokens; the tokens cover the text exactly, in order. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const push = (type: TokenType, start: number, end: number, closed?: boolean) => {
    const t: Token = { type, text: text.slice(start, end), start, end };
    if (closed !== undefined) {
      t.closed = closed;
    }
    out.push(t);
  };
  while (i < text.length) {
    const c = text[i];
    const start = i;
    if (/\s/.test(c)) {
      while (i < text.length && /\s/.test(text[i])) {
        i++;
      }
      push('space', start, i);
    } else if (IDENT_START.test(c)) {
      while (i < text.length && IDENT_PART.test(text[i])) {
        i++;
      }
      push('ident', start, i);
    } else if (DIGIT.test(c)) {
      while (i < text.length && /[0-9.]/.test(text[i])) {
        i++;
      }
      push('number', start, i);
    } else if (QUOTES.includes(c)) {
      i++;
      let closed = false;
      while (i < text.length) {
        if (text[i] === '\\' && c !== '`') {
          i += 2;
          continue;
        }
        if (text[i] === c) {
          i++;
          closed = true;
          break;
        }
        i++;
      }
      push('string', start, Math.min(i, text.length), closed);
    } else if (c === '=' || c === '!') {
      const two = text.slice(i, i + 2);
      if (two === '=~' || two === '!=' || two === '!~') {
        i += 2;
      } else {
        i++;
      }
      push(text.slice(start, i) === '!' ? 'unknown' : 'op', start, i);
    } else if ('{}(),'.includes(c)) {
      i++;
      push('punct', start, i);
    } else {
      i++;
      push('unknown', start, i);
    }
  }
  return out;
}

/** Tokens without whitespace. */
export function significant(tokens: Token[]): Token[] {
  return tokens.filter((t) => t.type !== 'space');
}

/** The value of a string token: quotes removed, escapes resolved (also for unterminated strings). */
export function unquote(t: Token): string {
  const q = t.text[0];
  const body = t.text.slice(1, t.closed ? -1 : undefined);
  if (q === '`') {
    return body;
  }
  return body.replace(/\\(.)/g, (_, ch: string) => ({ n: '\n', t: '\t', r: '\r' })[ch] ?? ch);
}

/** Quotes a string value for a matcher: double quotes, with backslashes, quotes and newlines escaped. */
export function quote(value: string): string {
  return '"' + value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n') + '"';
}

/** A `{ … }` group in a text: offsets of the braces (`close` is -1 when it is not closed yet). */
export interface BraceGroup {
  open: number;
  close: number;
}

/** Every top-level `{ … }` group of a text, in order, ignoring braces inside strings. */
export function braceGroups(text: string): BraceGroup[] {
  const out: BraceGroup[] = [];
  let current: BraceGroup | undefined;
  for (const t of tokenize(text)) {
    if (t.type !== 'punct') {
      continue;
    }
    if (t.text === '{' && !current) {
      current = { open: t.start, close: -1 };
    } else if (t.text === '}' && current) {
      current.close = t.start;
      out.push(current);
      current = undefined;
    }
  }
  if (current) {
    out.push(current);
  }
  return out;
}
