// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useState } from 'react';
import { DataFrame } from '@grafana/data';
import { Alert, Button, Stack } from '@grafana/ui';
import { EmberscopeQuery } from '../types';
import { TimeRangeMs } from '../resources/client';
import { PprofExporter, describeExportError, exportFileName, framesToJSON, saveBlob } from '../export';

export interface ExportButtonsProps {
  query: EmberscopeQuery;
  range?: TimeRangeMs;
  /** The last response's frames of this query, for "Download JSON". */
  frames?: DataFrame[];
  exporter?: PprofExporter;
}

/** "Download pprof" (the backend's export resource) and "Download JSON" (the frames shown). */
export function ExportButtons({ query, range, frames, exporter }: ExportButtonsProps) {
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const pprof = async () => {
    if (!exporter || !range) {
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const blob = await exporter.exportPprof({ query, range });
      saveBlob(blob, exportFileName(query, range, 'pb.gz'));
    } catch (e) {
      setError(await describeExportError(e));
    } finally {
      setBusy(false);
    }
  };
  const json = () => {
    const r = range ?? { from: 0, to: 0 };
    saveBlob(new Blob([framesToJSON(frames ?? [])], { type: 'application/json' }), exportFileName(query, r, 'json'));
  };
  return (
    <Stack direction="column" gap={1}>
      <Stack gap={1}>
        {exporter && (
          <Button
            size="sm"
            variant="secondary"
            icon={busy ? 'spinner' : 'download-alt'}
            disabled={busy || !range || !(query.profileTypeId || query.expr)}
            onClick={pprof}
          >
            Download pprof
          </Button>
        )}
        <Button size="sm" variant="secondary" icon="download-alt" disabled={!frames?.length} onClick={json}>
          Download JSON
        </Button>
      </Stack>
      {error && (
        <Alert title="Download pprof" severity="error" onRemove={() => setError(undefined)} data-testid="export-error">
          {error}
        </Alert>
      )}
    </Stack>
  );
}
