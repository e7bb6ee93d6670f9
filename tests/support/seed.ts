// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { execFileSync } from 'node:child_process';
import { Page, Response } from '@playwright/test';
import { REPO } from './playground';

/**
 * Runs one of the Go seeders in tests/support (`spanseed`, `noveltyseed`) against the store and
 * returns what it printed: the expected numbers, computed there with google/pprof.
 */
export function runSeed(name: string, args: string[]): string {
  return execFileSync('go', ['run', `./tests/support/${name}`, ...args], {
    cwd: REPO,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** A query as the page sent it to /api/ds/query. */
export type Sent = Record<string, unknown>;

/** The next answer of /api/ds/query to a request whose first query matches pick, and that query. */
export function nextQuery(page: Page, pick: (q: Sent) => boolean): Promise<{ query: Sent; response: Response }> {
  return new Promise((resolve) => {
    const onResponse = (r: Response) => {
      const req = r.request();
      if (new URL(r.url()).pathname !== '/api/ds/query' || req.method() !== 'POST') {
        return;
      }
      const q = (JSON.parse(req.postData() || '{}').queries?.[0] ?? {}) as Sent;
      if (pick(q)) {
        page.off('response', onResponse);
        resolve({ query: q, response: r });
      }
    };
    page.on('response', onResponse);
  });
}
