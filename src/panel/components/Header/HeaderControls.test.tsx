// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
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

const radios = (group: string) =>
  screen
    .getByRole('radiogroup', { name: group })
    .querySelectorAll('input[type="radio"]') as NodeListOf<HTMLInputElement>;
const checked = (group: string) =>
  Array.from(radios(group))
    .filter((r) => r.checked)
    .map((r) => r.labels?.[0]?.textContent?.trim());

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

  it('shows the current choices in its first render', () => {
    renderHeader();
    expect(Array.from(radios('View')).map((r) => r.labels?.[0]?.textContent?.trim())).toEqual([
      'Flame graph',
      'Top table',
      'Both',
      'Call tree',
      'Call graph',
      'Sandwich',
    ]);
    expect(screen.getByRole('radio', { name: 'Call tree' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Align text right' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Collapse chains' })).toBeChecked();
    expect(screen.getByRole('combobox')).toHaveValue('By package');
  });

  it('shows a diff profile its palette and follows new choices', () => {
    const { rerender } = renderHeader({ diff: true, colorBlindDiff: true });
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(checked('Diff palette')).toEqual(['Colour-blind']);
    rerender({ diff: true, colorBlindDiff: false, view: 'both', textAlign: 'left' });
    expect(checked('Diff palette')).toEqual(['Red / green']);
    expect(checked('View')).toEqual(['Both']);
    expect(screen.getByRole('radio', { name: 'Align text left' })).toBeChecked();
  });

  it('a click on a control says what the user asked', () => {
    const { actions } = renderHeader();
    fireEvent.click(screen.getByRole('radio', { name: 'Top table' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Sandwich' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Align text left' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Collapse chains' }));
    fireEvent.click(screen.getByRole('button', { name: 'Expand all' }));
    fireEvent.click(screen.getByRole('button', { name: 'Collapse all' }));
    expect(actions).toEqual([
      { kind: 'view', view: 'table' },
      { kind: 'view', view: 'sandwich' },
      { kind: 'options', changed: { textAlign: 'left' } },
      { kind: 'collapse', on: false },
      { kind: 'collapse', on: false },
      { kind: 'collapse', on: true },
    ]);
  });

  it('a click on the colour scheme opens its list', () => {
    renderHeader();
    expect(screen.getByRole('combobox')).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(screen.getByRole('combobox'));
    expect(screen.getByRole('combobox')).toHaveAttribute('aria-expanded', 'true');
  });
});
