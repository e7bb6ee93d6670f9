// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { PanelOptionsEditorBuilder } from '@grafana/data';
import { PanelOptions, ViewMode } from './types';

// the app and the playground take the options' type from here, with the defaults
export type { PanelOptions } from './types';

/**
 * The most functions a call graph shows: placing a picture takes dagre time that grows faster than
 * its boxes (80, pprof's default, about 70 ms), and past a few hundred boxes nobody reads it.
 */
export const MAX_CALL_GRAPH_NODES = 300;

/** Defaults used when an option is missing from the saved panel. */
export const defaultOptions: PanelOptions = {
  colorMode: 'self',
  textAlign: 'left',
  showTable: true,
  minBarWidth: 1,
  colorBlindDiff: false,
  viewMode: 'both',
  collapse: true,
  search: '',
  callGraphNodes: 80,
  ignore: '',
  hide: '',
  relative: false,
  inverted: false,
};

/** The view the options ask for: 'both' without the table is the graph alone. */
export function effectiveView(o: Pick<PanelOptions, 'viewMode' | 'showTable'>): ViewMode {
  const v = o.viewMode ?? 'both';
  return v === 'both' && o.showTable === false ? 'graph' : v;
}

/** Registers the panel's options in Grafana's editor. */
export function addPanelOptions(builder: PanelOptionsEditorBuilder<PanelOptions>) {
  return (
    builder
      // selects, not radio buttons: four or more buttons do not fit the options pane's width
      .addSelect({
        path: 'viewMode',
        name: 'View',
        description: 'Also in the panel header',
        defaultValue: defaultOptions.viewMode,
        settings: {
          options: [
            { value: 'graph', label: 'Flame graph' },
            { value: 'table', label: 'Top table' },
            { value: 'both', label: 'Both' },
            { value: 'tree', label: 'Call tree' },
            { value: 'callgraph', label: 'Call graph' },
          ],
        },
      })
      .addBooleanSwitch({
        path: 'inverted',
        name: 'Inverted flame graph',
        description: "Leaf functions at the root, each with its self (pprof's flat), their callers above",
        defaultValue: defaultOptions.inverted,
      })
      .addTextInput({
        path: 'ignore',
        name: 'Ignore',
        description:
          'Regular expression: drop the samples through matching frames (pprof\'s -ignore; the query\'s ignore(q, "re"))',
        defaultValue: defaultOptions.ignore,
      })
      .addTextInput({
        path: 'hide',
        name: 'Hide',
        description:
          'Regular expression: remove matching frames, keeping their values under their callers (pprof\'s -hide; the query\'s hide(q, "re"))',
        defaultValue: defaultOptions.hide,
      })
      .addBooleanSwitch({
        path: 'relative',
        name: 'Relative percentages',
        description:
          "Percentages of what is shown after ignore and hide, not of the whole profile (pprof's -relative_percentages)",
        defaultValue: defaultOptions.relative,
      })
      .addNumberInput({
        path: 'callGraphNodes',
        name: 'Call graph nodes',
        description: "At most this many functions in the call graph (1–300), chosen as pprof's graph chooses them",
        defaultValue: defaultOptions.callGraphNodes,
        settings: { min: 1, max: MAX_CALL_GRAPH_NODES, integer: true },
      })
      .addBooleanSwitch({
        path: 'collapse',
        name: 'Collapse chains',
        description: 'Merge a frame with its only child when the child carries the same total (recursion, wrappers)',
        defaultValue: defaultOptions.collapse,
      })
      .addTextInput({
        path: 'search',
        name: 'Search',
        description: 'Regular expression, text, or comma-separated terms',
        defaultValue: defaultOptions.search,
      })
      .addSelect({
        path: 'colorMode',
        name: 'Colour by',
        description:
          "Self: a function's self over the whole graph, as pprof colours (every node of a hot function stands out); self per node: each node's own self",
        defaultValue: defaultOptions.colorMode,
        settings: {
          options: [
            { value: 'self', label: 'Self' },
            { value: 'selfNode', label: 'Self per node' },
            { value: 'total', label: 'Total' },
            { value: 'package', label: 'Package only' },
          ],
        },
      })
      .addRadio({
        path: 'textAlign',
        name: 'Text alignment',
        defaultValue: defaultOptions.textAlign,
        settings: {
          options: [
            { value: 'left', label: 'Left' },
            { value: 'right', label: 'Right' },
          ],
        },
      })
      .addBooleanSwitch({ path: 'showTable', name: 'Show top table', defaultValue: defaultOptions.showTable })
      .addNumberInput({
        path: 'minBarWidth',
        name: 'Minimum bar width (px)',
        description: 'Bars narrower than this are not drawn',
        defaultValue: defaultOptions.minBarWidth,
        settings: { min: 0, max: 20 },
      })
      .addBooleanSwitch({
        path: 'colorBlindDiff',
        name: 'Colour-blind safe diff palette',
        description: 'Blue/orange instead of green/red for diff flamegraphs',
        defaultValue: defaultOptions.colorBlindDiff,
      })
  );
}
