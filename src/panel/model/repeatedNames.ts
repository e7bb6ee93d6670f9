// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/** Names looked at per chunk: about a millisecond of hashing. */
const CHUNK = 8192;

/**
 * Whether a list of names repeats one, found in chunks (the one step runner's Chunk): 10^5 names
 * hashed at once are a task of 10–30 ms, which would hold back the frame after the graph's first
 * paint, the one that shows the top table.
 */
export class RepeatedNames {
  /** Set once a chunk has found a name seen before. */
  found = false;
  private at = 0;
  private readonly seen = new Set<string>();

  constructor(private readonly names: string[]) {}

  /** Looks at one chunk of names; true once the answer is known. */
  chunk(): boolean {
    const to = Math.min(this.names.length, this.at + CHUNK);
    for (let i = this.at; i < to && !this.found; i++) {
      const before = this.seen.size;
      this.seen.add(this.names[i]);
      this.found = this.seen.size === before;
    }
    this.at = to;
    return this.found || this.at === this.names.length;
  }
}
