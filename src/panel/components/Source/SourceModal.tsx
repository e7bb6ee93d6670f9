// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useEffect, useState } from 'react';
import { Alert, LoadingPlaceholder, Modal, useStyles2 } from '@grafana/ui';
import { loadSource, SourceAnswer, SourceTarget } from './sourceApi';
import { SourceFileView } from './SourceFileView';
import { getStyles } from './styles';

type Loaded = { fn: string; answer?: SourceAnswer; error?: string };

/** The source view of one function: its file(s) with each line's self and total. */
export function SourceModal({ target, fn, onClose }: { target: SourceTarget; fn: string; onClose: () => void }) {
  const styles = useStyles2(getStyles);
  const [loaded, setLoaded] = useState<Loaded>();
  useEffect(() => {
    let live = true;
    loadSource(target, fn).then(
      (answer) => live && setLoaded({ fn, answer }),
      (e: Error) => live && setLoaded({ fn, error: e.message })
    );
    return () => {
      live = false;
    };
  }, [target, fn]);
  const current = loaded?.fn === fn ? loaded : undefined;
  return (
    <Modal
      title={`${target.comparison ? 'Source diff' : 'Source'} of ${fn}`}
      isOpen
      onDismiss={onClose}
      className={styles.modal}
    >
      <div data-testid="source-view">
        {!current && <LoadingPlaceholder text="Reading the source…" />}
        {current?.error && (
          <Alert severity="error" title="No source">
            {current.error}
          </Alert>
        )}
        {current?.answer?.truncated && (
          <Alert severity="warning" title="The server cut the profile">
            Some stacks were merged into “other”: the numbers may be short of the whole.
          </Alert>
        )}
        {current?.answer?.warnings?.map((w) => (
          <Alert key={w} severity="warning" title="Labels">
            {w}
          </Alert>
        ))}
        {current?.answer?.files.map((f) => (
          <SourceFileView
            key={f.path}
            file={f}
            unit={current.answer!.unit}
            total={current.answer!.total}
            diff={!!current.answer!.diff}
          />
        ))}
      </div>
    </Modal>
  );
}
