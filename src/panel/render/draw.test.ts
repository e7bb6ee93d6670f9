// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { readFlameData } from '../../shared/flameData';
import { nestedSet, Row } from '../testing/frames';
import { buildIndex } from '../model/flameIndex';
import { nodeColors } from '../model/colors';
import { drawFlame } from './draw';
import { prepareCanvas } from './canvasPool';

// a 5,000-level chain: total → f1 → f2 → ... → f4999
const rows: Row[] = Array.from({ length: 5000 }, (_, l) => [l, l ? `pkg.f${l}` : 'total', 100, l === 4999 ? 100 : 0]);
const index = buildIndex(readFlameData(nestedSet(rows)));
const colors = nodeColors(index.data, 'self');

function draw(scrollTop: number, height = 200) {
  const canvas = document.createElement('canvas');
  const ctx = prepareCanvas(canvas, 400, height)!;
  const drawn = drawFlame(ctx, {
    index,
    colors,
    focus: 0,
    width: 400,
    rowHeight: 20,
    height,
    scrollTop,
    minBarWidth: 1,
    textAlign: 'left',
    darkTheme: false,
    font: '12px monospace',
    charWidth: 7,
  });
  return { canvas, ctx, drawn };
}

describe('drawFlame', () => {
  it('draws only the rows inside the viewport of a 5,000-level graph', () => {
    expect(draw(0).drawn).toBe(11); // levels 0..10 touch a 200 px viewport
    const deep = draw(50_000);
    expect(deep.drawn).toBe(11); // levels 2500..2510
    const texts = (deep.ctx as unknown as { __getEvents: () => Array<{ type: string; props: { text?: string } }> })
      .__getEvents()
      .filter((e) => e.type === 'fillText')
      .map((e) => e.props.text);
    expect(texts[0]).toBe('pkg.f2500 (100%, 100 ns)');
  });

  it('sizes the canvas to the viewport at the device pixel ratio, never to the whole graph', () => {
    const saved = window.devicePixelRatio;
    Object.defineProperty(window, 'devicePixelRatio', { value: 2, configurable: true });
    try {
      const { canvas } = draw(0, 300);
      expect([canvas.width, canvas.height]).toEqual([800, 600]);
      expect([canvas.style.width, canvas.style.height]).toEqual(['400px', '300px']);
    } finally {
      Object.defineProperty(window, 'devicePixelRatio', { value: saved, configurable: true });
    }
  });

  it('shortens names that do not fit from the left, keeping the function readable', () => {
    const go = 'github.com/emberscope/emberscope/pkg/demo.(*Service).handleCar';
    const small = buildIndex(
      readFlameData(
        nestedSet([
          [0, 'total', 100, 0],
          [1, go, 40, 40], // 160 px: 21 characters of 7 px fit
          [1, 'com.foo.Bar.baz', 10, 10], // 40 px: 4 characters
        ])
      )
    );
    const canvas = document.createElement('canvas');
    const ctx = prepareCanvas(canvas, 400, 60)!;
    drawFlame(ctx, {
      index: small,
      colors: nodeColors(small.data, 'self'),
      focus: 0,
      width: 400,
      rowHeight: 20,
      height: 60,
      scrollTop: 0,
      minBarWidth: 1,
      textAlign: 'left',
      darkTheme: false,
      font: '12px monospace',
      charWidth: 7,
    });
    const texts = (ctx as unknown as { __getEvents: () => Array<{ type: string; props: { text?: string } }> })
      .__getEvents()
      .filter((e) => e.type === 'fillText')
      .map((e) => e.props.text);
    expect(texts).toEqual(['total (100%, 100 ns)', '(*Service).handleCar', '…baz']);
  });
});
