// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Jest setup provided by Grafana scaffolding
import './.config/jest-setup';
import { setupJestCanvasMock } from 'jest-canvas-mock';

// The scaffold's setup stubs HTMLCanvasElement.getContext with a no-op; restore a working
// 2D context mock so canvas rendering code runs (and can be asserted on) in jsdom.
setupJestCanvasMock();

// jsdom's window has no structuredClone (every browser the plugin supports has it, and dagre, which
// places the call graph, uses it): Node's own serializer does the same structured clone.
if (typeof globalThis.structuredClone !== 'function') {
  const v8 = require('v8');
  globalThis.structuredClone = (value) => v8.deserialize(v8.serialize(value));
}

// findBy*/waitFor give up after 1 s by default: on a busy 2-core machine an idle-time build or a
// layout takes longer, and the test fails though nothing is wrong. Like the test timeout
// (jest.config.js), the limit only catches a hang; it stays under the test timeout so the failure
// names what was awaited.
const { configure } = require('@testing-library/react');
configure({ asyncUtilTimeout: 100000 });
