// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

export { SourceProvider, useSourceOpener } from './SourceContext';
export type { SourceOpener } from './SourceContext';
export { SourceColumnHeader, SourceRowAction, SourceRowCell } from './SourceRowAction';
export { SandwichSourceMenu, SourceFrameMenu } from './SandwichSource';
export { SOURCE_ACTION_W } from './styles';
export { sourceTargetOf } from './sourceApi';
export type { SourceTarget } from './sourceApi';
