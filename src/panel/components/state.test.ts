// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { readFlameData } from '../../shared/flameData';
import { buildIndex } from '../model/flameIndex';
import { nestedSet, SMALL } from '../testing/frames';
import { initialViewState, savedOptions, ViewAction, viewReducer } from './state';

const data = readFlameData(nestedSet(SMALL));
const run = (...actions: ViewAction[]) => actions.reduce(viewReducer, initialViewState(data, {}));

describe('viewReducer', () => {
  it('zoom picks the bar and closes the menu; reset unzooms and keeps the highlight unless asked', () => {
    const zoomed = run(
      { type: 'openMenu', node: 2, orig: 2, x: 5, y: 5 },
      { type: 'highlight', name: 1 },
      { type: 'zoom', node: 2 }
    );
    expect(zoomed).toMatchObject({ focus: 2, selected: 2, menu: undefined, highlight: 1 });
    expect(viewReducer(zoomed, { type: 'reset' })).toMatchObject({ focus: 0, selected: -1, highlight: 1 });
    expect(viewReducer(zoomed, { type: 'reset', unhighlight: true })).toMatchObject({ highlight: -1 });
  });

  it('a new profile starts unzoomed with nothing picked, keeping the search and the sort', () => {
    const s = run(
      { type: 'search', text: 'main' },
      { type: 'sort', key: 'total' },
      { type: 'zoom', node: 3 },
      { type: 'openSandwich', name: 2 }
    );
    const next = viewReducer(s, { type: 'newProfile', data: readFlameData(nestedSet(SMALL)) });
    expect(next).toMatchObject({
      focus: 0,
      selected: -1,
      sandwich: undefined,
      search: 'main',
      sort: { key: 'total', desc: true },
    });
  });

  it('closing a chain closes every opened chain the bar is in', () => {
    const index = buildIndex(data);
    const s = run(
      { type: 'toggleChain', head: 4, open: true, index },
      { type: 'toggleChain', head: 2, open: true, index }
    );
    expect([...s.expanded].sort()).toEqual([2, 4]);
    // main.work is under main.main: closing at main.work closes both chains it is in, at main.main only that one
    expect([...viewReducer(s, { type: 'toggleChain', head: 4, open: false, index }).expanded]).toEqual([]);
    expect([...viewReducer(s, { type: 'toggleChain', head: 2, open: false, index }).expanded]).toEqual([4]);
  });

  it('a view switch leaves the sandwich and is saved as the panel options', () => {
    const a: ViewAction = { type: 'setView', view: 'tree', showTable: true };
    expect(run({ type: 'openSandwich', name: 2 }, a)).toMatchObject({
      sandwich: undefined,
      treeSeen: true,
      local: { viewMode: 'tree' },
    });
    expect(savedOptions(a)).toEqual({ viewMode: 'tree', showTable: true });
    expect(savedOptions({ type: 'zoom', node: 1 })).toBeUndefined();
  });

  it('sorting by the same column again turns the order round', () => {
    expect(run({ type: 'sort', key: 'total' }).sort).toEqual({ key: 'total', desc: true });
    expect(run({ type: 'sort', key: 'total' }, { type: 'sort', key: 'total' }).sort).toEqual({
      key: 'total',
      desc: false,
    });
    expect(run({ type: 'sort', key: 'name' }).sort).toEqual({ key: 'name', desc: false });
  });
});
