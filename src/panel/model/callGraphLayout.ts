// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { Graph, layout } from '@dagrejs/dagre';
import { CallGraph } from './callGraph';

/** A function's box, placed: its centre, size, text lines and font size. */
export interface PlacedBox {
  x: number;
  y: number;
  width: number;
  height: number;
  lines: string[];
  fontSize: number;
}

/** An arrow, placed: its path's points (caller's side first) and its label's centre. */
export interface PlacedArrow {
  points: Array<{ x: number; y: number }>;
  labelX: number;
  labelY: number;
  label: string;
  /** pprof's pen width: 1 to 6 by the arrow's share of the total. */
  width: number;
  /** False for the lighter arrows left out of a dense picture (see drawnArrows). */
  drawn: boolean;
}

export interface PlacedGraph {
  boxes: PlacedBox[];
  arrows: PlacedArrow[];
  /** How many arrows were left out of the picture. */
  hidden: number;
  width: number;
  height: number;
}

/** Text width of a string at a font size, in the same units as the layout. */
export type Measure = (text: string, fontSize: number) => number;

/** Space around a box's text, and between its lines (as a share of the font size). */
const PAD = 4;
const LINE = 1.2;
/** Arrows past which a graph is placed with dagre's quicker ordering. */
const DENSE = 100;

/**
 * Which arrows a picture draws: all of them, up to one and a half per box (at least 100). Past that
 * (a deep recursion trimmed to 80 functions leaves hundreds of dotted arrows between them, and
 * placing them takes dagre seconds for a picture nobody can read), every box keeps its heaviest
 * arrow in, then solid arrows go before dotted ones and heavier before lighter.
 */
export function drawnArrows(g: CallGraph): boolean[] {
  const cap = Math.max(100, Math.ceil(1.5 * g.nodes.length));
  const drawn = g.edges.map(() => g.edges.length <= cap);
  if (g.edges.length <= cap) {
    return drawn;
  }
  let n = 0;
  for (const node of g.nodes) {
    // edges are heaviest first, so a box's first arrow in is its heaviest
    const k = node.in.length ? Math.min(...node.in) : -1;
    if (k >= 0 && !drawn[k]) {
      drawn[k] = true;
      n++;
    }
  }
  const order = g.edges
    .map((_, k) => k)
    .sort((a, b) => Number(g.edges[a].residual) - Number(g.edges[b].residual) || a - b);
  for (const k of order) {
    if (n >= cap) {
      break;
    }
    if (!drawn[k]) {
      drawn[k] = true;
      n++;
    }
  }
  return drawn;
}
/** An arrow label's font size. */
export const ARROW_FONT = 8;

/**
 * A function name as pprof writes it in a box: its package path's last element, and each dotted
 * part on a line of its own (`encoding/json.(*decodeState).value` → `json`, `(*decodeState)`,
 * `value`); at line granularity the file and line after it (`main.go:12`).
 */
export function nameLines(name: string): string[] {
  const space = name.indexOf(' ');
  const fn = space > 0 ? name.slice(0, space) : name;
  const where = space > 0 ? name.slice(space + 1).trim() : '';
  // the package path ends at the last slash before the first dot after it (a receiver or a
  // generic's type argument may hold slashes too)
  const firstParen = fn.search(/[([]/);
  const head = firstParen >= 0 ? fn.slice(0, firstParen) : fn;
  const slash = head.lastIndexOf('/');
  const short = slash >= 0 ? fn.slice(slash + 1) : fn;
  const lines = splitDots(short.replace(/::/g, '.'));
  if (where) {
    lines.push(where.slice(where.lastIndexOf('/') + 1));
  }
  return lines;
}

/** Splits at dots outside brackets and parentheses (`(*T).m[go.shape.int]` keeps its bracket whole). */
function splitDots(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '(' || c === '[') {
      depth++;
    } else if ((c === ')' || c === ']') && depth > 0) {
      depth--;
    } else if (c === '.' && depth === 0 && i > from) {
      out.push(s.slice(from, i));
      from = i + 1;
    }
  }
  if (from < s.length) {
    out.push(s.slice(from));
  }
  return out.length ? out : [s];
}

/** pprof's font size of a box: 8, growing to 24 with the square root of its share of the largest flat. */
export function boxFontSize(flat: number, maxFlat: number): number {
  if (maxFlat === 0 || flat === 0 || Math.abs(flat) > maxFlat) {
    return 8;
  }
  return 8 + Math.ceil(16 * Math.sqrt(Math.abs(flat) / maxFlat));
}

/** pprof's pen width of an arrow: 1 + its share of the total in fifths, at most 6. */
export function arrowWidth(weight: number, total: number): number {
  if (total === 0) {
    return 1;
  }
  return 1 + Math.min(Math.trunc(Math.abs((weight * 5) / total)), 5);
}

/**
 * The value lines of a box as pprof writes them: `flat (x%)` then `of cum (y%)`, or `0 of cum (y%)`
 * when the function has no flat; only the flat when both are the same.
 */
export function valueLines(flat: number, cum: number, total: number, format: (v: number) => string): string[] {
  const pct = (v: number) => percent(v, total);
  const flatText = flat !== 0 ? `${format(flat)} (${pct(flat)})` : '0';
  if (cum === flat) {
    return [flatText];
  }
  const cumText = `of ${format(cum)} (${pct(cum)})`;
  return flat !== 0 ? [flatText, cumText] : [`${flatText} ${cumText}`];
}

/** A share as pprof prints it: 100% when it rounds there, two decimals from 1%, two digits below. */
export function percent(v: number, total: number): string {
  const r = total !== 0 ? Math.abs(v / total) * 100 : 0;
  if (r >= 99.95 && r <= 100.05) {
    return '100%';
  }
  if (r >= 1) {
    return `${r.toFixed(2)}%`;
  }
  return `${Number(r.toPrecision(2))}%`;
}

/**
 * What dagre is given to place a picture: each box's size, each drawn arrow's ends, its label's
 * size and its weight (null for an arrow not placed: left out, or from a function to itself).
 * Plain numbers only, so it goes to the model worker as it is.
 */
export interface LayoutInput {
  boxes: Array<{ width: number; height: number }>;
  arrows: Array<{ from: number; to: number; labelWidth: number; weight: number } | null>;
  /** Placed with dagre's quicker ordering (see DENSE). */
  dense: boolean;
}

/** Where dagre put the boxes' centres and the arrows' paths and labels (null: not placed), and the picture's size. */
export interface LayoutOutput {
  boxes: Array<{ x: number; y: number }>;
  arrows: Array<{ points: Array<{ x: number; y: number }>; labelX: number; labelY: number } | null>;
  width: number;
  height: number;
}

/** A call graph's boxes and arrows with their text measured, not yet placed. */
export interface SizedGraph {
  boxes: PlacedBox[];
  labels: string[];
  drawn: boolean[];
  input: LayoutInput;
}

/** Measures a call graph's boxes and arrow labels (on the main thread: text is measured on a canvas). */
export function sizeCallGraph(g: CallGraph, measure: Measure, format: (v: number) => string): SizedGraph {
  const maxFlat = g.nodes.reduce((m, n) => Math.max(m, Math.abs(n.flat)), 0);
  const boxes: PlacedBox[] = g.nodes.map((n) => {
    const fontSize = boxFontSize(n.flat, maxFlat);
    const lines = [...nameLines(n.name), ...valueLines(n.flat, n.cum, g.total, format)];
    const width = Math.ceil(Math.max(...lines.map((l) => measure(l, fontSize)))) + 2 * PAD;
    const height = Math.ceil(lines.length * fontSize * LINE) + 2 * PAD;
    return { x: 0, y: 0, width, height, lines, fontSize };
  });
  const labels = g.edges.map((e) => ` ${format(e.weight)}`);
  const drawn = drawnArrows(g);
  const shown = drawn.filter(Boolean).length;
  const arrows = g.edges.map((e, k) =>
    e.from === e.to || !drawn[k]
      ? null
      : {
          from: e.from,
          to: e.to,
          labelWidth: Math.ceil(measure(labels[k], ARROW_FONT)) + 2,
          // heavier arrows straighter, as pprof's dot weight asks
          weight: 1 + Math.min(Math.trunc(Math.abs((e.weight * 100) / (g.total || 1))), 100),
        }
  );
  return {
    boxes,
    labels,
    drawn,
    input: { boxes: boxes.map((b) => ({ width: b.width, height: b.height })), arrows, dense: shown > DENSE },
  };
}

/** Places measured boxes and arrows top-down (callers above callees), as graphviz's dot places pprof's. */
export function layoutGraph(input: LayoutInput): LayoutOutput {
  const gr = new Graph();
  gr.setGraph({ rankdir: 'TB', nodesep: 16, ranksep: 24, edgesep: 10, marginx: 8, marginy: 8 });
  input.boxes.forEach((b, k) => gr.setNode(String(k), { width: b.width, height: b.height }));
  for (const a of input.arrows) {
    if (a) {
      gr.setEdge(String(a.from), String(a.to), {
        width: a.labelWidth,
        height: ARROW_FONT * LINE,
        // beside the arrow, not over it (graphviz's place for an edge label)
        labelpos: 'r',
        labeloffset: 3,
        weight: a.weight,
      });
    }
  }
  // dagre's best ordering of a dense graph (hundreds of arrows between 80 boxes) takes seconds:
  // there, its first good ordering
  layout(gr, input.dense ? { disableOptimalOrderHeuristic: true } : undefined);
  const size = gr.graph();
  return {
    boxes: input.boxes.map((_, k) => {
      const n = gr.node(String(k));
      return { x: n.x, y: n.y };
    }),
    arrows: input.arrows.map((a) => {
      const placed = a ? gr.edge(String(a.from), String(a.to)) : undefined;
      if (!placed) {
        return null;
      }
      const points = placed.points ? placed.points.map((p: { x: number; y: number }) => ({ x: p.x, y: p.y })) : [];
      return { points, labelX: placed.x ?? 0, labelY: placed.y ?? 0 };
    }),
    width: size.width ?? 0,
    height: size.height ?? 0,
  };
}

/** The picture of a measured graph from where layoutGraph placed it. */
export function placedFrom(g: CallGraph, sized: SizedGraph, out: LayoutOutput): PlacedGraph {
  const boxes = sized.boxes.map((b, k) => ({ ...b, x: out.boxes[k].x, y: out.boxes[k].y }));
  const arrows: PlacedArrow[] = g.edges.map((e, k) => {
    const placed = out.arrows[k];
    return {
      points: placed?.points ?? [],
      labelX: placed?.labelX ?? 0,
      labelY: placed?.labelY ?? 0,
      label: sized.labels[k],
      width: arrowWidth(e.weight, g.total),
      drawn: sized.drawn[k],
    };
  });
  const shown = sized.drawn.filter(Boolean).length;
  return { boxes, arrows, hidden: g.edges.length - shown, width: out.width, height: out.height };
}

/** Places a call graph top-down (callers above callees), as graphviz's dot places pprof's, at once. */
export function placeCallGraph(g: CallGraph, measure: Measure, format: (v: number) => string): PlacedGraph {
  const sized = sizeCallGraph(g, measure, format);
  return placedFrom(g, sized, layoutGraph(sized.input));
}

/**
 * pprof's colour of a box or an arrow by its share of the total (`score` in -1…1): grey near 0,
 * red as it grows (green for a negative share, as in a diff); a box's fill is the pale kind.
 */
export function pprofColor(score: number, background: boolean, dark = false, colorBlind = false): string {
  const shift = 0.7;
  let saturation = background ? 0.1 : 1.0;
  const value = background ? (dark ? 0.25 : 0.93) : dark ? 0.85 : 0.7;
  if (background && dark) {
    saturation = 0.45;
  }
  let s = Math.max(-1, Math.min(1, score));
  if (Math.abs(s) < 0.2) {
    saturation *= Math.abs(s) / 0.2;
  }
  s = s > 0 ? Math.pow(s, 1 - shift) : s < 0 ? -Math.pow(-s, 1 - shift) : 0;
  const hex = (x: number) =>
    Math.trunc(Math.max(0, Math.min(1, x)) * 255)
      .toString(16)
      .padStart(2, '0');
  if (colorBlind) {
    // the same amounts on the panel's colour-blind diff palette: orange where it grew, blue where
    // it shrank, from a grey of the same value
    const hue = s < 0 ? [0.13, 0.44, 0.71] : [0.9, 0.47, 0.08];
    const a = saturation * Math.abs(s);
    const [r, g, b] = hue.map((h) => value * (1 - a * (1 - h / Math.max(...hue))));
    return `#${hex(r)}${hex(g)}${hex(b)}`;
  }
  let r: number;
  let gr: number;
  if (s < 0) {
    gr = value;
    r = value * (1 + saturation * s);
  } else {
    r = value;
    gr = value * (1 - saturation * s);
  }
  const b = value * (1 - saturation);
  return `#${hex(r)}${hex(gr)}${hex(b)}`;
}
