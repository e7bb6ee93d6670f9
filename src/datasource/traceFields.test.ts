// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { ScopedVars } from '@grafana/data';
import { interpolateQuery } from './interpolate';
import { EmberscopeQuery } from './types';
import { parseSpanIds } from './components/TraceOptions';

/** Grafana's templateSrv for `$span` (two values, as a trace's span ids) and `$profile`. */
const templateSrv = {
  replace: (s: string, _v?: ScopedVars, format?: unknown) =>
    s
      .replace('$span', format === 'csv' ? '122b3e7d77a267a7,1cc9f22ddacba4ff' : '{122b3e7d77a267a7,1cc9f22ddacba4ff}')
      .replace('$profile', '25b7a4ca-04d8-40d8-96a0-57b70fa5208a'),
};

describe('trace fields of a query', () => {
  it('are kept as Grafana’s Pyroscope datasource wrote them, with variables replaced', () => {
    // the query Grafana's traces-to-profiles sends to its own Pyroscope datasource
    const moved: EmberscopeQuery = {
      refId: 'A',
      queryType: 'profile',
      profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds',
      labelSelector: '{service_name="rec-spans"}',
      groupBy: [],
      spanSelector: ['$span'],
      profileIdSelector: ['$profile'],
      includeExemplars: true,
      heatmapType: 'span',
    };
    const out = interpolateQuery(moved, templateSrv);
    expect(out.spanSelector).toEqual(['122b3e7d77a267a7', '1cc9f22ddacba4ff']);
    expect(out.profileIdSelector).toEqual(['25b7a4ca-04d8-40d8-96a0-57b70fa5208a']);
    expect(out.includeExemplars).toBe(true);
    expect(out.heatmapType).toBe('span');
    expect(moved.spanSelector).toEqual(['$span']);
  });

  it('read the Span IDs field: commas or spaces between ids, a wrong id named', () => {
    expect(parseSpanIds(' 122b3e7d77a267a7, 1cc9f22ddacba4ff ')).toEqual({
      ids: ['122b3e7d77a267a7', '1cc9f22ddacba4ff'],
    });
    expect(parseSpanIds('')).toEqual({ ids: [] });
    expect(parseSpanIds('122b3e7d77a267a7 not-hex').bad).toBe('not-hex');
    expect(parseSpanIds('122b3e7d77a267a').bad).toBe('122b3e7d77a267a');
    expect(parseSpanIds('$span').bad).toBeUndefined();
  });
});
