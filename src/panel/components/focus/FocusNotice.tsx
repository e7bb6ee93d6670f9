// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { Icon, useStyles2 } from '@grafana/ui';
import type { ViewState } from '../state';

/** What the zoom path's row says about the call site zoomed: being fetched, fetched and by whom, or why not. */
export interface FocusNoticeText {
  kind: 'fetching' | 'fetched' | 'failed';
  text: string;
}

export function focusNotice(s: Pick<ViewState, 'fetched' | 'fetching' | 'focusError'>): FocusNoticeText | undefined {
  if (s.fetching) {
    return { kind: 'fetching', text: 'Fetching this call site at full resolution…' };
  }
  if (s.focusError) {
    return { kind: 'failed', text: `Shown as cut: the call site could not be fetched (${s.focusError})` };
  }
  if (s.fetched) {
    const by =
      s.fetched.selectedBy === 'server'
        ? 'the profile server selected its samples'
        : "the datasource filtered the range's profile to it";
    const still = s.fetched.cut ? '; still cut at maxNodes below it' : '';
    return { kind: 'fetched', text: `Fetched at full resolution: ${by}${still}` };
  }
  return undefined;
}

/** What the sandwich's bar says about its merge: being fetched at full resolution, fetched, or why not. */
export function sandwichNotice(
  s: Pick<ViewState, 'sandwichFetched' | 'sandwichFetching' | 'sandwichError'>
): FocusNoticeText | undefined {
  if (s.sandwichFetching) {
    return { kind: 'fetching', text: "Merging this function's callers and callees at full resolution…" };
  }
  if (s.sandwichError) {
    return {
      kind: 'failed',
      text: `Merged from the cut graph: the full-resolution sandwich could not be fetched (${s.sandwichError})`,
    };
  }
  if (s.sandwichFetched) {
    const still = s.sandwichFetched.cut ? '; cut at maxNodes after the merge' : '';
    return { kind: 'fetched', text: `Fetched at full resolution: merged from every sample of the range${still}` };
  }
  return undefined;
}

const getStyles = (theme: GrafanaTheme2) => ({
  notice: css({
    display: 'flex',
    alignItems: 'center',
    gap: 4,
    flex: 'none',
    maxWidth: '50%',
    overflow: 'hidden',
    whiteSpace: 'nowrap',
    textOverflow: 'ellipsis',
    fontSize: theme.typography.bodySmall.fontSize,
    color: theme.colors.text.secondary,
    marginLeft: theme.spacing(1),
  }),
  failed: css({ color: theme.colors.warning.text }),
});

/** The notice, beside the zoom path. */
export function FocusNotice({ notice }: { notice: FocusNoticeText }) {
  const styles = useStyles2(getStyles);
  const icon =
    notice.kind === 'fetching' ? 'fa fa-spinner' : notice.kind === 'failed' ? 'exclamation-triangle' : 'check';
  return (
    <span
      role="status"
      data-testid="focus-notice"
      data-kind={notice.kind}
      title={notice.text}
      className={notice.kind === 'failed' ? `${styles.notice} ${styles.failed}` : styles.notice}
    >
      <Icon name={icon} size="sm" />
      {notice.text}
    </span>
  );
}
