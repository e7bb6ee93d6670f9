// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Drawing helpers of the call graph's picture: text measure and arrow paths.

let measureCtx: CanvasRenderingContext2D | null | undefined;
export const FONT_FAMILY = 'Helvetica, Arial, sans-serif';

/** Text width at a font size in the boxes' font (an estimate where nothing can measure, as in jsdom). */
export function measure(text: string, fontSize: number): number {
  if (measureCtx === undefined) {
    measureCtx = typeof document !== 'undefined' ? document.createElement('canvas').getContext('2d') : null;
  }
  if (!measureCtx) {
    return text.length * fontSize * 0.6;
  }
  measureCtx.font = `${fontSize}px ${FONT_FAMILY}`;
  return measureCtx.measureText(text).width;
}

/** The arrow head at a path's end (a triangle along its last segment) and where the line stops short of it. */
export function arrowHead(points: Array<{ x: number; y: number }>, width: number) {
  const n = points.length;
  if (n < 2) {
    return undefined;
  }
  const tip = points[n - 1];
  const from = points[n - 2];
  const dx = tip.x - from.x;
  const dy = tip.y - from.y;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  const size = 5 + width * 1.5;
  const bx = tip.x - ux * size;
  const by = tip.y - uy * size;
  const half = size * 0.45;
  return {
    head: `M${tip.x},${tip.y}L${bx - uy * half},${by + ux * half}L${bx + uy * half},${by - ux * half}z`,
    end: { x: bx + ux * 0.5, y: by + uy * 0.5 },
  };
}

/** An arrow's path through its points: straight to the first bend, then smooth through the midpoints. */
export function arrowPath(points: Array<{ x: number; y: number }>): string {
  if (points.length === 0) {
    return '';
  }
  let d = `M${points[0].x},${points[0].y}`;
  if (points.length === 2) {
    return `${d}L${points[1].x},${points[1].y}`;
  }
  for (let k = 1; k < points.length - 1; k++) {
    const p = points[k];
    const q = points[k + 1];
    const mx = k === points.length - 2 ? q.x : (p.x + q.x) / 2;
    const my = k === points.length - 2 ? q.y : (p.y + q.y) / 2;
    d += `Q${p.x},${p.y} ${mx},${my}`;
  }
  return d;
}
