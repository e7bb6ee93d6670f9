// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import {
  exploreUrl,
  formOfRule,
  formOfSearch,
  RuleForm,
  ruleOfForm,
  suggestedMetricName,
  trackUrl,
  validateForm,
} from './rules';

const CPU = 'process_cpu:cpu:nanoseconds:cpu:nanoseconds';
const good: RuleForm = {
  metricName: 'profiles_recorded_checkout_cpu',
  profileType: CPU,
  selector: '{service_name="shop", route=~"/api.*"}',
  groupBy: 'env, region',
  functionName: 'encoding/json.Marshal',
  externalLabels: 'team=perf',
};

describe('validateForm', () => {
  it('accepts a rule the server accepts', () => {
    expect(validateForm(good)).toEqual({});
  });

  // the texts are those of the server's refusals (Pyroscope v2.2.1, recordings 91–96)
  it.each([
    [{ metricName: 'bad name' }, 'metricName', 'metric_name "bad name" is invalid: invalid metric name: bad name'],
    [
      { metricName: 'chain_cpu' },
      'metricName',
      'metric_name "chain_cpu" is invalid: metric name must start with profiles_recorded_',
    ],
    [{ metricName: ' ' }, 'metricName', 'metric_name is required'],
    [{ profileType: '' }, 'profileType', 'matchers must contain a "__profile_type__" matcher'],
    [{ groupBy: 'env, not-valid' }, 'groupBy', 'group_by label "not-valid" must match ^[a-zA-Z_][a-zA-Z0-9_]*$'],
    [
      { externalLabels: 'team=perf, bad-name=x' },
      'externalLabels',
      'external_labels name "bad-name" must match ^[a-zA-Z_][a-zA-Z0-9_]*$',
    ],
    [{ externalLabels: 'team' }, 'externalLabels', '"team" is not name=value'],
    [
      { selector: '{service_name=}' },
      'selector',
      'matcher "{service_name=}" is invalid: service_name= is not a matcher such as name="value"',
    ],
    [
      { selector: 'service_name="x"' },
      'selector',
      'matcher "service_name="x"" is invalid: write the matchers in braces: {service_name="api"}',
    ],
  ])('refuses %j in %s', (patch, field, text) => {
    expect(validateForm({ ...good, ...patch })).toEqual({ [field]: text });
  });

  it('keeps a comma inside a quoted value in one matcher', () => {
    expect(validateForm({ ...good, selector: '{route="/a,b", env!="dev"}' })).toEqual({});
    expect(ruleOfForm({ ...good, selector: '{route="/a,b", env!="dev"}' }).matchers).toEqual([
      `{__profile_type__="${CPU}", route="/a,b", env!="dev"}`,
    ]);
  });
});

describe('ruleOfForm and formOfRule', () => {
  it('sends the profile type as the __profile_type__ matcher of one selector', () => {
    expect(ruleOfForm(good)).toEqual({
      metricName: 'profiles_recorded_checkout_cpu',
      matchers: [`{__profile_type__="${CPU}", service_name="shop", route=~"/api.*"}`],
      groupBy: ['env', 'region'],
      externalLabels: [{ name: 'team', value: 'perf' }],
      functionName: 'encoding/json.Marshal',
    });
  });

  it('reads a stored rule back into the same form, with its id and generation for the update', () => {
    const stored = { ...ruleOfForm(good), id: 'abcdefghij', generation: '3', profileType: CPU };
    const form = formOfRule(stored);
    expect(form).toEqual({ ...good, id: 'abcdefghij', generation: '3' });
    expect(ruleOfForm(form)).toMatchObject({ id: 'abcdefghij', generation: 3 });
  });
});

describe('links', () => {
  it('prefills a new rule from the flame graph', () => {
    const url = trackUrl({
      ds: 'ds1',
      profileType: CPU,
      selector: '{service_name="shop"}',
      fn: 'main.(*cityMap).shortestPath',
    });
    expect(url.startsWith('/a/emberscope-app/rules?')).toBe(true);
    expect(formOfSearch(url.slice(url.indexOf('?')))).toEqual({
      metricName: 'profiles_recorded_shortest_path',
      profileType: CPU,
      selector: '{service_name="shop"}',
      groupBy: '',
      functionName: 'main.(*cityMap).shortestPath',
      externalLabels: '',
    });
    expect(formOfSearch('?fn=x')).toBeUndefined();
  });

  it('suggests a valid metric name from any function name', () => {
    for (const fn of ['encoding/json.Marshal', 'main.(*cityMap).shortestPath', 'runtime.mallocgc', '???']) {
      expect(validateForm({ ...good, metricName: suggestedMetricName(fn) }).metricName).toBeUndefined();
    }
  });

  it('opens Explore on the Prometheus datasource with the metric as the query', () => {
    const url = new URL(exploreUrl('prom1', 'profiles_recorded_x'), 'http://grafana');
    expect(url.pathname).toBe('/explore');
    const panes = JSON.parse(url.searchParams.get('panes')!);
    expect(panes.rule.datasource).toBe('prom1');
    expect(panes.rule.queries).toEqual([
      { refId: 'A', datasource: { type: 'prometheus', uid: 'prom1' }, expr: 'profiles_recorded_x' },
    ]);
  });
});
