// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * The model worker's script (built on its own as model-worker.js, see the webpack configs): the
 * sandwich merge and the call graph's placing, off the page's main thread. `served` counts the
 * answers by kind, for the browser test that checks the work is done here.
 */
import { modelServer } from './serve';
import { Request } from './protocol';

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<Request>) => void) | null;
  postMessage(msg: unknown, transfer: Transferable[]): void;
  served: Record<string, number>;
};
const serve = modelServer();
scope.served = {};
scope.onmessage = (e) => {
  const { reply, transfer } = serve(e.data);
  scope.served[e.data.kind] = (scope.served[e.data.kind] ?? 0) + 1;
  scope.postMessage(reply, transfer);
};
