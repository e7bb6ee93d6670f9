// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DataSourceInstanceSettings, DataSourceSettings } from '@grafana/data';
import { DataSourceSrv, setDataSourceSrv } from '@grafana/runtime';
import { ConfigEditor, maxQueryLengthProblem, minStepProblem, urlProblem } from './ConfigEditor';
import { EmberscopeOptions, EmberscopeSecureOptions } from '../types';

type Settings = DataSourceSettings<EmberscopeOptions, EmberscopeSecureOptions>;

function setup(initial: Partial<Settings>) {
  const seen: Settings[] = [];
  function Harness() {
    const [o, setO] = useState<Settings>({
      url: '',
      basicAuth: false,
      basicAuthUser: '',
      jsonData: {},
      secureJsonFields: {},
      ...initial,
    } as Settings);
    return (
      <ConfigEditor
        options={o}
        onOptionsChange={(n) => {
          seen.push(n);
          setO(n);
        }}
      />
    );
  }
  render(<Harness />);
  return { last: () => seen[seen.length - 1], user: userEvent.setup({ delay: null }) };
}

// Grafana's Select menu watches its size and scroll position; jsdom has neither observer
class NoopObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
// the datasources Grafana would list: a Tempo (a tracing datasource) and a Prometheus
const instances = [
  { uid: 'tempo-uid', name: 'Tempo', type: 'tempo', meta: { id: 'tempo', tracing: true, info: { logos: {} } } },
  {
    uid: 'prom-uid',
    name: 'Prometheus',
    type: 'prometheus',
    meta: { id: 'prometheus', metrics: true, info: { logos: {} } },
  },
] as unknown as DataSourceInstanceSettings[];
const fakeSrv = {
  getList: (filters: { tracing?: boolean } = {}) => instances.filter((d) => !filters.tracing || d.meta.tracing),
  getInstanceSettings: (ref: string | { uid?: string } | null | undefined) => {
    const uid = typeof ref === 'string' ? ref : ref?.uid;
    return instances.find((d) => d.uid === uid || d.name === uid);
  },
} as unknown as DataSourceSrv;

beforeAll(() => {
  Object.assign(window, { IntersectionObserver: NoopObserver, ResizeObserver: NoopObserver });
  setDataSourceSrv(fakeSrv);
});

/**
 * Enters a value as one paste: these tests are about where a setting is stored, and each key typed
 * renders the whole settings page again.
 */
async function fill(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, text: string) {
  await user.click(input);
  await user.paste(text);
}

/** Picks an option of a Grafana Select by its label. */
async function choose(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, label: string) {
  await user.click(input);
  const options = await screen.findAllByText(label, { selector: '[role=option] *, [role=option]' });
  await user.click(options[0]);
}

describe('ConfigEditor', () => {
  it('writes URL, tenant, timeout, minimal step and TLS where the backend reads them', async () => {
    const { user, last } = setup({});
    expect(screen.getByText('Required: the profile server, e.g. http://localhost:4040')).toBeInTheDocument();
    await fill(user, screen.getByLabelText('Data source connection URL'), 'http://pyroscope:4040');
    await fill(user, screen.getByLabelText('Tenant ID'), 'team-a');
    await fill(user, screen.getByLabelText('Timeout'), '45');
    await fill(user, screen.getByLabelText('Minimal step'), '30s');
    await user.click(screen.getByLabelText('Skip TLS certificate validation'));
    expect(last().url).toBe('http://pyroscope:4040');
    expect(last().jsonData).toMatchObject({ tenantId: 'team-a', timeout: 45, minStep: '30s', tlsSkipVerify: true });
    expect(screen.queryByText(/Required: the profile server/)).not.toBeInTheDocument();
  });

  it('detects the server kind unless Pyroscope or Parca is chosen', async () => {
    const { user, last } = setup({ url: 'http://parca:7070' });
    expect(screen.getByRole('radio', { name: 'Detect' })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'Parca' }));
    expect(last().jsonData.serverKind).toBe('parca');
    await user.click(screen.getByRole('radio', { name: 'Detect' }));
    expect(last().jsonData.serverKind).toBe('auto');
  });

  it('keeps basic auth and a bearer token apart, secrets in secureJsonData', async () => {
    const { user, last } = setup({ url: 'http://x:4040', secureJsonFields: { bearerToken: true } });
    const method = screen.getByLabelText('Authentication method');
    expect(screen.getByText('Bearer token')).toBeInTheDocument();
    await choose(user, method, 'Basic authentication');
    expect(last().basicAuth).toBe(true);
    expect(last().jsonData.authMethod).toBe('basic');
    expect(last().secureJsonFields.bearerToken).toBe(false);
    expect(last().secureJsonData?.bearerToken).toBe('');
    await fill(user, screen.getByPlaceholderText('User'), 'admin');
    await fill(user, screen.getByPlaceholderText('Password'), 's3cret');
    expect(last().basicAuthUser).toBe('admin');
    expect(last().secureJsonData?.basicAuthPassword).toBe('s3cret');
    await choose(user, method, 'Bearer token');
    await fill(user, screen.getByLabelText('Bearer token', { selector: 'input[type=password]' }), 'tok');
    expect(last().basicAuth).toBe(false);
    expect(last().secureJsonData?.bearerToken).toBe('tok');
    expect(last().jsonData.authMethod).toBe('bearer');
  });

  it('explains a wrong URL or step', () => {
    expect(urlProblem('ftp://x')).toBe('Must start with http:// or https://');
    expect(urlProblem('not a url')).toBe('"not a url" is not a URL');
    expect(urlProblem('https://pyroscope.example:4040')).toBeUndefined();
    expect(minStepProblem('15 seconds')).toBe('A duration such as 15s, 1m or 500ms');
    expect(minStepProblem('500ms')).toBeUndefined();
  });

  it('writes the max query length where the backend reads it, and explains a wrong one', async () => {
    const { user, last } = setup({});
    await fill(user, screen.getByLabelText('Max query length'), '1d12h');
    expect(last().jsonData).toMatchObject({ maxQueryLength: '1d12h' });
    expect(maxQueryLengthProblem('a day')).toBe('A duration such as 1d, 36h or 1d12h');
    expect(maxQueryLengthProblem('1d')).toBeUndefined();
    expect(maxQueryLengthProblem('')).toBeUndefined();
  });

  it('stores the tracing datasource that span exemplars link to, offering tracing datasources only', async () => {
    const { user, last } = setup({ url: 'http://x:4040' });
    const picker = screen.getByTestId('tracing-datasource').querySelector('input')!;
    await user.click(picker);
    expect(screen.queryByText('Prometheus')).not.toBeInTheDocument();
    await choose(user, picker, 'Tempo');
    expect(last().jsonData.tracingDatasourceUid).toBe('tempo-uid');
    await user.click(screen.getByLabelText('Clear tracing datasource'));
    expect(last().jsonData.tracingDatasourceUid).toBeUndefined();
  });
});
