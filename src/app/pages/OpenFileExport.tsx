// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useState } from 'react';
import { Alert, Button } from '@grafana/ui';
import { describeExportError, saveBlob } from '../../datasource/export';
import { Shown, exportShown } from '../../shared/adhoc';

/**
 * "Download pprof" of what the page shows, as for a live query: the files merged under the query,
 * or the comparison as pprof builds it (`go tool pprof -top` of a -diff_base export prints the
 * differences against the baseline's total).
 */
export function OpenFileExport({ uid, shown }: { uid: string; shown: Shown }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const download = async () => {
    setBusy(true);
    setError(undefined);
    try {
      saveBlob(await exportShown(uid, shown), 'ids' in shown ? 'emberscope-files.pb.gz' : `emberscope-diff-${shown.mode.replace('_', '-')}.pb.gz`);
    } catch (e) {
      setError(await describeExportError(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button size="sm" variant="secondary" icon={busy ? 'spinner' : 'download-alt'} disabled={busy} onClick={download} data-testid="openfile-export">
        Download pprof
      </Button>
      {error && (
        <Alert title="Download pprof" severity="error" onRemove={() => setError(undefined)} data-testid="export-error">
          {error}
        </Alert>
      )}
    </>
  );
}
