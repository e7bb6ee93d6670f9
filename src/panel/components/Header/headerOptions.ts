// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { ColorMode, HeaderView, TextAlign } from '../../types';

/** What the header's view, colour, alignment and collapse controls ask the view to do. */
export type HeaderAction =
  | { kind: 'view'; view: HeaderView }
  | { kind: 'collapse'; on: boolean }
  | { kind: 'options'; changed: { colorMode?: ColorMode; colorBlindDiff?: boolean; textAlign?: TextAlign } };

/** The header's current choices, as its controls show them. */
export interface HeaderChoices {
  view: HeaderView;
  diff: boolean;
  colorMode: ColorMode;
  colorBlindDiff: boolean;
  textAlign: TextAlign;
  collapse: boolean;
}

export interface HeaderControlsProps extends HeaderChoices {
  onAction: (a: HeaderAction) => void;
}

export const VIEW_OPTIONS: Array<{ value: HeaderView; label: string }> = [
  { value: 'graph', label: 'Flame graph' },
  { value: 'table', label: 'Top table' },
  { value: 'both', label: 'Both' },
  { value: 'tree', label: 'Call tree' },
  { value: 'callgraph', label: 'Call graph' },
  { value: 'sandwich', label: 'Sandwich' },
];

export const COLOR_OPTIONS: Array<{ value: ColorMode; label: string }> = [
  { value: 'self', label: 'By self' },
  { value: 'selfNode', label: 'By self per node' },
  { value: 'total', label: 'By total' },
  { value: 'package', label: 'By package' },
];

export const DIFF_PALETTE_OPTIONS: Array<{ value: boolean; label: string }> = [
  { value: false, label: 'Red / green' },
  { value: true, label: 'Colour-blind' },
];

/**
 * Text alignment choices. The hover text is the native `title` that `ariaLabel` gives the label
 * (a `description` would wrap each option in a Tooltip component for the same words).
 */
export const TEXT_ALIGN_OPTIONS = [
  { value: 'left' as const, label: 'Left', icon: 'align-left' as const, ariaLabel: 'Align text left' },
  { value: 'right' as const, label: 'Right', icon: 'align-right' as const, ariaLabel: 'Align text right' },
];

/** The words of the header's collapse switch and buttons. */
export const HEADER_WORDS = { collapse: 'Collapse', expandAll: 'Expand all', collapseAll: 'Collapse all' } as const;

/** The colour scheme combobox's width. */
export const COLOUR_SCHEME_WIDTH = 160;
