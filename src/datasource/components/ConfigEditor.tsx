// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { DataSourcePluginOptionsEditorProps, SelectableValue } from '@grafana/data';
import { Divider, InlineField, Input, RadioButtonGroup, SecretInput, Stack } from '@grafana/ui';
import {
  Auth,
  AuthMethod as UIAuthMethod,
  ConfigSection,
  ConnectionSettings,
  convertLegacyAuthProps,
} from '@grafana/plugin-ui';
import { TracingDatasourceField } from './TracingDatasourceField';
import { SourceSettings } from './SourceSettings';
import { AuthMethod, EmberscopeOptions, EmberscopeSecureOptions, ServerKind } from '../types';

type Props = DataSourcePluginOptionsEditorProps<EmberscopeOptions, EmberscopeSecureOptions>;

const SERVER_KINDS: Array<SelectableValue<ServerKind>> = [
  { value: 'auto', label: 'Detect', description: 'Ask the server which API it speaks at the first query' },
  {
    value: 'pyroscope',
    label: 'Pyroscope',
    description: "Grafana Pyroscope's querier.v1 API (also the embedded store)",
  },
  { value: 'parca', label: 'Parca', description: "Parca's REST API" },
];

/** The custom authentication method of plugin-ui's Auth that is our bearer token. */
const BEARER = 'custom-bearer';

/** Our authentication methods as plugin-ui's Auth names them. */
const UI_METHOD: Record<AuthMethod, UIAuthMethod | typeof BEARER> = {
  none: UIAuthMethod.NoAuth,
  basic: UIAuthMethod.BasicAuth,
  bearer: BEARER,
};

/** Checks the URL field as the backend will: empty, not http(s), or no host is an error. */
export function urlProblem(url: string | undefined): string | undefined {
  const s = (url ?? '').trim();
  if (!s) {
    return 'Required: the profile server, e.g. http://localhost:4040';
  }
  try {
    const u = new URL(s);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') {
      return 'Must start with http:// or https://';
    }
  } catch {
    return `"${s}" is not a URL`;
  }
  return undefined;
}

/** Checks a minimal step as the backend reads it (Grafana durations: 15s, 1m, 500ms). */
export function minStepProblem(step: string | undefined): string | undefined {
  const s = (step ?? '').trim();
  return !s || /^\d+(ms|s|m|h|d|w|y)$/.test(s) ? undefined : 'A duration such as 15s, 1m or 500ms';
}

/** Checks a longest query range as the backend reads it (Prometheus durations: 1d, 36h, 1d12h). */
export function maxQueryLengthProblem(v: string | undefined): string | undefined {
  const s = (v ?? '').trim();
  return !s || /^((\d+)(y|w|d|h|m|s|ms))+$/.test(s) ? undefined : 'A duration such as 1d, 36h or 1d12h';
}

/** The authentication in use: remembered in jsonData, else read from what is configured. */
export function authMethodOf(o: Props['options']): AuthMethod {
  if (o.jsonData.authMethod) {
    return o.jsonData.authMethod;
  }
  if (o.basicAuth) {
    return 'basic';
  }
  return o.secureJsonFields?.bearerToken ? 'bearer' : 'none';
}

/**
 * The datasource's settings, on `@grafana/plugin-ui`'s config components: the connection
 * (the profile server's URL), authentication (no authentication, basic, or a bearer token, the
 * secrets kept in secureJsonData), TLS and custom headers, then the server kind, tenant, timeout
 * and minimal step. Save & test lists the server's profile types, or says why it could not.
 */
export function ConfigEditor({ options, onOptionsChange }: Props) {
  const jd = options.jsonData;
  const auth = authMethodOf(options);
  const setJson = (patch: Partial<EmberscopeOptions>) =>
    onOptionsChange({ ...options, jsonData: { ...options.jsonData, ...patch } });
  const setSecret = (key: keyof EmberscopeSecureOptions, value: string) =>
    onOptionsChange({ ...options, secureJsonData: { ...options.secureJsonData, [key]: value } });
  const resetSecret = (key: keyof EmberscopeSecureOptions) =>
    onOptionsChange({
      ...options,
      secureJsonFields: { ...options.secureJsonFields, [key]: false },
      secureJsonData: { ...options.secureJsonData, [key]: '' },
    });
  const setAuth = (m: AuthMethod) => {
    const next = { ...options, jsonData: { ...jd, authMethod: m }, basicAuth: m === 'basic' };
    // the backend refuses basic authentication and a bearer token together: drop the other one
    if (m !== 'bearer' && options.secureJsonFields?.bearerToken) {
      next.secureJsonFields = { ...options.secureJsonFields, bearerToken: false };
      next.secureJsonData = { ...options.secureJsonData, bearerToken: '' };
    }
    onOptionsChange(next);
  };
  const authProps = convertLegacyAuthProps({ config: options, onChange: onOptionsChange });
  const urlErr = urlProblem(options.url);
  const stepErr = minStepProblem(jd.minStep);
  const lengthErr = maxQueryLengthProblem(jd.maxQueryLength);
  return (
    <Stack direction="column" gap={2}>
      <ConnectionSettings
        config={options}
        onChange={onOptionsChange}
        urlPlaceholder="http://localhost:4040"
        description={
          urlErr ??
          "Any server speaking Grafana Pyroscope's query API (Pyroscope, the embedded Emberscope store) or Parca's. Save & test lists the profile types it holds."
        }
      />
      <ConfigSection title="Profile server">
        <InlineField label="Server" labelWidth={24} tooltip="Which API the server speaks; Detect tells them apart">
          <RadioButtonGroup
            aria-label="Server kind"
            options={SERVER_KINDS}
            value={jd.serverKind ?? 'auto'}
            onChange={(v) => setJson({ serverKind: v })}
          />
        </InlineField>
        <InlineField
          label="Tenant ID"
          labelWidth={24}
          tooltip="Sent as X-Scope-OrgID to a multi-tenant Pyroscope; leave empty otherwise"
        >
          <Input
            aria-label="Tenant ID"
            width={30}
            value={jd.tenantId ?? ''}
            onChange={(e) => setJson({ tenantId: e.currentTarget.value })}
          />
        </InlineField>
      </ConfigSection>
      <Divider />
      <Auth
        {...authProps}
        visibleMethods={[UIAuthMethod.NoAuth, UIAuthMethod.BasicAuth, BEARER]}
        selectedMethod={UI_METHOD[auth]}
        onAuthMethodSelect={(m) => setAuth(m === BEARER ? 'bearer' : m === UIAuthMethod.BasicAuth ? 'basic' : 'none')}
        customMethods={[
          {
            id: BEARER,
            label: 'Bearer token',
            description: 'Sent as Authorization: Bearer <token>',
            component: (
              <InlineField label="Token" labelWidth={24} tooltip="Sent as Authorization: Bearer <token>">
                <SecretInput
                  aria-label="Bearer token"
                  width={40}
                  isConfigured={Boolean(options.secureJsonFields?.bearerToken)}
                  value={options.secureJsonData?.bearerToken ?? ''}
                  onChange={(e) => setSecret('bearerToken', e.currentTarget.value)}
                  onReset={() => resetSecret('bearerToken')}
                />
              </InlineField>
            ),
          },
        ]}
      />
      <Divider />
      <ConfigSection title="Queries">
        <InlineField
          label="Timeout"
          labelWidth={24}
          tooltip="Seconds one call to the profile server may take (default 30)"
        >
          <Input
            aria-label="Timeout"
            type="number"
            min={1}
            width={12}
            placeholder="30"
            value={jd.timeout ?? ''}
            onChange={(e) => {
              const v = e.currentTarget.value;
              setJson({ timeout: v === '' ? undefined : Number(v) });
            }}
          />
        </InlineField>
        <InlineField
          label="Minimal step"
          labelWidth={24}
          invalid={Boolean(stepErr)}
          error={stepErr}
          tooltip="Smallest step of a series (default 15s)"
        >
          <Input
            aria-label="Minimal step"
            width={12}
            placeholder="15s"
            value={jd.minStep ?? ''}
            onChange={(e) => setJson({ minStep: e.currentTarget.value })}
          />
        </InlineField>
        <InlineField
          label="Max query length"
          labelWidth={24}
          invalid={Boolean(lengthErr)}
          error={lengthErr}
          tooltip="The profile server's longest query range (Pyroscope's max_query_length, 1d by default). Longer ranges are queried in pieces and merged. Empty: learned from the server's first refusal."
        >
          <Input
            aria-label="Max query length"
            width={12}
            placeholder="learned"
            value={jd.maxQueryLength ?? ''}
            onChange={(e) => setJson({ maxQueryLength: e.currentTarget.value })}
          />
        </InlineField>
      </ConfigSection>
      <Divider />
      <ConfigSection title="Traces">
        <TracingDatasourceField
          uid={jd.tracingDatasourceUid}
          onChange={(uid) => setJson({ tracingDatasourceUid: uid })}
        />
      </ConfigSection>
      <Divider />
      <SourceSettings
        jsonData={jd}
        githubTokenSet={Boolean(options.secureJsonFields?.githubToken)}
        githubToken={options.secureJsonData?.githubToken ?? ''}
        setJson={setJson}
        setSecret={setSecret}
        resetSecret={resetSecret}
      />
    </Stack>
  );
}
