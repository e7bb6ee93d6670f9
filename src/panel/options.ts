// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { PanelOptionsEditorBuilder } from '@grafana/data';

/** How bars are coloured. */
export type ColorMode = 'self' | 'selfNode' | 'total' | 'package';
/** Where a bar's text sits when it does not fit. */
export type TextAlign = 'left' | 'right';

/** Options of the flamegraph panel, as saved in the dashboard JSON. */
export interface PanelOptions {
  colorMode: ColorMode;
  textAlign: TextAlign;
  showTable: boolean;
  minBarWidth: number;
  colorBlindDiff: boolean;
}

/** Defaults used when an option is missing from the saved panel. */
export const defaultOptions: PanelOptions = {
  colorMode: 'self',
  textAlign: 'left',
  showTable: true,
  minBarWidth: 1,
  colorBlindDiff: false,
};

/** Registers the panel's options in Grafana's editor. */
export function addPanelOptions(builder: PanelOptionsEditorBuilder<PanelOptions>) {
  return builder
    // a select, not radio buttons: four buttons do not fit the options pane's width
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
    });
}
