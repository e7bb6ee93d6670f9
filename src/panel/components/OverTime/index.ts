// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

export { OverTimeOff, OverTimeProvider, useOverTimeOpener } from './OverTimeContext';
export type { OverTimeOpener } from './OverTimeContext';
export { overTimeSource } from './overTimeQuery';
export type { OverTimeSeries, OverTimeSource } from './overTimeQuery';
