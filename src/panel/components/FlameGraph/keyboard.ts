// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameIndex, lowerBoundRow } from '../../model/flameIndex';

/**
 * The node an arrow key moves the selection to, in the drawn graph zoomed at `focus`: up to the
 * parent (not above the zoom), down to the largest child, left and right along the level within
 * the zoomed bar. Undefined for any other key.
 */
export function arrowTarget(shown: FlameIndex, focus: number, selected: number, key: string): number | undefined {
  const { level, value } = shown.data;
  const cur = selected >= 0 ? selected : focus;
  const sameLevel = (dir: 1 | -1) => {
    const l = level[cur];
    const from = lowerBoundRow(shown, l, Math.max(focus, 0));
    const to = lowerBoundRow(shown, l, shown.end[focus]);
    const at = lowerBoundRow(shown, l, cur) + dir;
    return at >= from && at < to && level[focus] <= l ? shown.levelNodes[at] : cur;
  };
  switch (key) {
    case 'ArrowUp':
      return cur > focus && shown.parent[cur] >= 0 ? shown.parent[cur] : cur;
    case 'ArrowDown': {
      let best = -1;
      for (let c = cur + 1; c < shown.end[cur]; c = shown.end[c]) {
        if (best < 0 || value[c] > value[best]) {
          best = c;
        }
      }
      return best >= 0 ? best : cur;
    }
    case 'ArrowLeft':
      return sameLevel(-1);
    case 'ArrowRight':
      return sameLevel(1);
    default:
      return undefined;
  }
}
