// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { plugin } from './module';
import { defaultOptions } from './options';

describe('flamegraph panel plugin', () => {
  it('registers every panel option with its default', () => {
    const editors = plugin.getPanelOptionsSupplier();
    expect(editors).toBeDefined();
    const registered: Record<string, unknown> = {};
    const builder = {
      addRadio: (o: { path: string; defaultValue: unknown }) => ((registered[o.path] = o.defaultValue), builder),
      addSelect: (o: { path: string; defaultValue: unknown }) => ((registered[o.path] = o.defaultValue), builder),
      addBooleanSwitch: (o: { path: string; defaultValue: unknown }) => (
        (registered[o.path] = o.defaultValue),
        builder
      ),
      addTextInput: (o: { path: string; defaultValue: unknown }) => ((registered[o.path] = o.defaultValue), builder),
      addNumberInput: (o: { path: string; defaultValue: unknown }) => ((registered[o.path] = o.defaultValue), builder),
    };
    editors(builder as never, { data: [] } as never);
    expect(registered).toEqual(defaultOptions);
  });

  it('offers the colour modes in a select: four radio buttons ("Package only") did not fit the options pane', () => {
    const editors = plugin.getPanelOptionsSupplier();
    const kinds: Record<string, string> = {};
    const add = (kind: string) => (o: { path: string; settings?: { options?: unknown[] } }) => {
      kinds[o.path] = `${kind}:${o.settings?.options?.length ?? 0}`;
      return builder;
    };
    const builder = {
      addRadio: add('radio'),
      addSelect: add('select'),
      addBooleanSwitch: add('switch'),
      addNumberInput: add('number'),
      addTextInput: add('text'),
    };
    editors(builder as never, { data: [] } as never);
    expect(kinds.colorMode).toBe('select:4');
    expect(kinds.viewMode).toBe('select:5');
    // the radios left have two short options
    expect(
      Object.values(kinds)
        .filter((k) => k.startsWith('radio'))
        .every((k) => k === 'radio:2')
    ).toBe(true);
  });
});
