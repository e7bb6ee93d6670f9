// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FieldType, createDataFrame } from '@grafana/data';
import { interpolateLink, novelPointsOf } from './NoveltyDiffs';

const link = {
  title: 'Diff against the most similar earlier profile',
  internal: {
    datasourceUid: 'emberscope',
    query: {
      queryType: 'diff',
      labelSelector: '{pod="b"}',
      baseline: { from: '${__data.fields.matchFrom}', to: '${__data.fields.matchTo}' },
      comparison: {
        labelSelector: '{pod="b"}',
        from: '${__data.fields.profileFrom}',
        to: '${__data.fields.profileTo}',
      },
    },
  },
};

const scores = createDataFrame({
  name: 'novelty',
  fields: [
    { name: 'time', type: FieldType.time, values: [1000, 2000] },
    { name: 'score', type: FieldType.number, values: [0, 0.7], config: { links: [link as never] } },
    { name: 'profileFrom', type: FieldType.string, values: ['1000', '2000'] },
    { name: 'profileTo', type: FieldType.string, values: ['1001', '2001'] },
    { name: 'matchFrom', type: FieldType.string, values: ['', '1000'] },
    { name: 'matchTo', type: FieldType.string, values: ['', '1001'] },
  ],
});

const annotations = createDataFrame({
  name: 'novelty annotations',
  meta: { dataTopic: 'annotations' as never },
  fields: [
    { name: 'time', type: FieldType.time, values: [2000] },
    { name: 'title', type: FieldType.string, values: ['Novel profile {pod="b"}'] },
    { name: 'text', type: FieldType.string, values: ['Novelty score 0.70 (threshold 0.10).'] },
  ],
});

describe('novelty diffs', () => {
  it('fills the link variables from the clicked row, as Grafana does', () => {
    expect(interpolateLink(link.internal.query, scores, 1)).toEqual({
      queryType: 'diff',
      labelSelector: '{pod="b"}',
      baseline: { from: '1000', to: '1001' },
      comparison: { labelSelector: '{pod="b"}', from: '2000', to: '2001' },
    });
  });

  it('turns each annotation into a point whose query is the diff of its row', () => {
    const points = novelPointsOf([scores], [annotations]);
    expect(points).toHaveLength(1);
    expect(points[0].time).toBe(2000);
    expect(points[0].title).toBe('Novel profile {pod="b"}');
    expect(points[0].query.queryType).toBe('diff');
    expect(points[0].query.refId).toBe('diff');
    expect((points[0].query as unknown as { baseline: unknown }).baseline).toEqual({ from: '1000', to: '1001' });
  });

  it('has no points without annotations or links', () => {
    expect(novelPointsOf([scores], [])).toEqual([]);
  });
});
