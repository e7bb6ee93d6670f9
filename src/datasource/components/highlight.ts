// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { braceGroups, tokenize } from '../language/lexer';
import { KEYWORDS, isFunction } from '../language/functions';

/** How a piece of query text is coloured. */
export type TokenClass =
  'function' | 'keyword' | 'profileType' | 'label' | 'string' | 'number' | 'operator' | 'punct' | 'plain' | 'error';

/** A run of text with its colour class. */
export interface Highlighted {
  text: string;
  cls: TokenClass;
}

/** Splits query text into coloured runs; the runs concatenate back to the text. */
export function highlight(text: string): Highlighted[] {
  const groups = braceGroups(text);
  const inBraces = (pos: number) => groups.some((g) => g.open < pos && (g.close < 0 || pos < g.close));
  return tokenize(text).map((t): Highlighted => {
    switch (t.type) {
      case 'ident':
        if (inBraces(t.start)) {
          return { text: t.text, cls: 'label' };
        }
        if (isFunction(t.text)) {
          return { text: t.text, cls: 'function' };
        }
        if (KEYWORDS.includes(t.text)) {
          return { text: t.text, cls: 'keyword' };
        }
        return { text: t.text, cls: t.text.includes(':') ? 'profileType' : 'plain' };
      case 'string':
        return { text: t.text, cls: t.closed ? 'string' : 'error' };
      case 'number':
        return { text: t.text, cls: 'number' };
      case 'op':
        return { text: t.text, cls: 'operator' };
      case 'punct':
        return { text: t.text, cls: 'punct' };
      case 'unknown':
        return { text: t.text, cls: 'error' };
      default:
        return { text: t.text, cls: 'plain' };
    }
  });
}
