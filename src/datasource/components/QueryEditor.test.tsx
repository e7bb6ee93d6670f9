// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CoreApp, DataSourceInstanceSettings, dateTime } from '@grafana/data';
import { TemplateSrv } from '@grafana/runtime';
import { DataSource } from '../datasource';
import { EmberscopeOptions, EmberscopeQuery } from '../types';
import { QueryEditor } from './QueryEditor';
import { CheatSheet, EXAMPLES } from './CheatSheet';
import { CPU } from '../testing/fakeClient';
import { parseSelector } from '../language/selector';

const settings = {
  id: 1,
  uid: 'emberscope',
  name: 'Emberscope',
  type: 'emberscope-datasource',
  jsonData: {},
  meta: {},
  access: 'proxy',
  readOnly: false,
} as unknown as DataSourceInstanceSettings<EmberscopeOptions>;

it('the Grafana query editor gets its data from the datasource’s resources, scoped to the panel’s range', async () => {
  const ds = new DataSource(settings, { replace: (s?: string) => s ?? '' } as unknown as TemplateSrv);
  const getResource = jest.fn(async (path: string) => {
    if (path === 'profileTypes') {
      return [{ id: CPU, name: 'process_cpu', sampleType: 'cpu' }];
    }
    return path === 'labelNames' ? ['region'] : ['eu-north'];
  });
  ds.getResource = getResource as DataSource['getResource'];
  const range = {
    from: dateTime(1_700_000_000_000),
    to: dateTime(1_700_003_600_000),
    raw: { from: 'now-1h', to: 'now' },
  };
  const onChange = jest.fn();
  const q: EmberscopeQuery = { refId: 'A', profileTypeId: CPU, labelSelector: '' };
  render(
    <QueryEditor
      datasource={ds}
      query={q}
      onChange={onChange}
      onRunQuery={jest.fn()}
      range={range}
      app={CoreApp.Explore}
    />
  );
  await waitFor(() => expect(screen.getByTestId('options-summary')).toHaveTextContent('Type: both'));
  await userEvent.type(screen.getByRole('combobox', { name: 'Label selector' }), '{{');
  await waitFor(() => expect(screen.getByRole('option', { name: 'region' })).toBeInTheDocument());
  expect(getResource).toHaveBeenCalledWith('profileTypes', { start: '1700000000000', end: '1700003600000' });
  expect(getResource).toHaveBeenCalledWith('labelNames', {
    matchers: `{__profile_type__="${CPU}"}`,
    start: '1700000000000',
    end: '1700003600000',
  });
});

it('the cheat sheet’s examples are valid selectors and go into the query text', async () => {
  const onClickExample = jest.fn();
  const q: EmberscopeQuery = { refId: 'A', profileTypeId: CPU };
  render(<CheatSheet datasource={{} as never} query={q} onClickExample={onClickExample} />);
  for (const ex of EXAMPLES) {
    expect(() => parseSelector(ex.expr.slice(ex.expr.indexOf('{'), ex.expr.indexOf('}') + 1))).not.toThrow();
  }
  await userEvent.click(screen.getByRole('button', { name: `Use example: ${EXAMPLES[2].title}` }));
  expect(onClickExample).toHaveBeenCalledWith({ ...q, expr: EXAMPLES[2].expr });
});

describe('in an alert rule', () => {
  function renderInAlertRule(q: EmberscopeQuery, onChange = jest.fn()) {
    const ds = new DataSource(settings, { replace: (s?: string) => s ?? '' } as unknown as TemplateSrv);
    ds.getResource = jest.fn(async (path: string) =>
      path === 'profileTypes' ? [{ id: CPU, name: 'process_cpu', sampleType: 'cpu' }] : []
    ) as DataSource['getResource'];
    render(
      <QueryEditor datasource={ds} query={q} onChange={onChange} onRunQuery={jest.fn()} app={CoreApp.UnifiedAlerting} />
    );
    return onChange;
  }

  it('offers only the query types that can alert', async () => {
    renderInAlertRule({ refId: 'A', profileTypeId: CPU, queryType: 'metrics' });
    await userEvent.click(screen.getByText('Options'));
    const types = within(screen.getByRole('radiogroup', { name: 'Query type' }))
      .getAllByRole('radio')
      .map((r) => ((r as HTMLInputElement).labels?.[0]?.textContent ?? '').trim());
    expect(types).toEqual(['Metric', 'Function share', 'Call path', 'Novelty']);
    expect(screen.queryByRole('radio', { name: 'Profile' })).not.toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: 'Both' })).not.toBeInTheDocument();
  });

  it('gives a query without an alertable type the metrics type, which the backend answers with numbers', async () => {
    const onChange = renderInAlertRule({ refId: 'A', profileTypeId: CPU, queryType: 'profile' });
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ queryType: 'metrics' })));
  });

  it('asks a function-share query for its function', async () => {
    const onChange = renderInAlertRule({ refId: 'A', profileTypeId: CPU, queryType: 'functionShare' });
    await userEvent.type(screen.getByRole('textbox', { name: 'Function' }), 'encoding/json.Marshal');
    await userEvent.tab();
    expect(onChange).toHaveBeenLastCalledWith(
      expect.objectContaining({ queryType: 'functionShare', function: 'encoding/json.Marshal' })
    );
  });
});
