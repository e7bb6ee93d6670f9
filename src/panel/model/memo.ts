// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * The models' one cache: a value made once per object (a frame, an index, a names list) and
 * dropped with it. `peek` reads it without making it; `forget` drops it.
 */
export interface Memo<K extends object, V> {
  (key: K): V;
  peek(key: K): V | undefined;
  forget(key: K): void;
}

export function memoOf<K extends object, V>(make: (key: K) => V): Memo<K, V> {
  const made = new WeakMap<K, V>();
  const memo = (key: K): V => {
    if (made.has(key)) {
      return made.get(key)!;
    }
    const v = make(key);
    made.set(key, v);
    return v;
  };
  memo.peek = (key: K) => made.get(key);
  memo.forget = (key: K) => void made.delete(key);
  return memo;
}

/** Puts key last in the map (most recently used), dropping the oldest entries past `keep`. */
export function keepLast<T>(m: Map<string, T>, key: string, v: T, keep: number): void {
  m.delete(key);
  m.set(key, v);
  while (m.size > keep) {
    const oldest = m.keys().next().value;
    if (oldest === undefined) {
      break;
    }
    m.delete(oldest);
  }
}
