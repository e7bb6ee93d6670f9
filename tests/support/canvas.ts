// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { expect, Page } from '@playwright/test';

export type Box = { x: number; y: number; width: number; height: number };

/** Where the page draws the widest node called name, in page coordinates. */
export async function nodeBox(page: Page, name: string): Promise<Box> {
  const canvas = page.getByTestId('flamegraph-canvas');
  const cb = (await canvas.boundingBox())!;
  const r = await canvas.evaluate(
    (el, n) =>
      (el as HTMLCanvasElement & { emberscope: { rectOf: (n: string) => Box | undefined } }).emberscope.rectOf(n),
    name
  );
  expect(r, `node ${name} is drawn`).toBeTruthy();
  return { x: cb.x + r!.x, y: cb.y + r!.y, width: r!.width, height: r!.height };
}
