// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { readFlameData } from '../../shared/flameData';
import { nestedSet, SMALL } from '../testing/frames';
import { buildIndex } from './flameIndex';
import { compileSearch, matchNames, searchNodes } from './search';

const index = buildIndex(readFlameData(nestedSet(SMALL)));
const run = (q: string) => searchNodes(index, matchNames(index.data, compileSearch(q)!));

describe('search', () => {
  it('uses a regex when the text is one, a substring otherwise', () => {
    expect(compileSearch('^main\\.')!.kind).toBe('regex');
    expect(compileSearch('main.(')!.kind).toBe('substring');
    expect(compileSearch('  ')).toBeUndefined();
    expect(run('^main\\.').count).toBe(2);
    // invalid regex: matched as text, case-insensitively
    expect(run('MAIN.(').count).toBe(0);
    expect(run('JSON').count).toBe(1);
  });

  it('finds plain text in every name at once, as the per-name test does', () => {
    for (const q of ['main', 'MAIN', 'o', 'sha256', 'json.parse', 'gcbg', 'work', 'nothing-like-it']) {
      const m = compileSearch(q)!;
      const slow = index.data.names.map((n) => (m.test(n) ? 1 : 0));
      expect([q, Array.from(matchNames(index.data, m))]).toEqual([q, slow]);
    }
    expect(compileSearch('main')!.literal).toBe('main');
    expect(compileSearch('main.work')!.literal).toBeUndefined();
  });

  it('counts matches and their share, a match inside a match once', () => {
    const r = run('main');
    expect(r.count).toBe(2); // main.main and main.work
    expect(r.total).toBe(70); // main.work is inside main.main
    expect(r.share).toBeCloseTo(0.7);
    expect(Array.from(r.nodeMatch)).toEqual([0, 0, 1, 0, 1, 0]);
    const s = run('parse|hash|gc');
    expect(s.total).toBe(85);
  });

  it('takes several terms separated by commas, each a regex or text, as Grafana does', () => {
    expect(run('parse, ^crypto/').count).toBe(2);
    expect(run('parse, ^crypto/').total).toBe(55);
    expect(run('gc,, ').count).toBe(1);
    expect(compileSearch(' , ')).toBeUndefined();
    // a comma inside a regex quantifier is part of the regex
    expect(run('ma{1,2}in\\.work').count).toBe(1);
  });
});
