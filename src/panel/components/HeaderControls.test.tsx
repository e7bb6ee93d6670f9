// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { Header } from './HeaderControls';
import { HeaderAction, HeaderChoices } from './headerOptions';

const CHOICES: HeaderChoices = {
  view: 'tree',
  diff: false,
  colorMode: 'package',
  colorBlindDiff: false,
  textAlign: 'right',
  collapse: true,
};

function renderHeader(choices: Partial<HeaderChoices> = {}) {
  const actions: HeaderAction[] = [];
  const props = { ...CHOICES, ...choices, onAction: (a: HeaderAction) => actions.push(a) };
  const r = render(<Header {...props} />);
  return { actions, rerender: (c: Partial<HeaderChoices>) => r.rerender(<Header {...props} {...c} />) };
}

const standIn = () => screen.queryByTestId('header-standin');
const box = (name: string) => standIn()!.querySelector(`[data-box="${name}"]`) as HTMLElement;
const selected = (group: string) =>
  Array.from(box(group).children)
    .filter((o) => o.hasAttribute('data-selected'))
    .map((o) => o.textContent);

// jsdom has none; the Combobox's menu observes its list
class NoIntersections {
  observe() {}
  unobserve() {}
  disconnect() {}
}

describe('Header', () => {
  beforeAll(() => {
    (window as unknown as { IntersectionObserver: unknown }).IntersectionObserver ??= NoIntersections;
  });
  // the real controls come after the first paint (an animation frame, then a task) in the first
  // idle time: jsdom has no requestIdleCallback, so idle.ts waits 50 ms of (fake) timers for it
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    jest.useRealTimers();
    delete (window as Window & { __emberscopeHoldHeader?: boolean }).__emberscopeHoldHeader;
  });
  const paint = () => act(() => void jest.advanceTimersByTime(20));
  const idle = () => act(() => void jest.advanceTimersByTime(60));

  it('first shows a stand-in with the current choices, out of the accessibility tree', () => {
    renderHeader();
    const s = standIn()!;
    expect(s).toHaveAttribute('aria-hidden', 'true');
    expect(
      within(box('view'))
        .getAllByText(/./)
        .map((o) => o.textContent)
    ).toEqual(['Flame graph', 'Top table', 'Both', 'Call tree', 'Call graph', 'Sandwich']);
    expect(selected('view')).toEqual(['Call tree']);
    expect(selected('align')).toEqual(['Right']);
    expect(box('colour')).toHaveTextContent('By package');
    expect(s).toHaveTextContent('Collapse');
    expect(s).toHaveTextContent('Expand all');
    expect(s).toHaveTextContent('Collapse all');
    // nothing announced, no @grafana/ui control, no icon loaded by react-inlinesvg
    expect(screen.queryAllByRole('radio')).toHaveLength(0);
    expect(screen.queryByRole('switch')).toBeNull();
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    expect(s.querySelectorAll('[data-testid^="icon-"]')).toHaveLength(0);
  });

  it('shows a diff profile its palette and follows new choices', () => {
    const { rerender } = renderHeader({ diff: true, colorBlindDiff: true });
    expect(box('colour')).toBeNull();
    expect(selected('palette')).toEqual(['Colour-blind']);
    rerender({ diff: true, colorBlindDiff: false, view: 'both', textAlign: 'left' });
    expect(selected('palette')).toEqual(['Red / green']);
    expect(selected('view')).toEqual(['Both']);
    expect(selected('align')).toEqual(['Left']);
  });

  it('a click on the stand-in does what the control would do', () => {
    const { actions } = renderHeader();
    fireEvent.click(within(box('view')).getByText('Top table'));
    fireEvent.click(within(box('view')).getByText('Sandwich'));
    fireEvent.click(within(box('align')).getByText('Left'));
    fireEvent.click(box('collapse:switch').firstElementChild!);
    fireEvent.click(box('expand-all'));
    fireEvent.click(box('collapse-all'));
    expect(actions).toEqual([
      { kind: 'view', view: 'table' },
      { kind: 'view', view: 'sandwich' },
      { kind: 'options', changed: { textAlign: 'left' } },
      { kind: 'collapse', on: false },
      { kind: 'collapse', on: false },
      { kind: 'collapse', on: true },
    ]);
  });

  it('is replaced by the real controls in the first idle time after the paint', () => {
    const { actions } = renderHeader();
    paint();
    expect(standIn()).not.toBeNull();
    idle();
    expect(standIn()).toBeNull();
    expect(screen.getByTestId('header-controls')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Call tree' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Align text right' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Collapse chains' })).toBeChecked();
    // the colour scheme's Combobox follows one idle time later, in the same box
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.getByTestId('colour-scheme')).toHaveTextContent('By package');
    paint();
    idle();
    expect(screen.getByRole('combobox')).toHaveValue('By package');
    fireEvent.click(screen.getByRole('radio', { name: 'Flame graph' }));
    fireEvent.click(screen.getByRole('button', { name: 'Expand all' }));
    expect(actions).toEqual([
      { kind: 'view', view: 'graph' },
      { kind: 'collapse', on: false },
    ]);
  });

  it('a click on the colour scheme mounts the real controls at once and opens its list', () => {
    renderHeader();
    fireEvent.click(box('colour'));
    expect(standIn()).toBeNull();
    expect(screen.getByRole('combobox')).toHaveAttribute('aria-expanded', 'true');
  });

  it('opens the colour scheme for that click only, not when its box comes back', () => {
    const { rerender } = renderHeader();
    fireEvent.click(box('colour'));
    fireEvent.keyDown(screen.getByRole('combobox'), { key: 'Escape' });
    expect(screen.getByRole('combobox')).toHaveAttribute('aria-expanded', 'false');
    rerender({ diff: true });
    expect(screen.queryByRole('combobox')).toBeNull();
    rerender({ diff: false });
    paint();
    idle();
    expect(screen.getByRole('combobox')).toHaveAttribute('aria-expanded', 'false');
  });

  it('keeps the stand-in while a test holds it', () => {
    (window as Window & { __emberscopeHoldHeader?: boolean }).__emberscopeHoldHeader = true;
    renderHeader();
    paint();
    idle();
    idle();
    expect(standIn()).not.toBeNull();
    (window as Window & { __emberscopeHoldHeader?: boolean }).__emberscopeHoldHeader = false;
    idle();
    expect(standIn()).toBeNull();
  });
});
