// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { buildExpr, formatSelector, mapExprSelectors, parseSelector, withMatchers } from './selector';

describe('parseSelector', () => {
  it('reads matchers with all four operators and escaped quotes', () => {
    expect(parseSelector('{a="x", b!="y", c=~"eu.*", d!~"z\\"q"}')).toEqual([
      { name: 'a', op: '=', value: 'x' },
      { name: 'b', op: '!=', value: 'y' },
      { name: 'c', op: '=~', value: 'eu.*' },
      { name: 'd', op: '!~', value: 'z"q' },
    ]);
    expect(parseSelector('')).toEqual([]);
    expect(parseSelector(' {} ')).toEqual([]);
  });

  it('says where a selector is wrong and what was expected', () => {
    expect(() => parseSelector('{a="x" b="y"}')).toThrow('1:8: expected "," or "}" after a matcher, found "b"');
    expect(() => parseSelector('{a=x}')).toThrow('1:4: expected a quoted value after "a=", found "x"');
    expect(() => parseSelector('a="x"')).toThrow('1:1: expected "{" to start the selector');
    expect(() => parseSelector('{a="x}')).toThrow('1:4: the quoted value is not closed');
  });

  it('formats back what it reads', () => {
    const text = '{a="x", b=~"e\\\\d+\\"q"}';
    expect(formatSelector(parseSelector(text))).toBe(text);
  });
});

describe('withMatchers and mapExprSelectors', () => {
  it('appends new matchers once, or replaces those on the same label', () => {
    expect(withMatchers('{a="x"}', [{ name: 'a', op: '=', value: 'x' }])).toBe('{a="x"}');
    expect(withMatchers('{a="x"}', [{ name: 'a', op: '!=', value: 'y' }])).toBe('{a="x", a!="y"}');
    expect(withMatchers('{a="x", b="y"}', [{ name: 'a', op: '=', value: 'z' }], true)).toBe('{b="y", a="z"}');
  });

  it('rewrites every selector of a query text, and adds one after a bare profile type', () => {
    const add = (s: string) => withMatchers(s, [{ name: 'r', op: '=', value: 'eu' }]);
    expect(mapExprSelectors('reverse(cpu:a:b:c:d{s="x"}) ', add)).toBe('reverse(cpu:a:b:c:d{s="x", r="eu"}) ');
    expect(mapExprSelectors('cpu:a:b:c:d by (v)', add)).toBe('cpu:a:b:c:d{r="eu"} by (v)');
  });

  it('builds the text form of the structured fields', () => {
    expect(buildExpr('cpu:a:b:c:d', '', ['region', 'vehicle'])).toBe('cpu:a:b:c:d{} by (region, vehicle)');
  });
});
