// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { DataFrame, Field, FieldType } from '@grafana/data';

/**
 * A read-only column of numbers: a typed array made here, or the frame's own array of plain
 * numbers taken as it is. Not copying the frame's four columns spares touching fresh memory,
 * which is most of what reading a large frame costs (numbers in BENCHMARKS.md).
 */
export type Column = ArrayLike<number>;

/**
 * A flamegraph in columnar form (typed arrays, or the frame's arrays of numbers as they are), read from a nested-set data frame
 * (one row per node in depth-first order; the shape Grafana's Pyroscope datasource
 * and Emberscope's backend emit). Row i is node i; node 0 is the root.
 *
 * Diff frames are read as `@grafana/flamegraph` reads them: the frame's `value`/`self`
 * are the baseline (the query's own side) and `valueRight`/`selfRight` the comparison.
 * Here, as in that component's levels, `value`/`self` hold what a bar draws (baseline +
 * comparison), so layout, zoom and search work the same on both kinds; the baseline is
 * `value - valueRight` (see baselineOf).
 */
export interface FlameData {
  /** Number of nodes. */
  count: number;
  /** Depth of each node, root = 0. */
  level: Column;
  /** Total of each node (for diff frames: baseline + comparison, the bar's width). */
  value: Column;
  /** Self value of each node (for diff frames: baseline + comparison). */
  self: Column;
  /** Index into `names` of each node's name. */
  nameIdx: Column;
  /** Distinct names. */
  names: string[];
  /** 1 where the node is a virtual frame (made from a label value), when the frame says so. */
  virtual?: Uint8Array;
  /** For virtual nodes: index into `names` of the label the node was made from, -1 otherwise. */
  virtualLabelIdx?: Int32Array;
  /** Right-hand (comparison) total of each node, for diff frames. */
  valueRight?: Column;
  /** Right-hand (comparison) self of each node, for diff frames. */
  selfRight?: Column;
  /** Grafana unit of value/self (e.g. `ns`, `bytes`, `short`), from the field config. */
  unit?: string;
  /** Deepest level. */
  maxLevel: number;
  /**
   * Each name's self summed over every node (indexed like `names`), when the reader made it on
   * the way (the one-pass reading of a plain frame, not a diff): what colouring by self reads.
   */
  selfByName?: Float64Array;
  /**
   * Set when `names` is an enum field's text taken as it is (readFlameData's `enumTextAsNames`),
   * so not yet known to be distinct; namesDistinct says whether it is.
   */
  namesUnchecked?: boolean;
  /** The ignore and hide the datasource applied (pprof's -ignore, -hide), from the frame's meta. */
  sampleFilters?: SampleFilters;
  /**
   * Set when percentages are of more than the root's total: the whole graph's before ignore and
   * hide (pprof's default; its -relative_percentages are of what is shown). See percentBase.
   */
  wholeTotal?: number;
}

/** The datasource's ignore and hide of a flamegraph frame (meta custom.sampleFilters). */
export interface SampleFilters {
  ignore: string[];
  hide: string[];
  /** The total before them. */
  wholeTotal: number;
}

/** Options of readFlameData. */
export interface ReadOptions {
  /**
   * Take the label field's enum text as the names as it is, without interning it: the text of
   * an enum is a list of distinct values (what Grafana's Pyroscope datasource and Emberscope's
   * backend send), and `@grafana/flamegraph` reads it so too. Saves hashing every name before the
   * first draw (BENCHMARKS.md); the result says `namesUnchecked`, and a reader that
   * must be sure checks it with namesDistinct and reads the frame again without this option when
   * a name repeats.
   */
  enumTextAsNames?: boolean;
}

/** Raised when a frame is not a valid nested-set flamegraph; the message says what and where. */
export class FlameFrameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FlameFrameError';
  }
}

/** Whether frame looks like a flamegraph frame (has level, value, self and label fields). */
export function isFlameFrame(frame: DataFrame): boolean {
  const names = new Set(frame.fields.map((f) => f.name));
  return ['level', 'value', 'self', 'label'].every((n) => names.has(n));
}

/** Returns the first flamegraph frame of series, or undefined. */
export function findFlameFrame(series: DataFrame[]): DataFrame | undefined {
  return series.find(isFlameFrame);
}

function optionalField(frame: DataFrame, name: string): Field | undefined {
  return frame.fields.find((x) => x.name === name);
}

function requiredField(frame: DataFrame, name: string): Field {
  const f = optionalField(frame, name);
  if (!f) {
    const have = frame.fields.map((x) => x.name).join(', ') || 'none';
    throw new FlameFrameError(`flamegraph frame "${frame.name ?? ''}" has no "${name}" field (fields: ${have})`);
  }
  return f;
}

/** The number in v (numbers, numeric strings, bigints), NaN otherwise. */
function toNumber(v: unknown): number {
  return typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : typeof v === 'bigint' ? Number(v) : NaN;
}

/**
 * Whether v is an integer in 0..2^31-1 (a level, an enum index). `(v | 0) === v` instead of
 * Number.isInteger, which V8 runs far slower in this per-row loop (BENCHMARKS.md).
 */
function isSmallIndex(v: unknown): v is number {
  return typeof v === 'number' && (v | 0) === v && v >= 0;
}

function notFinite(f: Field, i: number, v: unknown): FlameFrameError {
  // a number as it prints (JSON would print NaN and Infinity as null)
  const shown = typeof v === 'number' ? String(v) : JSON.stringify(v);
  return new FlameFrameError(`field "${f.name}" row ${i}: ${shown} is not a finite number`);
}

/** The frame's own array when it is an array of exactly n plain numbers, for reading without a copy. */
function plainArray(vals: ArrayLike<unknown>, n: number): number[] | undefined {
  return Array.isArray(vals) && vals.length === n ? (vals as number[]) : undefined;
}

/**
 * Reads n finite numbers of f: the frame's array as it is when it holds plain finite numbers
 * (nothing copied), else a Float64Array of them converted (numeric strings, bigints).
 */
function numbers(f: Field, n: number): Column {
  const vals = f.values as ArrayLike<unknown>;
  const plain = plainArray(vals, n);
  if (plain) {
    let i = 0;
    // v - v is 0 for finite numbers only (NaN for NaN and ±Infinity, and for non-numbers)
    while (i < n && typeof plain[i] === 'number' && plain[i] - plain[i] === 0) {
      i++;
    }
    if (i === n) {
      return plain;
    }
  }
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = vals[i];
    if (typeof v === 'number' && v - v === 0) {
      out[i] = v;
      continue;
    }
    const x = toNumber(v);
    if (!Number.isFinite(x)) {
      throw notFinite(f, i, v);
    }
    out[i] = x;
  }
  return out;
}

/**
 * Reads the level column straight into an Int32Array, checking the nested-set shape: one root
 * at level 0 in row 0, every later row at most one level deeper than the row before it.
 */
function readLevels(f: Field, n: number): { level: Column; maxLevel: number } {
  const vals = f.values as ArrayLike<unknown>;
  let maxLevel = 0;
  let prev = -1;
  // whether every row is a plain number already (then the frame's array is the column)
  let asIs = true;
  for (let i = 0; i < n; i++) {
    const v = vals[i];
    let l: number;
    if (isSmallIndex(v)) {
      l = v;
    } else {
      l = toNumber(v);
      asIs = false;
    }
    if (!isSmallIndex(l)) {
      if (!Number.isFinite(l)) {
        throw notFinite(f, i, v);
      }
      throw new FlameFrameError(`field "level" row ${i}: ${l} is not a non-negative integer`);
    }
    if (l > prev + 1 || (l === 0) !== (i === 0)) {
      if (i === 0) {
        throw new FlameFrameError(`field "level" row 0: the first row must be the root at level 0, got ${l}`);
      }
      if (l === 0) {
        throw new FlameFrameError(`field "level" row ${i}: a second root (level 0); a flamegraph frame has one root`);
      }
      throw new FlameFrameError(
        `field "level" row ${i}: level ${l} follows level ${prev}; rows may go only one level deeper at a time`
      );
    }
    prev = l;
    if (l > maxLevel) {
      maxLevel = l;
    }
  }
  const plain = asIs ? plainArray(vals, n) : undefined;
  const level = plain ?? Int32Array.from({ length: n }, (_, i) => toNumber(vals[i]));
  return { level, maxLevel };
}

/**
 * An enum column's indices as they are, checked to be in 0..size-1; undefined when a row holds
 * something else than an index (a plain string), which only the interning path reads.
 */
function enumIndices(f: Field, vals: ArrayLike<unknown>, n: number, size: number): Column | undefined {
  for (let i = 0; i < n; i++) {
    const v = vals[i];
    if (typeof v !== 'number') {
      return undefined;
    }
    if (!isSmallIndex(v) || v >= size) {
      throw new FlameFrameError(`field "${f.name}" row ${i}: enum index ${v} outside 0..${size - 1}`);
    }
  }
  return plainArray(vals, n) ?? Int32Array.from({ length: n }, (_, i) => vals[i] as number);
}

/** Whether data's names are distinct (always, unless read with `enumTextAsNames` from an enum that repeats a value). */
export function namesDistinct(data: FlameData): boolean {
  return !data.namesUnchecked || new Set(data.names).size === data.names.length;
}

/** Interns the label column (enum indices or plain strings) into names + per-row indices. */
function readLabels(f: Field, n: number, names: string[], seen: Map<string, number>, trustText = false): Column {
  const vals = f.values as ArrayLike<unknown>;
  const enumText = f.config?.type?.enum?.text;
  const intern = (s: string) => {
    let idx = seen.get(s);
    if (idx === undefined) {
      idx = names.length;
      names.push(s);
      seen.set(s, idx);
    }
    return idx;
  };
  if (f.type === FieldType.enum || enumText) {
    const text = enumText ?? [];
    if (trustText && names.length === 0) {
      const asIs = enumIndices(f, vals, n, text.length);
      if (asIs) {
        for (let k = 0; k < text.length; k++) {
          names.push(typeof text[k] === 'string' ? text[k] : String(text[k]));
        }
        return asIs;
      }
    }
    const out = new Int32Array(n);
    const map = new Int32Array(text.length).fill(-1);
    for (let i = 0; i < n; i++) {
      const v = vals[i];
      if (typeof v === 'number') {
        if (!isSmallIndex(v) || v >= text.length) {
          throw new FlameFrameError(`field "${f.name}" row ${i}: enum index ${v} outside 0..${text.length - 1}`);
        }
        if (map[v] < 0) {
          map[v] = intern(String(text[v]));
        }
        out[i] = map[v];
      } else {
        out[i] = intern(v == null ? '' : String(v));
      }
    }
    return out;
  }
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const v = vals[i];
    out[i] = intern(v == null ? '' : String(v));
  }
  return out;
}

/**
 * The four columns as they are, checked in one pass, when each is the frame's array of plain
 * numbers and the label an enum's indices (what Grafana's Pyroscope datasource and Emberscope's
 * backend send): the nested-set shape, finite totals and selfs with self <= total, indices inside
 * the enum. Undefined when any of that does not hold; the column-by-column reading then says
 * what and where. One pass instead of five reads each row's four values once (what that saves on
 * a large frame: BENCHMARKS.md); it sums each name's self on the way (selfByName), which
 * a draw coloured by self would otherwise read every row again for.
 */
function readPlainColumns(
  levelF: Field,
  valueF: Field,
  selfF: Field,
  labelF: Field,
  n: number
):
  | { level: number[]; maxLevel: number; value: number[]; self: number[]; nameIdx: number[]; selfByName: Float64Array }
  | undefined {
  const text = labelF.config?.type?.enum?.text;
  const level = plainArray(levelF.values, n);
  const value = plainArray(valueF.values, n);
  const self = plainArray(selfF.values, n);
  const nameIdx = plainArray(labelF.values, n);
  if (!text || !level || !value || !self || !nameIdx || n === 0 || level[0] !== 0) {
    return undefined;
  }
  const size = text.length;
  const selfByName = new Float64Array(size);
  let prev = -1;
  let maxLevel = 0;
  for (let i = 0; i < n; i++) {
    const l = level[i];
    const v = value[i];
    const s = self[i];
    const k = nameIdx[i];
    if (
      typeof l !== 'number' ||
      (l | 0) !== l ||
      l < 0 ||
      l > prev + 1 ||
      (l === 0) !== (i === 0) ||
      typeof v !== 'number' ||
      v - v !== 0 ||
      typeof s !== 'number' ||
      !(s <= v) ||
      s - s !== 0 ||
      typeof k !== 'number' ||
      (k | 0) !== k ||
      k < 0 ||
      k >= size
    ) {
      return undefined;
    }
    selfByName[k] += s;
    prev = l;
    if (l > maxLevel) {
      maxLevel = l;
    }
  }
  return { level, maxLevel, value, self, nameIdx, selfByName };
}

/**
 * Reads a nested-set flamegraph frame into typed arrays and checks its shape: one root at
 * level 0 in row 0, every later row at most one level deeper than the row before it, totals
 * not below self. Throws FlameFrameError naming the field and row of the first problem.
 */
export function readFlameData(frame: DataFrame, options: ReadOptions = {}): FlameData {
  const n = frame.length ?? requiredField(frame, 'level').values.length;
  const levelF = requiredField(frame, 'level');
  const valueF = requiredField(frame, 'value');
  const selfF = requiredField(frame, 'self');
  const labelF = requiredField(frame, 'label');
  let names: string[] = [];
  // names is the frame's own array (never written to)
  let namesShared = false;
  const seen = new Map<string, number>();
  const plain = options.enumTextAsNames ? readPlainColumns(levelF, valueF, selfF, labelF, n) : undefined;
  let level: Column, maxLevel: number, value: Column, self: Column, nameIdx: Column;
  if (plain) {
    ({ level, maxLevel, value, self, nameIdx } = plain);
    const text: unknown[] = labelF.config!.type!.enum!.text!;
    let strings = true;
    for (let k = 0; k < text.length && strings; k++) {
      strings = typeof text[k] === 'string';
    }
    // the enum's own array when every name is a string (copied before a virtual label is added to it)
    names = strings ? (text as string[]) : text.map((t) => String(t));
    namesShared = strings;
  } else {
    ({ level, maxLevel } = readLevels(levelF, n));
    value = numbers(valueF, n);
    self = numbers(selfF, n);
    for (let i = 0; i < n; i++) {
      if (self[i] > value[i]) {
        throw new FlameFrameError(`row ${i}: self ${self[i]} is larger than the node's total ${value[i]}`);
      }
    }
    nameIdx = readLabels(labelF, n, names, seen, options.enumTextAsNames);
  }

  const data: FlameData = { count: n, level, value, self, nameIdx, names, maxLevel, unit: valueF.config?.unit };
  if (plain && !optionalField(frame, 'valueRight')) {
    // a diff's self is made anew below (both sides): its sums would be the baseline's only
    data.selfByName = plain.selfByName;
  }
  if (names.length > 0 && seen.size === 0) {
    // the enum's text taken as it is (not interned)
    data.namesUnchecked = true;
  }

  const virtualF = optionalField(frame, 'virtual');
  if (virtualF) {
    const v = new Uint8Array(n);
    const vals = virtualF.values as ArrayLike<unknown>;
    let any = false;
    for (let i = 0; i < n; i++) {
      v[i] = vals[i] === true || vals[i] === 1 || vals[i] === 'true' ? 1 : 0;
      any = any || v[i] === 1;
    }
    if (any) {
      data.virtual = v;
      const vl = optionalField(frame, 'virtualLabel');
      const idx = new Int32Array(n).fill(-1);
      if (vl && namesShared) {
        names = names.slice();
        data.names = names;
      }
      if (vl && data.namesUnchecked && seen.size === 0) {
        // the label names are interned after the node names taken as they are
        names.forEach((name, k) => seen.set(name, k));
      }
      if (vl) {
        const labels = readLabels(vl, n, names, seen);
        for (let i = 0; i < n; i++) {
          if (v[i]) {
            idx[i] = labels[i];
          }
        }
      }
      data.virtualLabelIdx = idx;
    }
  }

  const vr = optionalField(frame, 'valueRight');
  const sr = optionalField(frame, 'selfRight');
  if (Boolean(vr) !== Boolean(sr)) {
    throw new FlameFrameError('a diff flamegraph frame needs both "valueRight" and "selfRight" fields');
  }
  if (vr && sr) {
    const valueRight = numbers(vr, n);
    const selfRight = numbers(sr, n);
    // a bar draws both sides: new columns, the frame's own arrays are never written to
    const both = new Float64Array(n);
    const bothSelf = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      if (selfRight[i] > valueRight[i]) {
        throw new FlameFrameError(
          `row ${i}: selfRight ${selfRight[i]} is larger than the node's valueRight ${valueRight[i]}`
        );
      }
      both[i] = value[i] + valueRight[i];
      bothSelf[i] = self[i] + selfRight[i];
    }
    data.value = both;
    data.self = bothSelf;
    data.valueRight = valueRight;
    data.selfRight = selfRight;
  }
  const filters = sampleFiltersOf(frame);
  if (filters) {
    data.sampleFilters = filters;
  }
  return data;
}

/** The frame's meta custom.sampleFilters (the datasource's ignore and hide), when well formed. */
function sampleFiltersOf(frame: DataFrame): SampleFilters | undefined {
  const custom = frame.meta?.custom as { sampleFilters?: unknown } | undefined;
  const f = custom?.sampleFilters as Partial<SampleFilters> | undefined;
  if (!f || typeof f.wholeTotal !== 'number') {
    return undefined;
  }
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return { ignore: strings(f.ignore), hide: strings(f.hide), wholeTotal: f.wholeTotal };
}

/** What a flamegraph's percentages are of: its whole total before ignore and hide, or its root's. */
export function percentBase(data: FlameData): number {
  return data.wholeTotal ?? (data.count > 0 ? data.value[0] : 0);
}

/** The columns of a flamegraph made from another one (a merge, a collapse); the diff and virtual ones in pairs. */
export type FlameColumns = Omit<FlameData, 'names' | 'unit' | 'namesUnchecked'>;

/**
 * A FlameData of cols over like's names and unit: the diff columns kept when both are given,
 * and the virtual ones likewise.
 */
export function flameDataLike(like: Pick<FlameData, 'names' | 'unit' | 'wholeTotal'>, cols: FlameColumns): FlameData {
  const { count, level, value, self, nameIdx, maxLevel, valueRight, selfRight, virtual, virtualLabelIdx } = cols;
  const out: FlameData = { count, level, value, self, nameIdx, names: like.names, maxLevel, unit: like.unit };
  if (like.wholeTotal !== undefined) {
    // a collapsed or reshaped graph keeps what its percentages are of
    out.wholeTotal = like.wholeTotal;
  }
  if (valueRight && selfRight) {
    out.valueRight = valueRight;
    out.selfRight = selfRight;
  }
  if (virtual && virtualLabelIdx) {
    out.virtual = virtual;
    out.virtualLabelIdx = virtualLabelIdx;
  }
  return out;
}

/** Node i's baseline (left) total in a diff flamegraph: the frame's own `value`. */
export function baselineOf(data: FlameData, i: number): number {
  return data.valueRight ? data.value[i] - data.valueRight[i] : data.value[i];
}

/** Whether data is a diff flamegraph (has right-hand values). */
export function isDiff(data: FlameData): boolean {
  return data.valueRight !== undefined;
}
