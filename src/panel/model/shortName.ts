// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import type { TextAlign } from '../types';
import { memoOf } from './memo';

/**
 * Shortening of long symbol names from the left, so that the function part stays readable
 * where a name does not fit (flamegraph bars, the top table's symbol column):
 *
 *   github.com/emberscope/emberscope/pkg/demo.(*Service).handleCar   full name
 *   demo.(*Service).handleCar                                         module path dropped (up to the last `/`)
 *   (*Service).handleCar                                              package dropped
 *   …handleCar                                                        only the function, ellipsis on the left
 *
 * and only then truncation. The same steps apply to Java (`com.foo.Bar.baz` → `Bar.baz` → `…baz`),
 * C++/Rust (`ns::Class::method` → `Class::method` → `…method`) and `file.py:func` names.
 */

/** Where a name is split into segments: `.` and `::` outside brackets. */
interface Segment {
  text: string;
  /** Index in the name where the segment starts. */
  at: number;
}

/** Splits name at `.` / `::` separators that are not inside (), [], <> or {}. */
function segments(name: string): { parts: Segment[]; cpp: boolean } {
  const parts: Segment[] = [];
  let depth = 0;
  let from = 0;
  let cpp = false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    // ( [ < {   and   ) ] > }
    if (c === 40 || c === 91 || c === 60 || c === 123) {
      depth++;
    } else if ((c === 41 || c === 93 || c === 62 || c === 125) && depth > 0) {
      depth--;
    } else if (depth === 0 && c === 46 /* . */ && i > from) {
      parts.push({ text: name.slice(from, i), at: from });
      from = i + 1;
    } else if (depth === 0 && c === 58 /* : */ && name.charCodeAt(i + 1) === 58 && i > from) {
      parts.push({ text: name.slice(from, i), at: from });
      cpp = true;
      from = i + 2;
      i++;
    }
  }
  parts.push({ text: name.slice(from), at: from });
  return { parts, cpp };
}

const startsLower = (s: string) => /^[a-z_]/.test(s);
const startsUpper = (s: string) => /^[A-Z]/.test(s);

/**
 * The name without its package: `demo.(*Service).handleCar` → `(*Service).handleCar`,
 * `com.foo.Bar.baz` → `Bar.baz`, `ns::Class::method` → `Class::method`, `app.py:handler` → `handler`.
 * Returns name unchanged when it has no package part.
 */
function dropPackage(name: string, parts: Segment[], cpp: boolean): string {
  const colon = name.indexOf(':');
  // `file.py:func` (a single colon: a script file and a function in it)
  if (!cpp && colon > 0 && colon < name.length - 1 && !name.includes('(')) {
    return name.slice(colon + 1);
  }
  if (parts.length < 2) {
    return name;
  }
  if (cpp) {
    // namespaces are everything before the last two segments (class and method)
    return parts.length > 2 ? name.slice(parts[parts.length - 2].at) : name;
  }
  // JVM/.NET style: lower-case package segments, then a capitalised class
  const cls = parts.findIndex((p) => startsUpper(p.text));
  if (cls > 0 && cls < parts.length - 1 && parts.slice(0, cls).every((p) => startsLower(p.text))) {
    return name.slice(parts[cls].at);
  }
  // Go style: the package is the first segment (`demo.(*T).M`, `runtime.mallocgc`)
  return name.slice(parts[1].at);
}

/**
 * The forms of name from full to shortest, each strictly shorter than the one before:
 * full, without the module path, without the package, `…` + the function alone.
 */
export function nameForms(name: string): string[] {
  const forms = [name];
  const push = (s: string) => {
    if (s && s.length < forms[forms.length - 1].length) {
      forms.push(s);
    }
  };
  const isFilePath = name.startsWith('/') || /^[A-Za-z]:\\/.test(name);
  // module path / directories: up to the last `/` outside brackets
  let base = name;
  let depth = 0;
  for (let i = name.length - 1; i >= 0; i--) {
    const c = name[i];
    if (c === ')' || c === ']' || c === '>' || c === '}') {
      depth++;
    } else if ((c === '(' || c === '[' || c === '<' || c === '{') && depth > 0) {
      depth--;
    } else if (depth === 0 && (c === '/' || (isFilePath && c === '\\'))) {
      base = name.slice(i + 1);
      break;
    }
  }
  push(base);
  if (isFilePath) {
    // a binary or file path (an unsymbolised frame): its file name has no package
    return forms;
  }
  const { parts, cpp } = segments(base);
  const noPkg = dropPackage(base, parts, cpp);
  push(noPkg);
  const fn = parts.length > 1 && noPkg.endsWith(parts[parts.length - 1].text) ? parts[parts.length - 1].text : '';
  if (fn && fn !== noPkg) {
    push('…' + fn);
  }
  return forms;
}

/**
 * Fits name into maxChars characters of a monospace font: the longest of its forms (see
 * nameForms) that fits; when none fits, the function part cut with `…` at the end (left
 * alignment) or the start (right alignment). Returns '' when not even two characters and
 * the ellipsis fit.
 */
export function fitName(name: string, maxChars: number, align: TextAlign = 'left', forms = nameForms(name)): string {
  for (const f of forms) {
    if (f.length <= maxChars) {
      return f;
    }
  }
  if (maxChars < 3) {
    return '';
  }
  const last = forms[forms.length - 1];
  if (align === 'right') {
    return '…' + last.slice(last.length - maxChars + 1);
  }
  const fn = last.startsWith('…') && forms.length > 1 ? last.slice(1) : last;
  return fn.slice(0, maxChars - 1) + '…';
}

/**
 * Per-name cache of nameForms for one names table (drawing asks for the same names on every
 * frame); entries are made on first use.
 */
export class NameFormsCache {
  // a map, not an array as long as the names: a draw asks for the few hundred names it writes
  // (an array of 118k slots, made for each new profile, cost more than those lookups)
  private readonly forms = new Map<number, string[]>();

  constructor(private readonly names: string[]) {}

  /** nameForms of names[k]. */
  get(k: number): string[] {
    let f = this.forms.get(k);
    if (!f) {
      f = nameForms(this.names[k]);
      this.forms.set(k, f);
    }
    return f;
  }

  /** fitName of names[k]. */
  fit(k: number, maxChars: number, align: TextAlign = 'left'): string {
    const name = this.names[k];
    // most names fit whole: no need to work out their shorter forms
    return name.length <= maxChars ? name : fitName(name, maxChars, align, this.get(k));
  }
}

/** The NameFormsCache of a names table, shared by everything that shows those names. */
export const nameFormsCache = memoOf((names: string[]) => new NameFormsCache(names));
