// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * Orders ids by a number each (keys[id]), ascending or descending, ties kept in the order given.
 * A stable least-significant-digit radix sort on the keys' IEEE-754 bits, 11 bits a pass: a table
 * of 10^5 functions is ordered in a few passes over typed arrays, where a comparison sort of row
 * objects calls a comparator some 2 million times. A pass whose digit is the same for every key
 * (the low bits of whole numbers, the sign and exponent of keys of one magnitude) is skipped.
 * -0 sorts as 0, and NaN as 0 too (a comparator treats it as equal to everything).
 */
export function orderByKey(keys: Float64Array, ids: Int32Array, descending: boolean): Int32Array {
  const n = ids.length;
  const { vals, a, b } = scratchFor(n);
  for (let i = 0; i < n; i++) {
    const v = keys[ids[i]];
    // v === v is false for NaN only; adding 0 turns -0 into 0
    vals[i] = v === v ? v + 0 : 0;
  }
  // the bits of each key as two 32-bit words (little-endian: the low word first), turned so that
  // their unsigned order is the numbers' order: a negative number's bits all flipped, a
  // positive's sign bit set; descending flips all of them once more
  const words = new Uint32Array(vals.buffer, vals.byteOffset, 2 * n);
  for (let i = 0; i < n; i++) {
    const lo = 2 * i;
    const hi = lo + 1;
    const negative = words[hi] >>> 31 === 1;
    let h = negative ? ~words[hi] : words[hi] | 0x80000000;
    let l = negative ? ~words[lo] : words[lo];
    if (descending) {
      h = ~h;
      l = ~l;
    }
    words[hi] = h;
    words[lo] = l;
  }
  // one count of each digit value per pass, made in one sweep
  const counts = new Int32Array(PASSES * RADIX);
  for (let i = 0; i < n; i++) {
    const l = words[2 * i];
    const h = words[2 * i + 1];
    for (let pass = 0; pass < PASSES; pass++) {
      counts[pass * RADIX + digit(l, h, pass)]++;
    }
  }
  let order = a;
  for (let i = 0; i < n; i++) {
    order[i] = i;
  }
  let spare = b;
  const start = new Int32Array(RADIX);
  for (let pass = 0; pass < PASSES && n > 1; pass++) {
    const base = pass * RADIX;
    if (counts[base + digit(words[0], words[1], pass)] === n) {
      continue; // every key has this digit: the order stays
    }
    let at = 0;
    for (let d = 0; d < RADIX; d++) {
      start[d] = at;
      at += counts[base + d];
    }
    for (let i = 0; i < n; i++) {
      const p = order[i];
      spare[start[digit(words[2 * p], words[2 * p + 1], pass)]++] = p;
    }
    const t = order;
    order = spare;
    spare = t;
  }
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    out[i] = ids[order[i]];
  }
  return out;
}

/** Bits of a digit: six passes over the 64 bits, their counts (48 KB) in the fastest caches. */
const BITS = 11;
const RADIX = 1 << BITS;
const PASSES = Math.ceil(64 / BITS);

/** Digit pass of the 64-bit number whose low and high words are lo and hi. */
function digit(lo: number, hi: number, pass: number): number {
  const shift = pass * BITS;
  if (shift + BITS <= 32) {
    return (lo >>> shift) & (RADIX - 1);
  }
  if (shift >= 32) {
    return (hi >>> (shift - 32)) & (RADIX - 1);
  }
  return ((lo >>> shift) | (hi << (32 - shift))) & (RADIX - 1);
}

// The sort's working arrays, kept from one sort to the next (it runs to its end in one call, so
// no two sorts share them): memory a page touches for the first time costs far more than memory
// it writes again (BENCHMARKS.md), and a table of 10^5 functions needs 2 MB of it.
let scratch: { vals: Float64Array; a: Int32Array; b: Int32Array } | undefined;

function scratchFor(n: number) {
  if (!scratch || scratch.a.length < n) {
    scratch = { vals: new Float64Array(n), a: new Int32Array(n), b: new Int32Array(n) };
  }
  return { vals: scratch.vals.subarray(0, n), a: scratch.a.subarray(0, n), b: scratch.b.subarray(0, n) };
}
