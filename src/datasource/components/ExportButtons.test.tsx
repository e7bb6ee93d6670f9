// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ExportButtons } from './ExportButtons';
import { PprofExporter } from '../export';

const range = { from: 1796649861000, to: 1796653461000 };
const cpu = {
  refId: 'A',
  profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds',
  labelSelector: '{service_name="api"}',
};

function exporter(): jest.Mocked<Required<PprofExporter>> {
  return {
    exportPprof: jest.fn().mockResolvedValue(new Blob(['pprof'])),
    exportGoPgo: jest.fn().mockResolvedValue(new Blob(['pgo'])),
  };
}

describe('ExportButtons: Download for Go PGO', () => {
  beforeEach(() => {
    URL.createObjectURL = jest.fn(() => 'blob:x');
    URL.revokeObjectURL = jest.fn();
  });

  it('asks the pgo export for a CPU query and saves it as default.pgo', async () => {
    const ex = exporter();
    const saved: string[] = [];
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    render(<ExportButtons query={cpu} range={range} exporter={ex} />);
    await userEvent.click(screen.getByRole('button', { name: /Download for Go PGO/ }));
    await waitFor(() => expect(saved).toEqual(['default.pgo']));
    expect(ex.exportGoPgo).toHaveBeenCalledWith({ query: cpu, range });
    expect(ex.exportPprof).not.toHaveBeenCalled();
  });

  it('is not offered for a profile type the Go compiler cannot read', () => {
    render(
      <ExportButtons
        query={{ ...cpu, profileTypeId: 'memory:inuse_space:bytes:space:bytes' }}
        range={range}
        exporter={exporter()}
      />
    );
    expect(screen.getByRole('button', { name: /Download pprof/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Download for Go PGO/ })).not.toBeInTheDocument();
  });

  it('shows the backend refusal', async () => {
    const ex = exporter();
    ex.exportGoPgo.mockRejectedValue({ status: 400, data: { error: 'keepLocations: "x" is not a whole number' } });
    render(<ExportButtons query={cpu} range={range} exporter={ex} />);
    await userEvent.click(screen.getByRole('button', { name: /Download for Go PGO/ }));
    expect(await screen.findByTestId('export-error')).toHaveTextContent('keepLocations');
  });
});
