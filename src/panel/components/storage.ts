// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/** Key under which the top-table drawer width is remembered. */
export const TABLE_WIDTH_KEY = 'emberscope.flamegraph.tableWidth';

/** Reads a remembered number from localStorage (undefined when absent, invalid or storage is unavailable). */
export function loadNumber(key: string): number | undefined {
  try {
    const v = window.localStorage.getItem(key);
    const n = v === null ? NaN : Number(v);
    return Number.isFinite(n) ? n : undefined;
  } catch {
    return undefined;
  }
}

/** Remembers a number in localStorage; silently does nothing where storage is unavailable. */
export function saveNumber(key: string, value: number): void {
  try {
    window.localStorage.setItem(key, String(Math.round(value)));
  } catch {
    // private mode or storage disabled: the size is just not remembered
  }
}
