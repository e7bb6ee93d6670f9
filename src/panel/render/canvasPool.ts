// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * Canvases kept for the next graph that mounts. The first use of a new canvas' 2D context
 * allocates and clears its bitmap (8–10 ms of a sandwich switch at 1200×800, for its two new
 * halves); a graph that unmounts gives its canvas back and the next one draws into that bitmap
 * instead, and idle time can make spare ones ahead (warmCanvases).
 */

/** How many canvases the pool keeps at most. */
const KEEP = 4;
const pool: HTMLCanvasElement[] = [];
// the largest bitmap made so far, in device px: what a warmed canvas is made as
let largest = { width: 1, height: 1 };

/**
 * Sizes canvas' bitmap to at least w×h CSS px at the device pixel ratio, never smaller than it
 * is (a graph that gets shorter or narrower, or a canvas from the pool, draws into the bitmap it
 * has; its box clips what lies outside the graph), and returns its 2D context scaled to CSS px.
 * The element's CSS size is its bitmap's, so nothing is scaled.
 */
export function prepareCanvas(canvas: HTMLCanvasElement, w: number, h: number): CanvasRenderingContext2D | null {
  const dpr = window.devicePixelRatio || 1;
  const pw = Math.max(1, Math.round(w * dpr));
  const ph = Math.max(1, Math.round(h * dpr));
  if (canvas.width < pw || canvas.height < ph) {
    canvas.width = Math.max(canvas.width, pw);
    canvas.height = Math.max(canvas.height, ph);
  }
  if (canvas.width > largest.width || canvas.height > largest.height) {
    largest = { width: Math.max(largest.width, canvas.width), height: Math.max(largest.height, canvas.height) };
  }
  const cssW = `${canvas.width / dpr}px`;
  const cssH = `${canvas.height / dpr}px`;
  if (canvas.style.width !== cssW || canvas.style.height !== cssH) {
    canvas.style.width = cssW;
    canvas.style.height = cssH;
  }
  const ctx = canvas.getContext('2d');
  if (!ctx) {
    return null;
  }
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return ctx;
}

/** A canvas for a graph that mounts: one given back earlier, or a new one. */
export function takeCanvas(): HTMLCanvasElement {
  return pool.pop() ?? document.createElement('canvas');
}

/** Gives back the canvas of a graph that unmounts (its attributes and probe dropped). */
export function giveCanvas(canvas: HTMLCanvasElement): void {
  canvas.remove();
  for (const a of Array.from(canvas.attributes)) {
    if (a.name !== 'width' && a.name !== 'height' && a.name !== 'style') {
      canvas.removeAttribute(a.name);
    }
  }
  delete (canvas as HTMLCanvasElement & { emberscope?: unknown }).emberscope;
  if (pool.length < KEEP) {
    pool.push(canvas);
  }
}

/**
 * Makes spare canvases until the pool holds `count`, each with its bitmap allocated at the
 * largest size drawn so far (for idle time: a view about to open, such as a sandwich's two
 * halves, then finds them ready).
 */
export function warmCanvases(count: number): void {
  while (pool.length < Math.min(count, KEEP)) {
    const c = document.createElement('canvas');
    c.width = largest.width;
    c.height = largest.height;
    const ctx = c.getContext('2d');
    // the first use of the context allocates the bitmap
    ctx?.clearRect(0, 0, 1, 1);
    pool.push(c);
  }
}

/** How many canvases the pool holds (for tests). */
export function pooledCanvases(): number {
  return pool.length;
}
