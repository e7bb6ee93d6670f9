// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// The panel's options and the literals its parts share. This file imports nothing, so any part
// of the panel (the model included) can use it without making an import cycle.

/** How bars are coloured. */
export type ColorMode = 'self' | 'selfNode' | 'total' | 'package';

/** Where a bar's text sits when it does not fit. */
export type TextAlign = 'left' | 'right';

/** What the panel shows (sandwich is entered from a function and left back to the view it came from). */
export type ViewMode = 'graph' | 'table' | 'both' | 'tree' | 'callgraph';

/** What the header's view switch shows: a view, or the sandwich of one function. */
export type HeaderView = ViewMode | 'sandwich';

/** Options of the flamegraph panel, as saved in the dashboard JSON. */
export interface PanelOptions {
  colorMode: ColorMode;
  textAlign: TextAlign;
  /** With viewMode 'both': false shows the graph alone (the option older panels saved). */
  showTable: boolean;
  minBarWidth: number;
  colorBlindDiff: boolean;
  viewMode: ViewMode;
  /** Collapse chains of frames that add nothing (a node whose only child carries its total). */
  collapse: boolean;
  /** Search text: a regular expression, plain text, or several terms separated by commas. */
  search: string;
  /** How many functions the call graph keeps at most (pprof's -nodecount, 1 to MAX_CALL_GRAPH_NODES). */
  callGraphNodes: number;
  /** Drop the samples through frames matching this regex (pprof's -ignore); '' for none. */
  ignore: string;
  /** Remove the frames matching this regex, their values kept under their callers (pprof's -hide); '' for none. */
  hide: string;
  /** Percentages of what is shown after ignore and hide (pprof's -relative_percentages), not of the whole. */
  relative: boolean;
  /** Draw the flame graph inverted: leaf functions at the root with their self, callers above. */
  inverted: boolean;
}

/** The options the flame graph reads: the panel's, where a host may leave the newer ones out. */
export type ViewOptions = Pick<
  PanelOptions,
  'colorMode' | 'textAlign' | 'showTable' | 'minBarWidth' | 'colorBlindDiff'
> &
  Partial<
    Pick<
      PanelOptions,
      'viewMode' | 'collapse' | 'search' | 'callGraphNodes' | 'ignore' | 'hide' | 'relative' | 'inverted'
    >
  >;
