// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { forwardRef } from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { IconButton, useStyles2 } from '@grafana/ui';
import { ViewAction } from '../state';
import { CopyLinkButton } from './CopyLinkButton';
import { DiffLegend } from './DiffLegend';
import { Header } from './HeaderControls';
import { HeaderAction, HeaderChoices } from './headerOptions';
import { SampleFilterChoices } from './SampleFilterControls';
import { SampleFilterMenu } from './SampleFilterMenu';
import { SearchInput } from './SearchInput';

/** Space under the header's controls, in CSS px. */
const HEADER_PAD = 6;

/** The header's height when its controls fit in one row: @grafana/ui's control height and the padding under it. */
export const oneRowHeaderHeight = (theme: GrafanaTheme2) =>
  theme.spacing.gridSize * theme.components.height.md + HEADER_PAD;

const getStyles = (theme: GrafanaTheme2) => ({
  header: css({
    display: 'flex',
    flexWrap: 'wrap',
    gap: 6,
    alignItems: 'center',
    paddingBottom: HEADER_PAD,
    flex: 'none',
    minWidth: 0,
    boxSizing: 'border-box',
    minHeight: oneRowHeaderHeight(theme),
  }),
  // the search gives way first (to 150 px, its placeholder cut): the view, colour, align and
  // collapse controls stay on one row with it on a wide panel
  search: css({ flex: '1 1 150px', minWidth: 0, maxWidth: 420 }),
  result: css({ minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' }),
});

export interface FlameGraphHeaderProps extends HeaderChoices {
  search: string;
  /** The search the panel saved, to save a typed one only when it differs. */
  savedSearch: string;
  /** What the search or the highlight found, in words. */
  resultInfo: string;
  /** Offer the sandwich of the search's best match. */
  canSandwichSearch: boolean;
  onSandwichSearch: () => void;
  onHeaderAction: (a: HeaderAction) => void;
  /** The address of what is shown, for "Copy link" (none: no button). */
  onCopyLink?: () => string;
  act: (a: ViewAction) => void;
  /** The ignore, hide, relative and inverted choices; no controls without them. */
  sampleFilters?: SampleFilterChoices;
}

/**
 * The header: the search box (what it found, the sandwich of its best match and Clear sit inside
 * it, so typing moves nothing), the view, colour, alignment and collapse controls, and a diff's
 * colour legend.
 */
export const FlameGraphHeader = forwardRef<HTMLDivElement, FlameGraphHeaderProps>(
  function FlameGraphHeader(props, ref) {
    const { search, savedSearch, resultInfo, act } = props;
    const styles = useStyles2(getStyles);
    const suffix =
      resultInfo || search ? (
        <>
          <span data-testid="flamegraph-search-result" title={resultInfo} className={styles.result}>
            {resultInfo}
          </span>
          {props.canSandwichSearch && (
            <IconButton
              name="gf-show-context"
              size="sm"
              data-testid="search-sandwich"
              aria-label="Sandwich view of the best match"
              tooltip="Sandwich view of the matching function with the largest total"
              onClick={props.onSandwichSearch}
            />
          )}
          <IconButton
            name="times"
            size="sm"
            aria-label="Clear search"
            tooltip="Clear search"
            onClick={() => act({ type: 'clearSearch' })}
          />
        </>
      ) : undefined;
    return (
      <div ref={ref} data-testid="flamegraph-header" className={styles.header}>
        <div className={styles.search}>
          <SearchInput
            data-testid="flamegraph-search"
            aria-label="Search functions"
            placeholder="Search: regex, or terms separated by commas"
            value={search}
            onChange={(e) => act({ type: 'search', text: e.currentTarget.value })}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                act({ type: 'setOptions', changed: { search: e.currentTarget.value } });
              } else if (e.key === 'Escape') {
                act({ type: 'clearSearch' });
                act({ type: 'reset' });
              } else {
                return;
              }
              e.preventDefault();
              e.stopPropagation();
            }}
            onBlur={(e) => {
              if (savedSearch !== e.currentTarget.value) {
                act({ type: 'setOptions', changed: { search: e.currentTarget.value } });
              }
            }}
            suffix={suffix}
          />
        </div>
        <Header
          view={props.view}
          diff={props.diff}
          colorMode={props.colorMode}
          colorBlindDiff={props.colorBlindDiff}
          textAlign={props.textAlign}
          collapse={props.collapse}
          onAction={props.onHeaderAction}
        />
        {props.sampleFilters && (
          <SampleFilterMenu {...props.sampleFilters} onChange={(changed) => act({ type: 'setOptions', changed })} />
        )}
        {props.diff && <DiffLegend colorBlind={props.colorBlindDiff} />}
        {props.onCopyLink && <CopyLinkButton linkOf={props.onCopyLink} />}
      </div>
    );
  }
);
