// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameData, percentBase } from '../../shared/flameData';
import { FlameIndex } from './flameIndex';
import { chunkStep, IdleStep, runChunks } from './idle';
import { memoOf } from './memo';

/** A compiled search: regex when the text is a valid regular expression, else a substring. */
export interface Matcher {
  kind: 'regex' | 'substring';
  test: (name: string) => boolean;
  /**
   * The lower-cased text when it has no regex syntax at all, so that the regex and the substring
   * mean the same: matchNames then scans every name at once (see nameText).
   */
  literal?: string;
}

const REGEX_SYNTAX = /[\\^$.*+?()[\]{}|]/;

/**
 * Compiles search text (case-insensitive); undefined for empty text. Several terms separated by
 * commas (as Grafana's flame graph search takes them) match a name that any of them matches, each
 * term a regex or text; a comma inside a valid regex with braces (`a{1,3}`) stays part of it.
 */
export function compileSearch(text: string): Matcher | undefined {
  const q = text.trim();
  if (!q) {
    return undefined;
  }
  if (q.includes(',') && !/\{\d*,\d*\}/.test(q)) {
    const terms = q
      .split(',')
      .map((t) => compileOne(t.trim()))
      .filter((m): m is Matcher => m !== undefined);
    if (terms.length === 0) {
      return undefined;
    }
    if (terms.length === 1) {
      return terms[0];
    }
    return { kind: 'regex', test: (s) => terms.some((m) => m.test(s)) };
  }
  return compileOne(q);
}

function compileOne(q: string): Matcher | undefined {
  if (!q) {
    return undefined;
  }
  if (!REGEX_SYNTAX.test(q)) {
    const lower = q.toLowerCase();
    return { kind: 'regex', test: (s) => s.toLowerCase().includes(lower), literal: lower };
  }
  try {
    const re = new RegExp(q, 'i');
    return { kind: 'regex', test: (s) => re.test(s) };
  } catch {
    const lower = q.toLowerCase();
    return { kind: 'substring', test: (s) => s.toLowerCase().includes(lower) };
  }
}

/** The outcome of a search over a flamegraph. */
export interface SearchResult {
  /** 1 for every name that matches. */
  nameMatch: Uint8Array;
  /** 1 for every node that matches. */
  nodeMatch: Uint8Array;
  /** How many nodes match. */
  count: number;
  /** Sum of the totals of matching nodes, a match inside another match counted once. */
  total: number;
  /** total as a share of the root total (0–1). */
  share: number;
}

/** Every distinct name, lower-cased, in one string (one per line), and where each one starts. */
interface NameText {
  text: string;
  starts: Int32Array;
}

/** Names lower-cased per chunk of the name text's build. */
const NAME_CHUNK = 8192;

/** The name text of a names list being made, a chunk of names at a time; `text` once made. */
class NameTextBuild {
  text?: NameText;
  private readonly lower: string[] = [];
  constructor(private readonly names: string[]) {}

  chunk(): boolean {
    const { names, lower } = this;
    if (!this.text) {
      const to = Math.min(names.length, lower.length + NAME_CHUNK);
      for (let k = lower.length; k < to; k++) {
        lower.push(names[k].toLowerCase());
      }
      if (lower.length === names.length) {
        const starts = new Int32Array(lower.length + 1);
        for (let k = 0; k < lower.length; k++) {
          starts[k + 1] = starts[k] + lower[k].length + 1;
        }
        this.text = { text: lower.join('\n'), starts };
      }
    }
    return this.text !== undefined;
  }
}

/** One build per names list: the idle steps and a search that cannot wait go on with the same one. */
const nameTextBuild = memoOf((names: string[]) => new NameTextBuild(names));

/**
 * Makes nameText(data) in steps: each call lower-cases chunks of names while the deadline has
 * time left and says true once the text is made (the view runs it in idle slices after the first
 * paint, so neither the paint nor the first search pays for it).
 */
export function nameTextSteps(data: FlameData): IdleStep {
  const build = nameTextBuild(data.names);
  return chunkStep(() => build.chunk());
}

/** The names of data as one lower-cased text, made once per frame (see nameTextSteps). */
export function nameText(data: FlameData): NameText {
  const build = nameTextBuild(data.names);
  runChunks(() => build.chunk());
  return build.text!;
}

/** Index of the name whose line holds position pos of the name text. */
function nameAt(t: NameText, pos: number): number {
  let lo = 0;
  let hi = t.starts.length - 1;
  while (lo < hi - 1) {
    const mid = (lo + hi) >>> 1;
    if (t.starts[mid] <= pos) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/**
 * Matches names against m (each distinct name tested once). Plain text is found with one scan
 * of the name text, jumping from match to match, instead of one test per name.
 */
export function matchNames(data: FlameData, m: Matcher): Uint8Array {
  const out = new Uint8Array(data.names.length);
  if (m.literal !== undefined) {
    const t = nameText(data);
    for (let pos = t.text.indexOf(m.literal); pos >= 0;) {
      const k = nameAt(t, pos);
      out[k] = 1;
      // on to the next name
      pos = t.text.indexOf(m.literal, t.starts[k + 1]);
    }
    return out;
  }
  for (let k = 0; k < data.names.length; k++) {
    out[k] = m.test(data.names[k]) ? 1 : 0;
  }
  return out;
}

/** Runs a search over every node; `nameMatch` may come from matchNames or a highlighted name. */
export function searchNodes(index: FlameIndex, nameMatch: Uint8Array): SearchResult {
  const data = index.data;
  const n = data.count;
  const nodeMatch = new Uint8Array(n);
  let count = 0;
  let total = 0;
  // rows are depth-first, so a match's subtree is [i, end[i]): skip-counting nested matches
  let coveredUntil = -1;
  for (let i = 0; i < n; i++) {
    if (nameMatch[data.nameIdx[i]]) {
      nodeMatch[i] = 1;
      count++;
      if (i >= coveredUntil) {
        total += data.value[i];
        coveredUntil = index.end[i];
      }
    }
  }
  const root = percentBase(data) || 1;
  return { nameMatch, nodeMatch, count, total, share: total / root };
}
