// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { parseVariableQuery } from './variables';
import { describeExportError, exportFileName } from './export';
import { optionsSummary } from './components/OptionsRow';

describe('parseVariableQuery', () => {
  it('reads the text forms of variable queries', () => {
    expect(parseVariableQuery('profile_types()')).toMatchObject({ type: 'profileTypes' });
    expect(parseVariableQuery('label_names({service_name="api"})')).toMatchObject({
      type: 'labelNames',
      labelSelector: '{service_name="api"}',
    });
    expect(parseVariableQuery(' label_values( {a="x, y"} , region ) ')).toMatchObject({
      type: 'labelValues',
      label: 'region',
      labelSelector: '{a="x, y"}',
    });
  });

  it('names what is wrong', () => {
    expect(() => parseVariableQuery('labels()')).toThrow('unknown function "labels"');
    expect(() => parseVariableQuery('region')).toThrow('expected profile_types()');
  });
});

describe('export helpers', () => {
  it('names files after the profile and range', () => {
    expect(
      exportFileName(
        { refId: 'A', profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds' },
        { from: Date.UTC(2026, 10, 29, 10, 0, 0), to: Date.UTC(2026, 10, 29, 11, 0, 0) },
        'pb.gz'
      )
    ).toBe('emberscope-process_cpu-20261129T100000Z-20261129T110000Z.pb.gz');
  });

  it('says plainly when the backend has no export, and passes its message otherwise', async () => {
    expect(await describeExportError({ status: 404, data: { message: 'Not found' } })).toBe(
      'The datasource\'s backend has no pprof export (HTTP 404 on resource "export"): Not found'
    );
    const blob = new Blob([JSON.stringify({ error: 'profileTypeId: required' })]);
    expect(await describeExportError({ status: 400, data: blob })).toBe(
      'Export failed (HTTP 400): profileTypeId: required'
    );
  });
});

it('summarises options with defaults filled in', () => {
  expect(optionsSummary({ refId: 'A' }, 'profile')).toBe('Type: profile, Max nodes: 16384');
  expect(optionsSummary({ refId: 'A', queryType: 'both', groupBy: ['region'], maxNodes: 16384 }, 'profile')).toBe(
    'Type: both, Group by: region, Max nodes: 16384'
  );
});
