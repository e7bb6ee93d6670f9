// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { readFlameData } from '../../shared/flameData';
import { nestedSet, Row } from '../testing/frames';
import { defaultOptions } from '../options';
import { CollapseBuild } from '../model/collapse';
import { FlameGraphContainer } from './FlameGraphContainer';

/**
 * total 100
 * ├─ main.run 60 → main.loop 60 (a chain: one bar "main.run (+1)")
 * │                └─ crypto/sha256.hash 50 (self 50), main.loop self 10
 * └─ runtime.gcBgMarkWorker 40 (self 40)
 */
const CHAIN: Row[] = [
  [0, 'total', 100, 0],
  [1, 'main.run', 60, 0],
  [2, 'main.loop', 60, 10],
  [3, 'crypto/sha256.hash', 50, 50],
  [1, 'runtime.gcBgMarkWorker', 40, 40],
];

// jsdom has no layout: place the canvas at the origin so mouse positions map to graph coordinates
beforeEach(() => {
  jest
    .spyOn(HTMLCanvasElement.prototype, 'getBoundingClientRect')
    .mockReturnValue({ left: 0, top: 0, right: 0, bottom: 0, width: 0, height: 0, x: 0, y: 0, toJSON: () => ({}) });
});
afterEach(() => jest.restoreAllMocks());

type MockContext = CanvasRenderingContext2D & { __getDrawCalls(): unknown[]; __clearDrawCalls(): void };
const drawCalls = () => {
  const ctx = (screen.getByTestId('flamegraph-canvas') as HTMLCanvasElement).getContext('2d') as MockContext;
  const calls = ctx.__getDrawCalls();
  ctx.__clearDrawCalls();
  return calls;
};

describe('the first draw', () => {
  it('reads no collapse or index, and draws what the index draws once it is made', async () => {
    const collapse = jest.spyOn(CollapseBuild.prototype, 'chunk');
    const data = readFlameData(nestedSet(CHAIN));
    render(
      <FlameGraphContainer data={data} width={1000} height={400} options={{ ...defaultOptions, showTable: false }} />
    );
    // drawn from the frame's columns: no collapse made in the render, its commit and effects
    expect(collapse).not.toHaveBeenCalled();
    const first = drawCalls();
    expect(first.length).toBeGreaterThan(0);
    // made in idle time after the paint
    await waitFor(() => expect(collapse).toHaveBeenCalled());
    // the same picture drawn from the index: zoom into the chain's bar (level 1) and back
    const overlay = screen.getByTestId('flamegraph-canvas').nextElementSibling as HTMLElement;
    fireEvent.click(overlay, { clientX: 100, clientY: 25 });
    expect(screen.getByTestId('flamegraph-breadcrumbs')).toHaveTextContent('main.run');
    drawCalls();
    fireEvent.keyDown(screen.getByTestId('flamegraph-view'), { key: 'Escape' });
    expect(drawCalls()).toEqual(first);
  });

  it('an input before the idle time makes what it needs at once', () => {
    const data = readFlameData(nestedSet(CHAIN));
    render(
      <FlameGraphContainer data={data} width={1000} height={400} options={{ ...defaultOptions, showTable: false }} />
    );
    const overlay = screen.getByTestId('flamegraph-canvas').nextElementSibling as HTMLElement;
    // the chain's bar holds two frames: its tooltip says so
    fireEvent.mouseMove(overlay, { clientX: 100, clientY: 25 });
    expect(screen.getByTestId('flamegraph-tooltip')).toHaveTextContent('2 frames: main.run → main.loop');
    // the hash under it is one level down, not two
    fireEvent.mouseMove(overlay, { clientX: 100, clientY: 45 });
    expect(screen.getByTestId('tooltip-name')).toHaveTextContent('crypto/sha256.hash');
  });
});
