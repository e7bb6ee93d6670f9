// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameData } from '../../shared/flameData';
import type { ColorMode } from '../types';

/**
 * The package part of a function name, which decides its hue:
 * `github.com/a/b.(*T).M` → `github.com/a/b`, `runtime.mallocgc` → `runtime`,
 * `std::vec::Vec<T>::push` → `std::vec::Vec<T>`, `com.x.Y.run` → `com.x.Y`,
 * `app.py:handler` → `app.py`.
 */
export function packageOf(name: string): string {
  const cpp = name.lastIndexOf('::');
  if (cpp > 0) {
    return name.slice(0, cpp);
  }
  const slash = name.lastIndexOf('/');
  if (slash >= 0) {
    // Go import path: the package ends at the first dot after the last slash
    const dot = name.indexOf('.', slash);
    return dot > 0 ? name.slice(0, dot) : name;
  }
  const colon = name.indexOf(':');
  if (colon > 0) {
    return name.slice(0, colon);
  }
  const firstDot = name.indexOf('.');
  if (firstDot < 0) {
    return name;
  }
  let dots = 0;
  for (let i = firstDot; i >= 0 && dots < 2; i = name.indexOf('.', i + 1)) {
    dots++;
  }
  // Go (`pkg.Func`, `pkg.(*T).M`) has its package before the first dot; dotted JVM/.NET names before the last
  if (dots === 1 || name.includes('(')) {
    return name.slice(0, firstDot);
  }
  return name.slice(0, name.lastIndexOf('.'));
}

/** 32-bit FNV-1a hash of s, stable across runs, browsers and panels. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Hue (0–359) of a package: the same package always gets the same hue. */
export function hueOf(pkg: string): number {
  return fnv1a(pkg) % 360;
}

/** Colour of a bar made from a hue and an intensity in [0, 1] (more intense = more saturated, darker). */
export function hsl(hue: number, intensity: number): string {
  const t = Math.max(0, Math.min(1, intensity));
  const s = Math.round(35 + 45 * t);
  const l = Math.round(72 - 22 * t);
  return `hsl(${hue}, ${s}%, ${l}%)`;
}

/** Fill of virtual frames (drawn neutral, with a border and hatching). */
export const VIRTUAL_FILL = 'hsl(220, 10%, 62%)';
/** Fill of bars that do not match the search. */
export const DIMMED_FILL = 'hsl(220, 6%, 82%)';
export const DIMMED_FILL_DARK = 'hsl(220, 6%, 28%)';

/** Diff palettes from "decreased" through neutral to "increased". */
export const DIFF_PALETTES = {
  // green → grey → red
  default: [
    [46, 160, 67],
    [200, 200, 200],
    [218, 54, 51],
  ],
  // blue → grey → orange (distinguishable with red-green colour blindness)
  colorBlind: [
    [33, 113, 181],
    [200, 200, 200],
    [230, 120, 20],
  ],
} as const;

function mix(a: readonly number[], b: readonly number[], t: number): string {
  const c = a.map((x, k) => Math.round(x + (b[k] - x) * t));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

/**
 * Relative change of a node's share between the baseline (left) and the comparison (right),
 * clamped to [-1, 1]: -1 = gone or halved and more, +1 = new or doubled and more.
 */
export function diffChange(left: number, right: number, totalLeft: number, totalRight: number): number {
  const pl = totalLeft > 0 ? left / totalLeft : 0;
  const pr = totalRight > 0 ? right / totalRight : 0;
  if (pl === 0) {
    return pr > 0 ? 1 : 0;
  }
  return Math.max(-1, Math.min(1, (pr - pl) / pl));
}

/** Colour of a diff bar for a change in [-1, 1]. */
export function diffColor(change: number, colorBlind: boolean): string {
  const [dec, mid, inc] = colorBlind ? DIFF_PALETTES.colorBlind : DIFF_PALETTES.default;
  return change < 0 ? mix(mid, dec, -change) : mix(mid, inc, change);
}

/** The fill of each node, computed when a node is first drawn (so a first draw costs what it shows). */
export interface NodeColors {
  /** Fill of node i. */
  get(i: number): string;
}

/**
 * Each function's self summed over every node of the graph (indexed like `data.names`), and
 * the largest of them: what pprof colours a function by, so that every node of a hot function
 * stands out however small the node.
 */
export function selfByFunction(data: FlameData): { self: Float64Array; max: number } {
  let self = data.selfByName;
  if (!self || self.length !== data.names.length) {
    self = new Float64Array(data.names.length);
    const { nameIdx } = data;
    const nodeSelf = data.self;
    for (let i = 0; i < data.count; i++) {
      self[nameIdx[i]] += nodeSelf[i];
    }
  }
  let max = 0;
  for (let k = 0; k < self.length; k++) {
    if (self[k] > max) {
      max = self[k];
    }
  }
  return { self, max };
}

// Fills by (hue, intensity step), made once for the page: intensities are bucketed (11 steps), so
// at most 360 × 11 distinct strings are ever made, and a new profile's first draw makes none it
// has made before.
const fills = new Array<string | undefined>(360 * 11);

// Hues by function name, kept for the page (a refresh draws the same functions again), up to
// HUE_NAMES names; then started over.
const HUE_NAMES = 200_000;
const hueByName = new Map<string, number>();

/** The hue of a function name's package (hueOf(packageOf(name))), remembered. */
function nameHue(name: string): number {
  let h = hueByName.get(name);
  if (h === undefined) {
    h = hueOf(packageOf(name));
    if (hueByName.size >= HUE_NAMES) {
      hueByName.clear();
    }
    hueByName.set(name, h);
  }
  return h;
}

/**
 * The fill of nodes, computed on demand:
 * - 'self' (pprof's colouring): hue by package, intensity by the function's self summed over
 *   the whole graph (relative to the hottest function), the same on every node of a function;
 * - 'selfNode': hue by package, intensity by the node's own self (relative to the largest self);
 * - 'total': hue by package, intensity by the node's share of the root total;
 * - 'package': hue by package only, one intensity;
 * virtual nodes get VIRTUAL_FILL; diff frames are coloured by change whatever the mode.
 * Hues are worked out once per distinct name and fills once per (hue, intensity step), so
 * only the nodes that are drawn cost anything.
 */
export function nodeColors(data: FlameData, mode: ColorMode, colorBlind = false): NodeColors {
  if (data.valueRight) {
    const vr = data.valueRight;
    const value = data.value;
    const totalRight = vr[0];
    const totalLeft = value[0] - totalRight;
    return { get: (i) => diffColor(diffChange(value[i] - vr[i], vr[i], totalLeft, totalRight), colorBlind) };
  }
  const { self, value, nameIdx, names, virtual } = data;
  let maxSelf = 0;
  if (mode === 'selfNode') {
    for (let i = 0; i < data.count; i++) {
      if (self[i] > maxSelf) {
        maxSelf = self[i];
      }
    }
  }
  // per function: worked out on the first fill asked for
  let fn: { self: Float64Array; max: number } | undefined;
  const total = value[0] || 1;
  // each name's hue + 1 (0: not worked out yet, so the array needs no filling)
  const hues = new Int16Array(names.length);
  return {
    get(i: number): string {
      if (virtual && virtual[i]) {
        return VIRTUAL_FILL;
      }
      let t = 0.5;
      if (mode === 'self') {
        fn = fn ?? selfByFunction(data);
        t = fn.max > 0 ? Math.sqrt(fn.self[nameIdx[i]] / fn.max) : 0;
      } else if (mode === 'selfNode') {
        t = maxSelf > 0 ? Math.sqrt(self[i] / maxSelf) : 0;
      } else if (mode === 'total') {
        t = Math.sqrt(value[i] / total);
      }
      const k = nameIdx[i];
      let h = hues[k] - 1;
      if (h < 0) {
        h = nameHue(names[k]);
        hues[k] = h + 1;
      }
      const bucket = Math.round(t * 10);
      const key = h * 11 + bucket;
      let c = fills[key];
      if (c === undefined) {
        c = hsl(h, bucket / 10);
        fills[key] = c;
      }
      return c;
    },
  };
}

/** The fill of every node (see nodeColors), as an array. */
export function computeColors(data: FlameData, mode: ColorMode, colorBlind = false): string[] {
  const colors = nodeColors(data, mode, colorBlind);
  const out = new Array<string>(data.count);
  for (let i = 0; i < data.count; i++) {
    out[i] = colors.get(i);
  }
  return out;
}
