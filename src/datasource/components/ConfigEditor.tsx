import React from 'react';
import { DataSourcePluginOptionsEditorProps, SelectableValue } from '@grafana/data';
import {
  Divider,
  FieldSet,
  InlineField,
  InlineSwitch,
  Input,
  RadioButtonGroup,
  SecretInput,
  Stack,
  Text,
} from '@grafana/ui';
import { AuthMethod, EmberscopeOptions, EmberscopeSecureOptions, ServerKind } from '../types';

type Props = DataSourcePluginOptionsEditorProps<EmberscopeOptions, EmberscopeSecureOptions>;

const SERVER_KINDS: Array<SelectableValue<ServerKind>> = [
  { value: 'auto', label: 'Detect', description: 'Ask the server which API it speaks at the first query' },
  { value: 'pyroscope', label: 'Pyroscope', description: "Grafana Pyroscope's querier.v1 API (also the embedded store)" },
  { value: 'parca', label: 'Parca', description: "Parca's REST API" },
];

const AUTH: Array<SelectableValue<AuthMethod>> = [
  { value: 'none', label: 'No authentication' },
  { value: 'basic', label: 'Basic authentication' },
  { value: 'bearer', label: 'Bearer token' },
];

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
 * The datasource's settings: the profile server's URL, authentication (basic or bearer token,
 * kept in secureJsonData), tenant, timeout, minimal step and TLS. Save & test lists the server's
 * profile types, or says why it could not.
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
  const urlErr = urlProblem(options.url);
  const stepErr = minStepProblem(jd.minStep);
  return (
    <Stack direction="column" gap={2}>
      <FieldSet label="Profile server">
        <Text color="secondary" element="p">
          Any server speaking Grafana Pyroscope&apos;s query API (Pyroscope, the embedded Emberscope store) or
          Parca&apos;s. Save &amp; test lists the profile types it holds.
        </Text>
        <InlineField label="URL" labelWidth={20} invalid={Boolean(urlErr)} error={urlErr} required>
          <Input
            aria-label="URL"
            width={50}
            placeholder="http://localhost:4040"
            value={options.url ?? ''}
            onChange={(e) => onOptionsChange({ ...options, url: e.currentTarget.value })}
          />
        </InlineField>
        <InlineField label="Server" labelWidth={20} tooltip="Which API the server speaks; Detect tells them apart">
          <RadioButtonGroup
            aria-label="Server kind"
            options={SERVER_KINDS}
            value={jd.serverKind ?? 'auto'}
            onChange={(v) => setJson({ serverKind: v })}
          />
        </InlineField>
        <InlineField
          label="Tenant ID"
          labelWidth={20}
          tooltip="Sent as X-Scope-OrgID to a multi-tenant Pyroscope; leave empty otherwise"
        >
          <Input
            aria-label="Tenant ID"
            width={30}
            value={jd.tenantId ?? ''}
            onChange={(e) => setJson({ tenantId: e.currentTarget.value })}
          />
        </InlineField>
      </FieldSet>
      <Divider />
      <FieldSet label="Authentication">
        <InlineField label="Method" labelWidth={20}>
          <RadioButtonGroup aria-label="Authentication method" options={AUTH} value={auth} onChange={setAuth} />
        </InlineField>
        {auth === 'basic' && (
          <>
            <InlineField label="User" labelWidth={20} invalid={!options.basicAuthUser} error="Required">
              <Input
                aria-label="Basic auth user"
                width={30}
                value={options.basicAuthUser ?? ''}
                onChange={(e) => onOptionsChange({ ...options, basicAuthUser: e.currentTarget.value })}
              />
            </InlineField>
            <InlineField label="Password" labelWidth={20}>
              <SecretInput
                aria-label="Basic auth password"
                width={30}
                isConfigured={Boolean(options.secureJsonFields?.basicAuthPassword)}
                value={options.secureJsonData?.basicAuthPassword ?? ''}
                onChange={(e) => setSecret('basicAuthPassword', e.currentTarget.value)}
                onReset={() => resetSecret('basicAuthPassword')}
              />
            </InlineField>
          </>
        )}
        {auth === 'bearer' && (
          <InlineField label="Token" labelWidth={20} tooltip="Sent as Authorization: Bearer <token>">
            <SecretInput
              aria-label="Bearer token"
              width={50}
              isConfigured={Boolean(options.secureJsonFields?.bearerToken)}
              value={options.secureJsonData?.bearerToken ?? ''}
              onChange={(e) => setSecret('bearerToken', e.currentTarget.value)}
              onReset={() => resetSecret('bearerToken')}
            />
          </InlineField>
        )}
        <InlineField
          label="Skip TLS verify"
          labelWidth={20}
          tooltip="Accept any certificate of the server (testing only)"
        >
          <InlineSwitch
            aria-label="Skip TLS verify"
            value={Boolean(jd.tlsSkipVerify)}
            onChange={(e) => setJson({ tlsSkipVerify: e.currentTarget.checked })}
          />
        </InlineField>
      </FieldSet>
      <Divider />
      <FieldSet label="Queries">
        <InlineField
          label="Timeout"
          labelWidth={20}
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
          labelWidth={20}
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
      </FieldSet>
    </Stack>
  );
}
