// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import fs from 'fs';
import path from 'path';
import { percentBase } from '../../shared/flameData';
import { flameOfTraces } from '../testing/frames';
import { parseTop } from '../testing/pprofText';
import { reshapeProfile } from './shownProfile';

const PROFILES = path.join(__dirname, '../../../internal/fixtures/profiles');
const read = (file: string) => fs.readFileSync(path.join(PROFILES, file), 'utf8');

describe('the profile the panel shows', () => {
  const data = flameOfTraces(read('browser.cpu.traces.txt'));
  const ignored = parseTop(read('browser.cpu.ignore-sha256.top.txt'));

  it('is the data itself when nothing reshapes it, so the view keeps its zoom', () => {
    expect(reshapeProfile(data, { ignore: '', hide: '', relative: false, inverted: false }).data).toBe(data);
  });

  it("gives percentages of the whole before ignore, as pprof's header does", () => {
    const shown = reshapeProfile(data, { ignore: 'sha256' }).data;
    expect(shown.value[0]).toBe(ignored.shown);
    expect(percentBase(shown)).toBe(ignored.percentOf);
  });

  it("gives percentages of what is shown when relative, as pprof's -relative_percentages", () => {
    const shown = reshapeProfile(data, { ignore: 'sha256', relative: true }).data;
    expect(percentBase(shown)).toBe(ignored.shown);
  });

  it('does not filter again what the datasource filtered, and takes its whole total', () => {
    const fromServer = { ...data, sampleFilters: { ignore: ['sha256'], hide: [], wholeTotal: 5e9 } };
    const shown = reshapeProfile(fromServer, { ignore: 'sha256' }).data;
    expect(shown.value[0]).toBe(data.value[0]);
    expect(percentBase(shown)).toBe(5e9);
  });

  it('keeps the top table the right way up when the graph is inverted', () => {
    const r = reshapeProfile(data, { inverted: true });
    expect(r.table).toBe(data);
    expect(r.data).not.toBe(data);
    expect(r.data.value[0]).toBe(data.value[0]);
  });

  it('says what is wrong with a regex, and shows the profile unfiltered', () => {
    const r = reshapeProfile(data, { hide: '(' });
    expect(r.error).toMatch(/^Hide: .*(unterminated|missing|\))/i);
    expect(r.data.value[0]).toBe(data.value[0]);
  });
});
