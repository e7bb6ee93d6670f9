// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { giveCanvas, pooledCanvases, prepareCanvas, takeCanvas, warmCanvases } from './canvasPool';

describe('canvas pool', () => {
  it('sizes a bitmap to the box and never shrinks it, its CSS size the bitmap’s', () => {
    const c = document.createElement('canvas');
    prepareCanvas(c, 400, 300);
    expect([c.width, c.height]).toEqual([400, 300]);
    // a shorter, narrower graph draws into the same bitmap (the box clips the rest)
    prepareCanvas(c, 200, 100);
    expect([c.width, c.height]).toEqual([400, 300]);
    expect([c.style.width, c.style.height]).toEqual(['400px', '300px']);
    // a taller one grows it
    prepareCanvas(c, 300, 500);
    expect([c.width, c.height]).toEqual([400, 500]);
  });

  it('gives a canvas given back to the next graph, without its attributes, and warms spares at the largest size', () => {
    while (pooledCanvases() > 0) {
      takeCanvas();
    }
    const a = takeCanvas();
    a.setAttribute('data-testid', 'flamegraph-canvas');
    prepareCanvas(a, 640, 480);
    document.body.appendChild(a);
    giveCanvas(a);
    expect(a.isConnected).toBe(false);
    expect(a.getAttribute('data-testid')).toBeNull();
    expect(takeCanvas()).toBe(a);
    warmCanvases(2);
    expect(pooledCanvases()).toBe(2);
    const b = takeCanvas();
    // the largest bitmap made so far: 640 wide here, 500 tall in the test above
    expect([b.width, b.height]).toEqual([640, 500]);
  });
});
