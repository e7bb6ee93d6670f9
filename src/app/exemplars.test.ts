// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FieldType, createDataFrame } from '@grafana/data';
import { exemplarsOf, parsePick, pickOf, pickQuery, traceUrl } from './exemplars';
import { msRange } from './query';

describe('the Spans page’s exemplars', () => {
  it('reads span and profile exemplar frames, and nothing else', () => {
    const spans = createDataFrame({
      name: 'exemplar',
      fields: [
        { name: 'Time', type: FieldType.time, values: [1000, 2000] },
        { name: 'Value', type: FieldType.number, values: [5, 7] },
        { name: 'Id', type: FieldType.string, values: ['00000000000000a1', '00000000000000b2'], config: { displayName: 'Span ID' } },
        { name: 'traceId', type: FieldType.string, values: ['t1', ''] },
      ],
    });
    const profiles = createDataFrame({
      name: 'exemplar',
      fields: [
        { name: 'Time', type: FieldType.time, values: [3000] },
        { name: 'Value', type: FieldType.number, values: [9] },
        { name: 'Id', type: FieldType.string, values: ['p-1'], config: { displayName: 'Profile ID' } },
      ],
    });
    const other = createDataFrame({ name: 'heatmap', fields: [{ name: 'Id', type: FieldType.string, values: ['x'] }] });
    expect(exemplarsOf([spans, profiles, other])).toEqual([
      { time: 1000, value: 5, id: '00000000000000a1', kind: 'span', traceId: 't1' },
      { time: 2000, value: 7, id: '00000000000000b2', kind: 'span', traceId: undefined },
      { time: 3000, value: 9, id: 'p-1', kind: 'profile', traceId: undefined },
    ]);
  });

  it('picks round-trip, and a pick becomes that span’s or that profile’s query', () => {
    const e = { kind: 'span' as const, id: '00000000000000a1' };
    expect(parsePick(pickOf(e))).toEqual(e);
    expect(parsePick('trace:1')).toBeUndefined();
    expect(parsePick(undefined)).toBeUndefined();
    expect(pickQuery(e, 'cpu', '{service_name="a"}')).toMatchObject({
      queryType: 'profile',
      spanSelector: ['00000000000000a1'],
      labelSelector: '{service_name="a"}',
    });
    const p = pickQuery({ kind: 'profile', id: 'p-1' }, 'cpu', '{}');
    expect(p.profileIdSelector).toEqual(['p-1']);
    expect(p.spanSelector).toBeUndefined();
  });

  it('links a trace id to Explore on the tracing datasource', () => {
    const u = new URL(traceUrl('tempo-uid', 'abc123', msRange(1000, 2000)), 'http://x');
    expect(u.pathname).toBe('/explore');
    const panes = JSON.parse(u.searchParams.get('panes')!);
    const pane = Object.values(panes)[0] as { datasource: string; queries: Array<Record<string, unknown>>; range: unknown };
    expect(pane.datasource).toBe('tempo-uid');
    expect(pane.queries[0]).toMatchObject({ queryType: 'traceql', query: 'abc123', datasource: { uid: 'tempo-uid' } });
    expect(pane.range).toEqual({ from: '1000', to: '2000' });
  });
});
