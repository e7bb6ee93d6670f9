// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { Button, InlineField, Stack } from '@grafana/ui';
import { DataSourcePicker } from '@grafana/runtime';

export interface TracingDatasourceFieldProps {
  /** The chosen tracing datasource's uid; undefined for none. */
  uid?: string;
  onChange: (uid: string | undefined) => void;
}

/**
 * The tracing datasource (Tempo, Jaeger, Zipkin: Grafana's tracing datasources) that the trace
 * ids of span exemplars link to. Stored as jsonData.tracingDatasourceUid.
 */
export function TracingDatasourceField({ uid, onChange }: TracingDatasourceFieldProps) {
  return (
    <InlineField
      label="Tracing datasource"
      labelWidth={24}
      tooltip="Span exemplars link their trace id to this datasource; leave empty for no trace links"
    >
      <Stack direction="row" gap={1}>
        <div data-testid="tracing-datasource">
          <DataSourcePicker
            tracing
            noDefault
            width={30}
            current={uid}
            placeholder="No tracing datasource"
            onChange={(ds) => onChange(ds.uid)}
          />
        </div>
        {uid && (
          <Button
            variant="secondary"
            fill="text"
            aria-label="Clear tracing datasource"
            onClick={() => onChange(undefined)}
          >
            Clear
          </Button>
        )}
      </Stack>
    </InlineField>
  );
}
