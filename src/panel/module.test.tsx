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
});
