// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/** localStorage key of the profile type last chosen in the editor. */
export const LAST_PROFILE_TYPE_KEY = 'emberscope.lastProfileTypeId';

/** The profile type last chosen, or undefined (also when storage is unavailable). */
export function loadLastProfileType(): string | undefined {
  try {
    return window.localStorage.getItem(LAST_PROFILE_TYPE_KEY) || undefined;
  } catch {
    return undefined;
  }
}

/** Remembers the profile type chosen; storage errors (private mode, quota) are ignored. */
export function saveLastProfileType(id: string) {
  try {
    window.localStorage.setItem(LAST_PROFILE_TYPE_KEY, id);
  } catch {
    // remembering is a convenience: nothing to tell the user
  }
}
