import { FlameData } from '../../shared/flameData';
import { FlameIndex } from './flameIndex';

/** A compiled search: regex when the text is a valid regular expression, else a substring. */
export interface Matcher {
  kind: 'regex' | 'substring';
  test: (name: string) => boolean;
}

/** Compiles search text (case-insensitive); undefined for empty text. */
export function compileSearch(text: string): Matcher | undefined {
  const q = text.trim();
  if (!q) {
    return undefined;
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

/** Matches names against m (each distinct name tested once). */
export function matchNames(data: FlameData, m: Matcher): Uint8Array {
  const out = new Uint8Array(data.names.length);
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
  const root = data.value[0] || 1;
  return { nameMatch, nodeMatch, count, total, share: total / root };
}
