// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

export { SourceProvider, useSourceOpener } from './SourceContext';
export type { SourceOpener } from './SourceContext';
export { SourceRowAction } from './SourceRowAction';
export { sourceTargetOf } from './sourceApi';
export type { SourceTarget } from './sourceApi';
