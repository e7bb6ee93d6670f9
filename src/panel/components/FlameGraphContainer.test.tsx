// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { readFlameData } from '../../shared/flameData';
import { nestedSet, repeatedEnumFrame, SMALL } from '../testing/frames';
import { defaultOptions } from '../options';
import { FlameGraphContainer } from './FlameGraphContainer';
import { TABLE_WIDTH_KEY } from './storage';
import { FlamegraphPanel } from '../FlamegraphPanel';

const data = readFlameData(nestedSet(SMALL));
// an element's style as the page applies it (sizes and places come from classes, not inline styles)
const styleOf = (el: Element) => getComputedStyle(el);

// the table's rows come in idle slices after the first paint: on a busy machine that can take
// longer than testing-library's default second, so a wait gives up only on a view that hangs
configure({ asyncUtilTimeout: 15000 });

function renderView(width = 1000, options = defaultOptions) {
  return render(<FlameGraphContainer data={data} width={width} height={500} options={options} />);
}

// jsdom has no PointerEvent: give pointer events their mouse coordinates
if (typeof window.PointerEvent === 'undefined') {
  class PointerEventPolyfill extends MouseEvent {
    pointerId: number;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 1;
    }
  }
  (window as unknown as { PointerEvent: unknown }).PointerEvent = PointerEventPolyfill;
}

// jsdom has no layout: place the canvas at the origin so mouse positions map to graph coordinates
beforeEach(() => {
  jest
    .spyOn(HTMLCanvasElement.prototype, 'getBoundingClientRect')
    .mockReturnValue({ left: 0, top: 0, right: 0, bottom: 0, width: 0, height: 0, x: 0, y: 0, toJSON: () => ({}) });
  window.localStorage.clear();
});
afterEach(() => jest.restoreAllMocks());

// the table is summed after the graph's first paint: wait for its rows
const rowsText = async () =>
  (await screen.findAllByTestId('top-table-row')).map((r) => within(r).getAllByRole('cell')[0].textContent);

describe('FlameGraphView', () => {
  it('draws the graph and the header first and fills the top table after the first paint', async () => {
    renderView();
    expect(screen.getByTestId('flamegraph-canvas')).toBeInTheDocument();
    expect(screen.queryAllByTestId('top-table-row')).toHaveLength(0);
    // the table's column headers come with its first rows
    expect(screen.queryAllByRole('columnheader')).toHaveLength(0);
    expect(await screen.findByLabelText('Search functions')).toBeInTheDocument();
    expect(await rowsText()).toHaveLength(5); // every symbol but the root
    expect(screen.getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Symbol', 'Self ▼', 'Total']);
  });

  it('a panel too narrow for the header on one line has it in the first render', () => {
    renderView(500);
    expect(screen.getByLabelText('Search functions')).toBeInTheDocument();
  });

  it('search counts matches and their share, dims the rest and filters the table', async () => {
    renderView();
    fireEvent.change(await screen.findByLabelText('Search functions'), { target: { value: 'main' } });
    expect(screen.getByTestId('flamegraph-search-result')).toHaveTextContent('2 matches · 70.0% of total');
    expect((await rowsText()).sort()).toEqual(['main.main', 'main.work']);
  });

  it('what a search found, its sandwich and Clear are inside the search box; Clear empties it', async () => {
    renderView();
    const box = await screen.findByLabelText('Search functions');
    fireEvent.change(box, { target: { value: 'main' } });
    const wrapper = box.closest('[data-testid="input-wrapper"]') as HTMLElement;
    expect(within(wrapper).getByTestId('flamegraph-search-result')).toHaveAttribute(
      'title',
      '2 matches · 70.0% of total'
    );
    expect(within(wrapper).getByTestId('search-sandwich')).toBeInTheDocument();
    fireEvent.click(within(wrapper).getByRole('button', { name: 'Clear search' }));
    expect(box).toHaveValue('');
    expect(screen.queryByTestId('flamegraph-search-result')).toBeNull();
  });

  it('the table sorts by a column and a click highlights the symbol in the graph', async () => {
    renderView();
    expect((await rowsText())[0]).toBe('crypto/sha256.hash'); // self, descending
    fireEvent.click(screen.getByRole('columnheader', { name: /Total/ }));
    expect((await rowsText())[0]).toBe('main.main');
    const row = screen.getAllByTestId('top-table-row')[0];
    fireEvent.click(row);
    expect(row).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('flamegraph-search-result')).toHaveTextContent('1 × main.main · 70.0% of total');
  });

  it('hover shows a tooltip with total and self; click zooms, Esc resets', () => {
    renderView(1000, { ...defaultOptions, showTable: false });
    const overlay = screen.getByTestId('flamegraph-canvas').nextElementSibling as HTMLElement;
    // main.work spans x 500..900 at level 2 (y 40..60) when 1000 px wide
    fireEvent.mouseMove(overlay, { clientX: 600, clientY: 45 });
    const tip = screen.getByTestId('flamegraph-tooltip');
    expect(within(tip).getByTestId('tooltip-name')).toHaveTextContent('main.work');
    expect(within(tip).getByTestId('tooltip-total')).toHaveTextContent('40 ns (40.0% of total)');
    expect(within(tip).getByTestId('tooltip-self')).toHaveTextContent('5 ns (5.00% of total)');
    // the hovered bar is outlined where it is drawn
    const hovered = screen.getByTestId('flamegraph-hovered');
    expect([styleOf(hovered).left, styleOf(hovered).top, styleOf(hovered).width]).toEqual(['500px', '40px', '399px']);
    expect(screen.queryByTestId('flamegraph-selected')).toBeNull();
    fireEvent.click(overlay, { clientX: 600, clientY: 45 });
    expect(screen.getByTestId('flamegraph-breadcrumbs')).toHaveTextContent('main.work');
    // the zoomed bar is selected and spans the whole width
    const selected = screen.getByTestId('flamegraph-selected');
    expect([styleOf(selected).left, styleOf(selected).width]).toEqual(['0px', '999px']);
    // zoomed: hash now spans 0..875 at level 3
    fireEvent.mouseMove(overlay, { clientX: 800, clientY: 65 });
    expect(screen.getByTestId('tooltip-total')).toHaveTextContent('35.0% of total, 87.5% of zoomed');
    fireEvent.keyDown(screen.getByTestId('flamegraph-view'), { key: 'Escape' });
    expect(screen.queryByTestId('flamegraph-breadcrumbs')).toBeNull();
  });

  it('right-click opens the actions; "Highlight same name" highlights', async () => {
    renderView();
    const overlay = screen.getByTestId('flamegraph-canvas').nextElementSibling as HTMLElement;
    // with the table the graph is narrower; gc is the leftmost bar at level 1
    fireEvent.contextMenu(overlay, { clientX: 5, clientY: 25 });
    fireEvent.click(screen.getByText('Highlight same name'));
    expect(await screen.findByTestId('flamegraph-search-result')).toHaveTextContent(
      '1 × runtime.gcBgMarkWorker · 30.0% of total'
    );
  });

  it('arrow keys move the selection and Enter zooms to it', () => {
    renderView(1000, { ...defaultOptions, showTable: false });
    const view = screen.getByTestId('flamegraph-view');
    fireEvent.keyDown(view, { key: 'ArrowDown' }); // root → widest child main.main
    fireEvent.keyDown(view, { key: 'ArrowDown' }); // → main.work
    fireEvent.keyDown(view, { key: 'ArrowLeft' }); // → encoding/json.parse
    fireEvent.keyDown(view, { key: 'Enter' });
    expect(screen.getByTestId('flamegraph-breadcrumbs')).toHaveTextContent('encoding/json.parse');
  });

  it('dragging the handle resizes the drawer and remembers the width', () => {
    renderView(1000);
    const table = screen.getByTestId('top-table');
    const before = parseFloat(styleOf(table).width);
    const handle = screen.getByTestId('drawer-handle');
    fireEvent.pointerDown(handle, { clientX: 600, pointerId: 1 });
    fireEvent.pointerMove(handle, { clientX: 500, pointerId: 1 });
    fireEvent.pointerUp(handle, { clientX: 500, pointerId: 1 });
    expect(parseFloat(styleOf(screen.getByTestId('top-table')).width)).toBe(before + 100);
    expect(Number(window.localStorage.getItem(TABLE_WIDTH_KEY))).toBe(before + 100);
    // the graph (its box; the canvas' bitmap is kept as wide as it was and clipped) gives up the width
    const graph = screen.getByTestId('flamegraph-hit');
    expect(parseFloat(styleOf(graph).width) + before + 100 + 8).toBe(1000);
  });

  it('below the width where both fit, a toggle switches between graph and table', async () => {
    renderView(400);
    expect(screen.getByTestId('flamegraph-canvas')).toBeInTheDocument();
    expect(screen.queryByTestId('top-table')).toBeNull();
    fireEvent.click(await screen.findByLabelText('Top table'));
    expect(screen.getByTestId('top-table')).toBeInTheDocument();
    expect(screen.queryByTestId('flamegraph-canvas')).toBeNull();
  });
});

describe('FlameGraphView header and views', () => {
  it('saves the header choices as panel options', async () => {
    const changed: object[] = [];
    render(
      <FlameGraphContainer
        data={data}
        width={1000}
        height={500}
        options={defaultOptions}
        onOptionsChange={(c) => changed.push(c)}
      />
    );
    fireEvent.click(await screen.findByLabelText('Call tree'));
    fireEvent.click(screen.getByLabelText('Right'));
    const search = screen.getByLabelText('Search functions');
    fireEvent.change(search, { target: { value: 'main, hash' } });
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(changed).toEqual([{ viewMode: 'tree', showTable: true }, { textAlign: 'right' }, { search: 'main, hash' }]);
    expect(screen.getByTestId('flamegraph-search-result')).toHaveTextContent('3 matches · 70.0% of total');
  });

  it('the call tree lists the root, opens on click and zooms the graph', () => {
    renderView(1000, { ...defaultOptions, viewMode: 'tree' });
    const rows = () => screen.getAllByTestId('call-tree-row').map((r) => r.getAttribute('title'));
    expect(rows()).toEqual(['total', 'main.main', 'runtime.gcBgMarkWorker']);
    fireEvent.click(screen.getAllByTestId('call-tree-row')[1]);
    expect(rows()).toEqual(['total', 'main.main', 'main.work', 'encoding/json.parse', 'runtime.gcBgMarkWorker']);
    expect(screen.getByTestId('flamegraph-breadcrumbs')).toHaveTextContent('main.main');
    // by self: gc (30) before main (10)
    fireEvent.click(screen.getByRole('columnheader', { name: /Self/ }));
    expect(rows()[1]).toBe('runtime.gcBgMarkWorker');
  });

  it('switching between the top table and the call tree keeps each as it was left, hidden while the other shows', async () => {
    renderView();
    await rowsText();
    const table = screen.getByRole('table', { name: 'Top table' });
    fireEvent.click(await screen.findByRole('radio', { name: 'Call tree' }));
    expect(screen.getAllByTestId('call-tree-row')[0]).toBeVisible();
    // the table is kept mounted but out of sight and of the accessibility tree
    expect(screen.queryByRole('table', { name: 'Top table' })).toBeNull();
    expect(table).not.toBeVisible();
    fireEvent.click(screen.getAllByTestId('call-tree-row')[1]); // open main.main in the tree
    fireEvent.click(screen.getByRole('radio', { name: 'Both' }));
    // the same table element is back, not a new one, and the tree is hidden with its row still open
    expect(screen.getByRole('table', { name: 'Top table' })).toBe(table);
    expect(table).toBeVisible();
    expect(screen.getAllByTestId('call-tree-row')[0]).not.toBeVisible();
    fireEvent.click(screen.getByRole('radio', { name: 'Call tree' }));
    expect(screen.getAllByTestId('call-tree-row').map((r) => r.getAttribute('title'))).toContain('main.work');
  });

  it('the context menu opens the sandwich; Back returns to the zoomed graph', () => {
    renderView(1000, { ...defaultOptions, showTable: false });
    const overlay = screen.getByTestId('flamegraph-canvas').nextElementSibling as HTMLElement;
    fireEvent.click(overlay, { clientX: 600, clientY: 45 }); // zoom to main.work
    fireEvent.contextMenu(overlay, { clientX: 600, clientY: 65 }); // hash under it
    fireEvent.click(screen.getByText('Sandwich view'));
    expect(screen.getByTestId('sandwich-summary')).toHaveTextContent(
      'crypto/sha256.hash · self 35 ns · total 35 ns (35.0%) · 1 call site'
    );
    fireEvent.click(screen.getByLabelText('Exit sandwich view'));
    expect(screen.getByTestId('flamegraph-breadcrumbs')).toHaveTextContent('main.work');
  });
});

describe('FlamegraphPanel', () => {
  it('shows what is wrong with a malformed frame', () => {
    const bad = nestedSet([
      [0, 'total', 10, 0],
      [3, 'x', 10, 10],
    ]);
    render(
      <FlamegraphPanel
        {...({} as React.ComponentProps<typeof FlamegraphPanel>)}
        data={{ series: [bad] } as never}
        width={400}
        height={300}
        options={defaultOptions}
      />
    );
    expect(screen.getByRole('alert')).toHaveTextContent('field "level" row 1: level 3 follows level 0');
  });

  it('an enum that lists a function twice still gives it one top-table row with all its self', async () => {
    render(
      <FlamegraphPanel
        {...({} as React.ComponentProps<typeof FlamegraphPanel>)}
        data={{ series: [repeatedEnumFrame()] } as never}
        width={1000}
        height={400}
        options={defaultOptions}
      />
    );
    // the first draw takes the text as it is; after the paint the repeat is found and the frame read again
    await waitFor(() => expect(screen.getAllByTestId('top-table-row')).toHaveLength(2));
    const work = screen.getAllByTestId('top-table-row').find((r) => r.textContent?.includes('main.work'))!;
    expect(within(work).getAllByRole('cell')[1]).toHaveTextContent('100');
  });
});
