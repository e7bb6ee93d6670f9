// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { Button, Toggletip } from '@grafana/ui';
import { SampleFilterControls, SampleFilterControlsProps } from './SampleFilterControls';

/**
 * The header's filter button: ignore, hide, relative and inverted in a toggletip, so the header
 * keeps one row as Grafana's does. The button shows how many filters are on and turns red when a
 * regex is wrong, so a reshaped graph never looks like the whole profile.
 */
export function SampleFilterMenu(props: SampleFilterControlsProps) {
  const on = [props.ignore !== '', props.hide !== '', props.relative, props.inverted].filter(Boolean).length;
  return (
    <Toggletip content={<SampleFilterControls {...props} />} placement="bottom-end" closeButton={false}>
      <Button
        size="sm"
        icon="filter"
        variant={props.error ? 'destructive' : on > 0 ? 'primary' : 'secondary'}
        fill="outline"
        data-testid="sample-filter-menu"
        aria-label="Filters: ignore, hide, relative, inverted"
        tooltip={props.error ?? "Ignore or hide frames (pprof's -ignore and -hide), relative percentages, inverted"}
      >
        {on > 0 ? String(on) : undefined}
      </Button>
    </Toggletip>
  );
}
