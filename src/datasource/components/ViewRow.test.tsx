// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useState } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';
import { EmberscopeQuery } from '../types';
import { ViewRow } from './ViewRow';

// what the panel's "Copy link" keeps in a query: a zoom, a search, a sandwich, the call tree
const LINKED = {
  path: ['main.main', 'main.work'],
  view: 'tree',
  search: 'json',
  sandwich: 'main.work',
  color: 'package',
};

// Grafana's menus watch their size and scroll position; jsdom has neither observer
class NoopObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
beforeAll(() => {
  Object.assign(window, { IntersectionObserver: NoopObserver, ResizeObserver: NoopObserver });
});

function setup(initial: Partial<EmberscopeQuery>) {
  const onRunQuery = jest.fn();
  const changes: EmberscopeQuery[] = [];
  function Harness() {
    const [q, setQ] = useState<EmberscopeQuery>({ refId: 'A', queryType: 'profile', ...initial });
    return (
      <ViewRow
        query={q}
        onChange={(n) => {
          changes.push(n);
          setQ(n);
        }}
        onRunQuery={onRunQuery}
      />
    );
  }
  render(<Harness />);
  const user = userEvent.setup({ pointerEventsCheck: PointerEventsCheckLevel.Never, delay: null });
  return { onRunQuery, changes, user };
}

describe('the query editor’s View row', () => {
  it('shows what the query’s view opens: the view, the zoom, the search, the sandwich and the colours', () => {
    setup({ view: LINKED });
    expect(screen.getByTestId('query-view-summary')).toHaveTextContent(
      'Zoom: main.main › main.work · Search: json · Sandwich: main.work · Colours: by package'
    );
    expect(screen.getByText('Call tree')).toBeInTheDocument();
  });

  it('sets the view the panel opens in, keeping the rest of the view, and runs the query', async () => {
    const { user, changes, onRunQuery } = setup({ view: LINKED });
    await user.click(screen.getByRole('combobox', { name: 'View' }));
    await user.click(within(screen.getByRole('listbox')).getByText('Call graph'));
    expect(changes[changes.length - 1].view).toEqual({ ...LINKED, view: 'callgraph' });
    expect(onRunQuery).toHaveBeenCalledTimes(1);
  });

  it('a view chosen on a query without one is the query’s only view field', async () => {
    const { user, changes } = setup({});
    expect(screen.queryByTestId('query-view-summary')).toBeNull();
    expect(screen.queryByRole('button', { name: "Clear the query's view" })).toBeNull();
    await user.click(screen.getByRole('combobox', { name: 'View' }));
    await user.click(within(screen.getByRole('listbox')).getByText('Top table'));
    expect(changes[changes.length - 1].view).toEqual({ view: 'table' });
  });

  it('Clear drops the whole view, so the panel opens as it is set', async () => {
    const { user, changes, onRunQuery } = setup({ view: LINKED });
    await user.click(screen.getByRole('button', { name: "Clear the query's view" }));
    expect('view' in changes[changes.length - 1]).toBe(false);
    expect(screen.queryByTestId('query-view-summary')).toBeNull();
    expect(onRunQuery).toHaveBeenCalledTimes(1);
  });

  it('is not offered for a query whose answer no flamegraph draws', () => {
    setup({ queryType: 'metrics', view: LINKED });
    expect(screen.queryByRole('combobox', { name: 'View' })).toBeNull();
  });
});
