// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import {
  DataSourceInstanceSettings,
  DataSourcePluginMeta,
  PluginType,
  ScopedVars,
  TypedVariableModel,
} from '@grafana/data';
import {
  BackendSrv,
  BackendSrvRequest,
  DataSourceSrv,
  FetchResponse,
  TemplateSrv,
  setBackendSrv,
  setDataSourceSrv,
  setTemplateSrv,
} from '@grafana/runtime';
import { Observable, from } from 'rxjs';
import { DataSource } from '../../datasource/datasource';
import type { EmberscopeOptions } from '../../datasource/types';
import { DATASOURCE_UID } from '../api';

/**
 * The playground's stand-ins for Grafana's frontend services, installed with @grafana/runtime's
 * own setters so that the app, the datasource class and @grafana/runtime's hooks run unchanged:
 * a backend service over `fetch` (the playground answers Grafana's HTTP API:
 * `/api/ds/query`, the datasource's resources and health), a datasource service holding the
 * one Emberscope datasource the playground serves, and a template service without variables.
 */

/** The error Grafana's backend service raises: the status and the parsed body. */
interface FetchErr {
  status: number;
  statusText: string;
  data: unknown;
  config: BackendSrvRequest;
  message: string;
}

async function doFetch<T>(options: BackendSrvRequest): Promise<FetchResponse<T>> {
  const params = options.params ? `?${new URLSearchParams(options.params as Record<string, string>)}` : '';
  const url = `${options.url}${params}`;
  const hasBody = options.data !== undefined && options.method && options.method !== 'GET';
  // a Blob (a file's chunk) is sent as it is, as Grafana's backend service does
  const blob = options.data instanceof Blob;
  const res = await fetch(url, {
    method: options.method ?? 'GET',
    headers: { ...(hasBody && !blob ? { 'Content-Type': 'application/json' } : {}), ...(options.headers ?? {}) },
    body: hasBody ? (blob ? (options.data as Blob) : JSON.stringify(options.data)) : undefined,
  });
  let data: unknown;
  if (options.responseType === 'blob') {
    data = await res.blob();
  } else {
    const text = await res.text();
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      data = text;
    }
  }
  if (!res.ok) {
    const body = data as { message?: string; error?: string } | undefined;
    const err: FetchErr = {
      status: res.status,
      statusText: res.statusText,
      data: typeof body === 'object' ? body : { message: String(body) },
      config: options,
      message: body?.message ?? body?.error ?? `HTTP ${res.status}`,
    };
    throw err;
  }
  return {
    data: data as T,
    status: res.status,
    statusText: res.statusText,
    ok: res.ok,
    headers: res.headers,
    redirected: res.redirected,
    type: res.type,
    url: res.url,
    config: options,
  };
}

/** Grafana's backend service over `fetch`. */
export const backendSrv = {
  fetch: <T>(options: BackendSrvRequest): Observable<FetchResponse<T>> => from(doFetch<T>(options)),
  request: async <T>(options: BackendSrvRequest): Promise<T> => (await doFetch<T>(options)).data,
  datasourceRequest: <T>(options: BackendSrvRequest) => doFetch<T>(options),
  get: async <T>(url: string, params?: BackendSrvRequest['params'], _id?: string, options?: Partial<BackendSrvRequest>) =>
    (await doFetch<T>({ ...options, url, params, method: 'GET' })).data,
  post: async <T>(url: string, data?: unknown, options?: Partial<BackendSrvRequest>) =>
    (await doFetch<T>({ ...options, url, data, method: 'POST' })).data,
  put: async <T>(url: string, data?: unknown, options?: Partial<BackendSrvRequest>) =>
    (await doFetch<T>({ ...options, url, data, method: 'PUT' })).data,
  patch: async <T>(url: string, data?: unknown, options?: Partial<BackendSrvRequest>) =>
    (await doFetch<T>({ ...options, url, data, method: 'PATCH' })).data,
  delete: async <T>(url: string, data?: unknown, options?: Partial<BackendSrvRequest>) =>
    (await doFetch<T>({ ...options, url, data, method: 'DELETE' })).data,
  resolveCancelerIfExists: () => {},
} as unknown as BackendSrv;

// an icon the playground serves (it has no plugin folders)
const logo = 'public/build/img/icons/unicons/fire.svg';

/** The instance settings of the datasource the playground serves. */
export const instanceSettings: DataSourceInstanceSettings<EmberscopeOptions> = {
  id: 1,
  uid: DATASOURCE_UID,
  type: 'emberscope-datasource',
  name: 'Emberscope',
  access: 'proxy',
  readOnly: true,
  isDefault: true,
  jsonData: {},
  meta: {
    id: 'emberscope-datasource',
    name: 'Emberscope',
    type: PluginType.datasource,
    module: '',
    baseUrl: '',
    backend: true,
    metrics: true,
    info: {
      author: { name: 'Emberscope' },
      description: 'Continuous profiling',
      links: [],
      logos: { small: logo, large: logo },
      screenshots: [],
      updated: '',
      version: '',
    },
  } as DataSourcePluginMeta<EmberscopeOptions>,
};

/** A template service without variables: text passes through unchanged. */
export const templateSrv: TemplateSrv = {
  getVariables: () => [] as TypedVariableModel[],
  replace: (target?: string, _scopedVars?: ScopedVars) => target ?? '',
  containsTemplate: () => false,
  updateTimeRange: () => {},
  getAdhocFilters: () => [],
} as unknown as TemplateSrv;

let datasource: DataSource | undefined;

const matches = (ref: unknown) => {
  if (ref === null || ref === undefined) {
    return true;
  }
  const uid = typeof ref === 'string' ? ref : (ref as { uid?: string }).uid;
  return !uid || uid === DATASOURCE_UID || uid === instanceSettings.name;
};

/** Grafana's datasource service, knowing the one datasource the playground serves. */
export const dataSourceSrv = {
  get: async (ref?: unknown) => {
    if (!matches(ref)) {
      throw new Error(`Datasource ${JSON.stringify(ref)} was not found: the playground serves only uid "${DATASOURCE_UID}"`);
    }
    datasource = datasource ?? new DataSource(instanceSettings, templateSrv);
    return datasource;
  },
  getList: (filters?: { pluginId?: string }) =>
    !filters?.pluginId || filters.pluginId === instanceSettings.type ? [instanceSettings] : [],
  getInstanceSettings: (ref?: unknown) => (matches(ref) ? instanceSettings : undefined),
  reload: async () => {},
  registerRuntimeDataSource: () => {},
} as unknown as DataSourceSrv;

/** Installs the stand-ins into @grafana/runtime. */
export function installStandIns() {
  setBackendSrv(backendSrv);
  setTemplateSrv(templateSrv);
  setDataSourceSrv(dataSourceSrv);
}
