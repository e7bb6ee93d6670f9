// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useState } from 'react';
import { DataFrame } from '@grafana/data';
import { Alert, Button, Stack } from '@grafana/ui';
import { EmberscopeQuery } from '../types';
import { TimeRangeMs } from '../resources/client';
import {
  GO_PGO_FILE_NAME,
  PprofExporter,
  describeExportError,
  exportFileName,
  framesToJSON,
  isGoPgoProfileType,
  saveBlob,
} from '../export';

export interface ExportButtonsProps {
  query: EmberscopeQuery;
  range?: TimeRangeMs;
  /** The last response's frames of this query, for "Download JSON". */
  frames?: DataFrame[];
  exporter?: PprofExporter;
}

/**
 * "Download pprof" (the backend's export resource), "Download for Go PGO" (its pgo resource, for a
 * CPU profile type) and "Download JSON" (the frames shown).
 */
export function ExportButtons({ query, range, frames, exporter }: ExportButtonsProps) {
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const download = async (fetchBlob: () => Promise<Blob>, filename: string) => {
    setBusy(true);
    setError(undefined);
    try {
      saveBlob(await fetchBlob(), filename);
    } catch (e) {
      setError(await describeExportError(e));
    } finally {
      setBusy(false);
    }
  };
  const pprof = () =>
    exporter && range && download(() => exporter.exportPprof({ query, range }), exportFileName(query, range, 'pb.gz'));
  const goPgo = () =>
    exporter?.exportGoPgo && range && download(() => exporter.exportGoPgo!({ query, range }), GO_PGO_FILE_NAME);
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
        {exporter?.exportGoPgo && isGoPgoProfileType(query.profileTypeId) && (
          <Button
            size="sm"
            variant="secondary"
            icon={busy ? 'spinner' : 'download-alt'}
            disabled={busy || !range}
            onClick={goPgo}
            tooltip="The CPU profile cut for go build -pgo (default.pgo)"
          >
            Download for Go PGO
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
