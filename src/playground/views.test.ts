// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { createDataFrame, FieldType } from '@grafana/data';
import { addressText, livePolling, viewsOf } from './views';
import { markersOf } from './seriesData';
import { cellText } from './ResultTable';

describe('playground views', () => {
  it('draws what each query type returns', () => {
    expect(viewsOf('both')).toEqual({ series: true, flame: true, table: false });
    expect(viewsOf('profile')).toEqual({ series: false, flame: true, table: false });
    expect(viewsOf('diff')).toEqual({ series: false, flame: true, table: false });
    expect(viewsOf('metrics')).toEqual({ series: true, flame: false, table: false });
    expect(viewsOf('novelty')).toEqual({ series: true, flame: false, table: false });
    expect(viewsOf('topTable')).toEqual({ series: false, flame: false, table: true });
    expect(viewsOf('labels')).toEqual({ series: false, flame: false, table: true });
  });

  it('puts the query text in the address, or the structured fields written as text', () => {
    expect(addressText({ refId: 'A', expr: ' reverse(t{}) ', profileTypeId: 'x' })).toBe('reverse(t{})');
    expect(addressText({ refId: 'A', profileTypeId: 't', labelSelector: '{a="b"}', groupBy: ['r'] })).toBe(
      't{a="b"} by (r)'
    );
    expect(addressText({ refId: 'A' })).toBe('');
  });

  it('polls a live query every live interval over its window, with the backend defaults', () => {
    expect(livePolling({ refId: 'A', live: true })).toEqual({ every: 10_000, window: 900_000 });
    expect(livePolling({ refId: 'A', live: true, liveInterval: '1s', liveWindow: '5m' })).toEqual({
      every: 1000,
      window: 300_000,
    });
    expect(livePolling({ refId: 'A', live: true, liveInterval: 'often' }).every).toBe(10_000);
  });

  it('marks the windows of an annotations frame with their titles', () => {
    const f = createDataFrame({
      name: 'novelty annotations',
      meta: { dataTopic: 'annotations' as never },
      fields: [
        { name: 'time', type: FieldType.time, values: [1000, 5000] },
        { name: 'timeEnd', type: FieldType.time, values: [2000, 6000] },
        { name: 'title', type: FieldType.string, values: ['Novel profile {route="a"}', 'Novel profile'] },
      ],
    });
    expect(markersOf([f])).toEqual([
      { from: 1000, to: 2000, title: 'Novel profile {route="a"}' },
      { from: 5000, to: 6000, title: 'Novel profile' },
    ]);
  });

  it('formats table cells in their unit, and a share as a percentage', () => {
    const f = createDataFrame({
      fields: [
        { name: 'value', type: FieldType.string, values: ['/api/orders'] },
        { name: 'total', type: FieldType.number, values: [1_500_000_000], config: { unit: 'ns' } },
        { name: 'share', type: FieldType.number, values: [0.625] },
      ],
    });
    expect(cellText(f.fields[0], 0)).toBe('/api/orders');
    expect(cellText(f.fields[1], 0)).toBe('1.50 s');
    expect(cellText(f.fields[2], 0)).toBe('62.5%');
  });
});
