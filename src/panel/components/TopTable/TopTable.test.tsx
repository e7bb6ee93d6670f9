// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { render, screen, within } from '@testing-library/react';
import { TopTable } from './TopTable';

const GO = 'github.com/emberscope/emberscope/pkg/demo.(*Service).handleCar';

describe('TopTable', () => {
  it('shortens long symbols from the left and keeps the full name in the title', () => {
    // 7 px per character, as in a browser's 12px monospace
    jest
      .spyOn(CanvasRenderingContext2D.prototype, 'measureText')
      .mockImplementation((t: string) => ({ width: 7 * t.length }) as TextMetrics);
    render(
      <TopTable
        rows={[
          { nameIdx: 1, name: GO, self: 10, total: 20 },
          { nameIdx: 2, name: 'runtime.mallocgc', self: 5, total: 5 },
        ]}
        rootTotal={20}
        width={360} // symbol column 190 px: 25 characters after padding
        height={200}
        sortKey="self"
        descending={true}
        onSort={() => undefined}
        highlighted={-1}
        onSelect={() => undefined}
      />
    );
    const rows = screen.getAllByTestId('top-table-row');
    expect(within(rows[0]).getAllByRole('cell')[0]).toHaveTextContent(/^demo\.\(\*Service\)\.handleCar$/);
    expect(rows[0]).toHaveAttribute('title', GO);
    expect(within(rows[1]).getAllByRole('cell')[0]).toHaveTextContent(/^runtime\.mallocgc$/);
    jest.restoreAllMocks();
  });
});
