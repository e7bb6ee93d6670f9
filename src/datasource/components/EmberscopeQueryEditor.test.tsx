// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useState } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';
import { toDataFrame } from '@grafana/data';
import { EmberscopeQueryEditor, EmberscopeQueryEditorProps } from './EmberscopeQueryEditor';
import { EmberscopeQuery } from '../types';
import { ALLOC, CPU, FakeResourceClient, GOROUTINES, INUSE, rideShareSeries } from '../testing/fakeClient';
import { groupProfileTypes } from './ProfileTypeCascader';
import { parseProfileTypeId } from '../resources/client';
import { LAST_PROFILE_TYPE_KEY } from '../storage';

const RANGE = { from: 1_700_000_000_000, to: 1_700_003_600_000 };

function setup(initial: Partial<EmberscopeQuery>, extra: Partial<EmberscopeQueryEditorProps> = {}) {
  const client = new FakeResourceClient(rideShareSeries());
  const onRunQuery = jest.fn();
  const changes: EmberscopeQuery[] = [];
  function Harness() {
    const [q, setQ] = useState<EmberscopeQuery>({ refId: 'A', ...initial });
    return (
      <EmberscopeQueryEditor
        query={q}
        onChange={(n) => {
          changes.push(n);
          setQ(n);
        }}
        onRunQuery={onRunQuery}
        client={client}
        range={RANGE}
        app="explore"
        {...extra}
      />
    );
  }
  // Grafana's menus animate in with pointer-events off; a person clicks once they are shown.
  // No delay between keystrokes: each key still fires its own events, without a timer per key.
  const user = userEvent.setup({ pointerEventsCheck: PointerEventsCheckLevel.Never, delay: null });
  render(<Harness />);
  const last = () => changes[changes.length - 1];
  return { client, onRunQuery, changes, last, user };
}

const options = () =>
  within(screen.getByRole('listbox'))
    .getAllByRole('option')
    .map((o) => o.querySelector('span')?.textContent);

// Grafana's menus watch their size and scroll position; jsdom has neither observer
class NoopObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
/** A MessageChannel for jsdom: each port delivers what the other posts, on a later task. */
class TimeoutMessageChannel {
  port1: { onmessage: ((e: { data: unknown }) => void) | null; postMessage: (d: unknown) => void };
  port2: { onmessage: ((e: { data: unknown }) => void) | null; postMessage: (d: unknown) => void };
  constructor() {
    this.port1 = { onmessage: null, postMessage: (data) => setTimeout(() => this.port2.onmessage?.({ data })) };
    this.port2 = { onmessage: null, postMessage: (data) => setTimeout(() => this.port1.onmessage?.({ data })) };
  }
}
beforeAll(() => {
  Object.assign(window, {
    IntersectionObserver: NoopObserver,
    ResizeObserver: NoopObserver,
    MessageChannel: TimeoutMessageChannel,
  });
});

beforeEach(() => window.localStorage.clear());

describe('label selector completion', () => {
  it('offers label names after "{", then values after "=" and "=\\"", scoped by profile type and range', async () => {
    const { user, client, last } = setup({ profileTypeId: CPU, labelSelector: '' });
    const input = screen.getByRole('combobox', { name: 'Label selector' });
    await user.type(input, '{{');
    await waitFor(() => expect(options()).toEqual(['region', 'service_name', 'vehicle']));
    expect(client.callsOf('labelNames')).toContainEqual([`{__profile_type__="${CPU}"}`, RANGE]);
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(input).toHaveValue('{vehicle');
    await user.type(input, '=');
    await waitFor(() => expect(options()).toEqual(['bike', 'car', 'scooter']));
    await user.type(input, '"sc');
    await waitFor(() => expect(options()).toEqual(['scooter']));
    await user.keyboard('{Enter}');
    expect(input).toHaveValue('{vehicle="scooter"');
    await user.type(input, ', reg');
    await waitFor(() => expect(options()).toEqual(['region']));
    await user.keyboard('{Tab}=');
    // values of region among the scooter series only
    await waitFor(() => expect(options()).toEqual(['ap-south', 'eu-north', 'us-east']));
    expect(client.callsOf('labelValues').pop()).toEqual([
      'region',
      `{vehicle="scooter", __profile_type__="${CPU}"}`,
      RANGE,
    ]);
    await user.click(screen.getByRole('option', { name: /eu-north/ }));
    await user.type(input, '}');
    expect(last().labelSelector).toBe('{vehicle="scooter", region="eu-north"}');
  });

  it('completes functions and profile types in the query text, and highlights it', async () => {
    const { user } = setup({ profileTypeId: CPU });
    const input = screen.getByRole('combobox', { name: 'Query text' });
    await user.type(input, 'rev');
    await waitFor(() => expect(options()).toEqual(['reverse']));
    await user.keyboard('{Enter}');
    expect(input).toHaveValue('reverse(');
    await waitFor(() => expect(options()).toContain(ALLOC));
    await user.type(input, 'mem');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(2));
    await user.keyboard('{ArrowDown}{Enter}');
    expect(input).toHaveValue(`reverse(${INUSE}`);
    await user.type(input, '{{pod=');
    await waitFor(() => expect(options()).toEqual(['app-1']));
    const tokens = screen.getAllByTestId('highlighted')[1].querySelectorAll('[data-token]');
    expect([...tokens].map((t) => `${t.getAttribute('data-token')}:${t.textContent}`)).toEqual([
      'function:reverse',
      'punct:(',
      `profileType:${INUSE}`,
      'punct:{',
      'label:pod',
      'operator:=',
    ]);
  });

  it('Escape closes the suggestions and Shift+Enter runs the query', async () => {
    const { user, onRunQuery } = setup({ profileTypeId: CPU, labelSelector: '' });
    const input = screen.getByRole('combobox', { name: 'Label selector' });
    await user.type(input, '{{');
    await waitFor(() => expect(screen.getByRole('listbox')).toBeInTheDocument());
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(onRunQuery).not.toHaveBeenCalled();
    await user.keyboard('{Shift>}{Enter}{/Shift}');
    expect(onRunQuery).toHaveBeenCalledTimes(1);
  });
});

describe('profile type cascader', () => {
  it('groups profile types by name: process_cpu › cpu, memory › alloc_space, …', () => {
    const groups = groupProfileTypes([INUSE, CPU, GOROUTINES, ALLOC].map(parseProfileTypeId));
    expect(groups.map((g) => [g.label, g.items!.map((i) => `${i.label}=${i.value}`)])).toEqual([
      ['goroutines', [`goroutine=${GOROUTINES}`]],
      ['memory', [`alloc_space=${ALLOC}`, `inuse_space=${INUSE}`]],
      ['process_cpu', [`cpu=${CPU}`]],
    ]);
  });

  it('lists profile types grouped by name and writes profileTypeId, remembering the choice', async () => {
    const { user, last, onRunQuery, client } = setup({ profileTypeId: CPU });
    await waitFor(() => expect(client.callsOf('profileTypes')).toHaveLength(1));
    await act(() => Promise.resolve());
    await user.click(screen.getByLabelText('Profile type'));
    const menus = () => [...document.querySelectorAll('.rc-cascader-menu')];
    const items = (m: Element) => [...m.querySelectorAll('li')].map((li) => li.textContent);
    await waitFor(() => expect(menus().length).toBeGreaterThan(0));
    expect(items(menus()[0])).toEqual(['goroutines', 'memory', 'process_cpu']);
    await user.click(screen.getByText('memory'));
    await waitFor(() => expect(menus()).toHaveLength(2));
    expect(items(menus()[1])).toEqual(['alloc_space', 'inuse_space']);
    await user.click(screen.getByText('inuse_space'));
    expect(last().profileTypeId).toBe(INUSE);
    expect(window.localStorage.getItem(LAST_PROFILE_TYPE_KEY)).toBe(INUSE);
    expect(onRunQuery).toHaveBeenCalled();
  });

  it('starts a new query on the profile type chosen last', async () => {
    window.localStorage.setItem(LAST_PROFILE_TYPE_KEY, ALLOC);
    const { last } = setup({});
    await waitFor(() => expect(last()?.profileTypeId).toBe(ALLOC));
  });
});

describe('options', () => {
  it('summarises what is set in the collapsed header', async () => {
    setup({ profileTypeId: CPU, queryType: 'both', groupBy: ['region'], limit: 5 });
    expect(screen.getByTestId('options-summary')).toHaveTextContent(
      'Type: both, Group by: region, Max nodes: 16384, Limit: 5'
    );
  });

  it('writes groupBy from the multi-select fed by label names, and switches the query type', async () => {
    const { user, last, onRunQuery } = setup({ profileTypeId: CPU, labelSelector: '{service_name="ride-share-app"}' });
    await user.click(screen.getByText('Options'));
    await user.click(screen.getByLabelText('Group by'));
    await user.click(await screen.findByText('vehicle'));
    expect(last().groupBy).toEqual(['vehicle']);
    expect(screen.getByTestId('options-summary')).toHaveTextContent('Type: both, Group by: vehicle, Max nodes: 16384');
    await user.click(screen.getByRole('radio', { name: 'Top table' }));
    expect(last().queryType).toBe('topTable');
    expect(screen.getByTestId('options-summary')).toHaveTextContent('Type: topTable, Group by: vehicle');
    expect(onRunQuery).toHaveBeenCalledTimes(2);
    await user.type(screen.getByLabelText('Max nodes'), '2048');
    await user.tab();
    expect(last().maxNodes).toBe(2048);
  });

  it('offers the novelty query type', async () => {
    const { user, last, onRunQuery } = setup({ profileTypeId: CPU });
    await user.click(screen.getByText('Options'));
    await user.click(screen.getByRole('radio', { name: 'Novelty' }));
    expect(last().queryType).toBe('novelty');
    expect(onRunQuery).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('options-summary')).toHaveTextContent('Type: novelty, Max nodes: 16384');
  });

  it('picks the granularity: lines is sent to the backend and shown in the summary', async () => {
    const { user, last, onRunQuery } = setup({ profileTypeId: CPU, queryType: 'profile', granularity: 'files' });
    await user.click(screen.getByText('Options'));
    expect(screen.getByRole('radio', { name: 'Files' })).toBeChecked();
    expect(screen.getByTestId('options-summary')).toHaveTextContent('Granularity: files');
    await user.click(screen.getByRole('radio', { name: 'Lines' }));
    expect(last().granularity).toBe('lines');
    expect(onRunQuery).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('options-summary')).toHaveTextContent(
      'Type: profile, Max nodes: 16384, Granularity: lines'
    );
    await user.click(screen.getByRole('radio', { name: 'Functions' }));
    expect(last().granularity).toBeUndefined();
    expect(screen.getByTestId('options-summary')).not.toHaveTextContent('Granularity');
  });

  it('switches live mode on with its window and interval, shown in the summary', async () => {
    const { user, last, onRunQuery } = setup({ profileTypeId: CPU, queryType: 'both' });
    await user.click(screen.getByText('Options'));
    await user.click(screen.getByRole('switch', { name: 'Live' }));
    expect(last().live).toBe(true);
    expect(onRunQuery).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('options-summary')).toHaveTextContent(
      'Type: both, Max nodes: 16384, Live: 15m every 10s'
    );
    await user.type(screen.getByLabelText('Live window'), '1h');
    await user.tab();
    expect(last().liveWindow).toBe('1h');
    await user.type(screen.getByLabelText('Live interval'), '30s');
    await user.tab();
    expect(last()).toMatchObject({ live: true, liveWindow: '1h', liveInterval: '30s' });
    expect(onRunQuery).toHaveBeenCalledTimes(3);
    expect(screen.getByTestId('options-summary')).toHaveTextContent('Live: 1h every 30s');
    await user.click(screen.getByRole('switch', { name: 'Live' }));
    expect(last().live).toBeUndefined();
    expect(screen.getByTestId('options-summary')).not.toHaveTextContent('Live');
  });

  it('refuses a live window that is not a duration and keeps the last good one', async () => {
    const { user, last, changes } = setup({ profileTypeId: CPU, live: true, liveWindow: '5m' });
    await user.click(screen.getByText('Options'));
    const input = screen.getByLabelText('Live window');
    expect(input).toHaveValue('5m');
    const before = changes.length;
    await user.clear(input);
    await user.type(input, 'soon');
    await user.tab();
    expect(changes.length).toBe(before);
    expect(last()?.liveWindow ?? '5m').toBe('5m');
    expect(screen.getByText('A duration such as 15m or 1h')).toBeInTheDocument();
  });
});

describe('matcher chips', () => {
  it('show the selector text as chips, and chip edits write the text', async () => {
    const { user, last } = setup({ profileTypeId: CPU, labelSelector: '{region="eu-north"}' });
    expect(within(screen.getByTestId('matcher-chip-1')).getByText('region')).toBeInTheDocument();
    expect(within(screen.getByTestId('matcher-chip-1')).getByText('eu-north')).toBeInTheDocument();
    const input = screen.getByRole('combobox', { name: 'Label selector' });
    await user.type(input, ', vehicle="car"', { initialSelectionStart: 18, initialSelectionEnd: 18 });
    expect(input).toHaveValue('{region="eu-north", vehicle="car"}');
    expect(within(screen.getByTestId('matcher-chip-2')).getByText('car')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove matcher 1' }));
    expect(last().labelSelector).toBe('{vehicle="car"}');
    expect(input).toHaveValue('{vehicle="car"}');
    await user.click(screen.getByLabelText('Operator of matcher 1'));
    await user.click(await screen.findByText('!='));
    expect(input).toHaveValue('{vehicle!="car"}');
    await user.click(screen.getByRole('button', { name: 'Add matcher' }));
    await user.click(screen.getByLabelText('Label name of matcher 2'));
    await user.click(await screen.findByText('region'));
    await user.click(screen.getByLabelText('Value of matcher 2'));
    await user.click(await screen.findByText('us-east'));
    expect(input).toHaveValue('{vehicle!="car", region="us-east"}');
  });

  it('edit the selector of the query text when it is set', async () => {
    const { user, last } = setup({ profileTypeId: CPU, expr: `reverse(${CPU}{vehicle="car"})` });
    await user.click(screen.getByRole('button', { name: 'Remove matcher 1' }));
    expect(last().expr).toBe(`reverse(${CPU}{})`);
    expect(screen.getByTestId('expr-hint')).toBeInTheDocument();
  });

  it('point at the error of a selector that does not parse', () => {
    setup({ profileTypeId: CPU, labelSelector: '{region=eu}' });
    expect(screen.getByTestId('matcher-chips')).toHaveTextContent('1:9: expected a quoted value after "region="');
  });
});

it('shows the notices of the last response', () => {
  const frame = toDataFrame({ refId: 'A', fields: [{ name: 'time', values: [1] }] });
  frame.meta = { notices: [{ severity: 'info', text: 'Showing the 20 largest of 57 series' }] };
  setup({ profileTypeId: CPU }, { frames: [frame] });
  expect(screen.getByTestId('response-notice')).toHaveTextContent('Showing the 20 largest of 57 series');
});

it('a diff compares with the previous period by default, and the comparison is editable', async () => {
  const { user, last } = setup({ profileTypeId: CPU, labelSelector: '{region="eu-north"}' });
  await user.click(screen.getByText('Options'));
  await user.click(screen.getByRole('radio', { name: 'Diff' }));
  expect(last().comparison).toEqual({
    labelSelector: '{region="eu-north"}',
    from: RANGE.from - 3_600_000,
    to: RANGE.from,
  });
  expect(screen.getByLabelText('Comparison from')).toHaveValue('2023-11-14T21:13:20Z');
  const to = screen.getByLabelText('Comparison to');
  await user.clear(to);
  await user.type(to, '2023-11-14T20:00:00Z');
  await user.tab();
  expect(screen.getByText('"From" must be before "to"')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Same range' }));
  expect(last().comparison).toMatchObject({ from: RANGE.from, to: RANGE.to });
  expect(screen.getByLabelText('Comparison to')).toHaveValue('2023-11-14T23:13:20Z');
});

describe('defaults', () => {
  it('runs the profile type it shows: the picked default is in the query, and the query runs with it', async () => {
    const { onRunQuery, last } = setup({ labelSelector: '{}' });
    await waitFor(() => expect(last()?.profileTypeId).toBeTruthy());
    expect(onRunQuery).toHaveBeenCalledTimes(1);
    // what the cascader shows is what was run
    expect(screen.getByRole('textbox', { name: 'Profile type' })).toHaveValue('process_cpu / cpu');
    expect(last().profileTypeId).toBe(CPU);
  });

  it('does not run again when the query already has a type', async () => {
    const { onRunQuery, changes } = setup({ profileTypeId: ALLOC, labelSelector: '{}' });
    await waitFor(() => expect(screen.queryByPlaceholderText('Loading profile types…')).toBeNull());
    expect(onRunQuery).not.toHaveBeenCalled();
    expect(changes.every((c) => c.profileTypeId === ALLOC)).toBe(true);
  });
});
