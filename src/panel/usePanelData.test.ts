// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { renderHook, waitFor } from '@testing-library/react';
import { FlameData } from '../shared/flameData';
import { usePanelData } from './FlamegraphPanel';
import { nestedSet } from './testing/frames';

const dataOf = (p: ReturnType<typeof usePanelData>): FlameData => {
  if (!('data' in p)) {
    throw new Error('no data');
  }
  return p.data;
};

describe('usePanelData', () => {
  it('reads the names again, interned, once it finds that the enum repeats one', async () => {
    const frame = nestedSet([
      [0, 'total', 10, 0],
      [1, 'main.a', 6, 6],
      [1, 'main.b', 4, 4],
    ]);
    // the enum lists main.a twice: rows 1 and 2 name the same function
    const label = frame.fields[3];
    label.config = { type: { enum: { text: ['total', 'main.a', 'main.a'] } } };
    const series = [frame];
    const { result } = renderHook(() => usePanelData(series));
    expect(dataOf(result.current).names).toEqual(['total', 'main.a', 'main.a']);
    await waitFor(() => expect(dataOf(result.current).names).toEqual(['total', 'main.a']));
    expect(Array.from(dataOf(result.current).nameIdx)).toEqual([0, 1, 1]);
  });
});
