// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { quote } from './lexer';

/** The panel's ignore and hide regexes (pprof's -ignore and -hide). */
export interface SampleFilterOptions {
  ignore?: string;
  hide?: string;
}

/**
 * The query text with the panel's ignore and hide written into it as the language's
 * `ignore(q, "re")` and `hide(q, "re")`, so the datasource applies pprof's own rule (function and
 * file names, the mapping's file) to the server's profile: hide innermost, as pprof hides frames
 * of the samples it keeps. An empty regex adds nothing, nor does one the text already applies.
 */
export function withSampleFilters(expr: string, o: SampleFilterOptions): string {
  let out = expr.trim();
  if (!out) {
    return expr;
  }
  for (const [fn, re] of [
    ['hide', o.hide],
    ['ignore', o.ignore],
  ] as const) {
    if (re && !applies(out, fn, re)) {
      out = `${fn}(${out}, ${quote(re)})`;
    }
  }
  return out;
}

/** Whether text already calls fn with the regex re. */
function applies(text: string, fn: string, re: string): boolean {
  return text.startsWith(`${fn}(`) && text.endsWith(`, ${quote(re)})`);
}
