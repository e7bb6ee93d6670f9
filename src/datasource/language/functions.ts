// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import generated from './functions.json';

/** A function of the query language, for completion and highlighting. */
export interface LanguageFunction {
  name: string;
  signature: string;
  doc: string;
}

/**
 * The functions `pkg/datasource/query` registers, generated from its function table by
 * `go generate ./pkg/datasource/query` (a Go test fails when the two differ).
 */
export const FUNCTIONS: LanguageFunction[] = generated;

/** Words with a meaning of their own in the language. */
export const KEYWORDS = ['by', 'sep'];

/** Whether name is one of the language's functions. */
export function isFunction(name: string): boolean {
  return FUNCTIONS.some((f) => f.name === name);
}
