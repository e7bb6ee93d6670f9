// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { applySuggestion, completionContext, rank, suggestionsFor } from './completion';
import { FakeResourceClient, rideShareSeries, CPU } from '../testing/fakeClient';
import { scopeToProfileType } from './selector';

const at = (textWithCursor: string, mode: 'selector' | 'expr' = 'selector') => {
  const cursor = textWithCursor.indexOf('|');
  const text = textWithCursor.replace('|', '');
  return { text, ctx: completionContext(text, cursor, mode) };
};

describe('completionContext', () => {
  it('offers label names after "{" and ",", scoped by the other matchers', () => {
    expect(at('{|}').ctx).toMatchObject({ kind: 'labelName', prefix: '', scope: '{}' });
    expect(at('{region="eu-north", veh|}').ctx).toMatchObject({
      kind: 'labelName',
      prefix: 'veh',
      scope: '{region="eu-north"}',
    });
  });

  it('offers operators after a complete label name', () => {
    expect(at('{region |}').ctx.kind).toBe('operator');
  });

  it('offers values after "=" and inside "="…', () => {
    expect(at('{region=|}').ctx).toMatchObject({ kind: 'labelValue', label: 'region', prefix: '' });
    expect(at('{region="eu|}').ctx).toMatchObject({ kind: 'labelValue', label: 'region', prefix: 'eu' });
    expect(at('{vehicle="car", region=~"|"}').ctx).toMatchObject({
      kind: 'labelValue',
      label: 'region',
      scope: '{vehicle="car"}',
    });
  });

  it('reads the profile type written before the selector of a query text', () => {
    expect(at(`${CPU}{region=|}`, 'expr').ctx).toMatchObject({ kind: 'labelValue', profileTypeId: CPU });
  });

  it('offers functions and profile types at the start of a query text and of an argument', () => {
    expect(at('fo|', 'expr').ctx).toMatchObject({ kind: 'exprStart', prefix: 'fo' });
    expect(at('reverse(|', 'expr').ctx.kind).toBe('exprStart');
  });

  it('offers label names inside "by ( … )", scoped by the selector before it', () => {
    expect(at(`${CPU}{region="eu-north"} by (ve|`, 'expr').ctx).toMatchObject({
      kind: 'labelName',
      prefix: 've',
      scope: '{region="eu-north"}',
      profileTypeId: CPU,
    });
  });

  it('offers quoted label names as the label arguments of frames_from_label', () => {
    expect(at(`frames_from_label(${CPU}{vehicle="car"}, "reg|`, 'expr').ctx).toMatchObject({
      kind: 'labelName',
      quoted: true,
      prefix: 'reg',
      scope: '{vehicle="car"}',
      profileTypeId: CPU,
    });
    expect(at(`frames_from_label(${CPU}{}, "region", sep="|")`, 'expr').ctx.kind).toBe('none');
    expect(at(`focus(${CPU}{}, "ma|")`, 'expr').ctx.kind).toBe('none');
  });

  it('offers nothing outside a selector in selector mode, or after a closed value', () => {
    expect(at('reg|').ctx.kind).toBe('none');
    expect(at('{region="x"|}').ctx.kind).toBe('none');
  });
});

describe('suggestionsFor and applySuggestion', () => {
  const client = new FakeResourceClient(rideShareSeries());
  const src = {
    labelNames: (scope: string, pt?: string) => client.labelNames(scopeToProfileType(scope, pt ?? CPU)),
    labelValues: (l: string, scope: string, pt?: string) => client.labelValues(l, scopeToProfileType(scope, pt ?? CPU)),
    profileTypes: () => client.profileTypes(),
  };

  it('hides internal labels and quotes chosen values', async () => {
    const { text, ctx } = at('{|}');
    const names = await suggestionsFor(ctx, src);
    expect(names.map((s) => s.label)).toEqual(['region', 'service_name', 'vehicle']);
    const v = at('{region=|}');
    const values = await suggestionsFor(v.ctx, src);
    expect(values.map((s) => s.label)).toEqual(['ap-south', 'eu-north', 'us-east']);
    expect(applySuggestion(v.text, v.ctx, values[1])).toEqual({ text: '{region="eu-north"}', cursor: 18 });
    expect(applySuggestion(text, ctx, names[2]).text).toBe('{vehicle}');
  });

  it('replaces a half-typed quoted value, keeping the closing brace', async () => {
    const { text, ctx } = at('{region="eu|}');
    const values = await suggestionsFor(ctx, src);
    expect(values.map((s) => s.label)).toEqual(['eu-north']);
    expect(applySuggestion(text, ctx, values[0]).text).toBe('{region="eu-north"}');
  });

  it('quotes a label name chosen inside a string argument', async () => {
    const { text, ctx } = at(`frames_from_label(${CPU}{}, "veh|")`, 'expr');
    const s = await suggestionsFor(ctx, src);
    expect(s.map((x) => x.label)).toEqual(['vehicle']);
    expect(applySuggestion(text, ctx, s[0]).text).toBe(`frames_from_label(${CPU}{}, "vehicle")`);
  });

  it('ranks words starting with what is typed before words containing it', async () => {
    expect(rank(['xregion', 'Region', 'pod', 'reg'], 'reg', (x) => x)).toEqual(['Region', 'reg', 'xregion']);
    const { ctx } = at('ru|', 'expr');
    const s = await suggestionsFor(ctx, src);
    expect(s.map((x) => x.label)).toEqual(['truncate']);
    const all = await suggestionsFor(at('|', 'expr').ctx, src);
    expect(all.map((x) => x.label)).toContain('frames_from_label');
    expect(all.map((x) => x.label)).toContain(CPU);
  });
});
