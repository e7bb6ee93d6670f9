// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import fs from 'fs';
import path from 'path';
import appPlugin from '../plugin.json';
import { PANEL_ID } from '../panel/suggestions';

/** The panel each query type belongs on: ours for flamegraphs, Grafana's time series for series. */
const PANEL_FOR: Record<string, string> = {
  profile: PANEL_ID,
  diff: PANEL_ID,
  metrics: 'timeseries',
};

const REPO = path.join(__dirname, '..', '..');
const shipped = fs.readdirSync(__dirname).filter((f) => f.endsWith('.json'));
const provisioned = fs
  .readdirSync(path.join(REPO, 'provisioning', 'dashboards'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => path.join('provisioning', 'dashboards', f));

interface Panel {
  type: string;
  title: string;
  targets?: Array<{ queryType?: string; datasource?: { type?: string } }>;
}

describe('dashboards', () => {
  it('the app plugin declares every dashboard it ships, at its path in the bundle', () => {
    const declared = appPlugin.includes.filter((i) => i.type === 'dashboard').map((i) => (i as { path: string }).path);
    expect(shipped.length).toBeGreaterThan(0);
    expect(declared.sort()).toEqual(shipped.map((f) => `dashboards/${f}`).sort());
  });

  it.each([...shipped.map((f) => path.join('src', 'dashboards', f)), ...provisioned])(
    '%s puts profile and diff queries on our panel and metrics on the time series panel',
    (file) => {
      const d = JSON.parse(fs.readFileSync(path.join(REPO, file), 'utf8'));
      const seen = new Set<string>();
      for (const p of d.panels as Panel[]) {
        for (const t of p.targets ?? []) {
          expect(t.datasource?.type).toBe('emberscope-datasource');
          const want = PANEL_FOR[t.queryType ?? ''];
          if (want) {
            expect([p.title, t.queryType, p.type]).toEqual([p.title, t.queryType, want]);
            seen.add(t.queryType!);
          }
        }
      }
      expect([...seen].sort()).toEqual(['diff', 'metrics', 'profile']);
    }
  );

  it.each(shipped.map((f) => path.join('src', 'dashboards', f)))(
    '%s chooses its data source by type: no uid users lack, every query on the variable',
    (file) => {
      const d = JSON.parse(fs.readFileSync(path.join(REPO, file), 'utf8'));
      const ds = d.templating.list.find((v: { type: string }) => v.type === 'datasource');
      expect(ds).toMatchObject({ name: 'datasource', query: 'emberscope-datasource' });
      // a current value would be a uid of the author's Grafana; without it Grafana picks the
      // default data source of that type, or the first one
      expect(ds.current?.value).toBeUndefined();
      for (const p of d.panels as Array<Panel & { datasource?: { uid?: string } }>) {
        expect([p.title, p.datasource?.uid]).toEqual([p.title, '${datasource}']);
      }
    }
  );

  it.each([...shipped.map((f) => path.join('src', 'dashboards', f)), ...provisioned])(
    '%s gives each bar of a bar gauge at least 24 px (Grafana: 30 px a grid row, 8 px gaps, a 32 px header)',
    (file) => {
      const d = JSON.parse(fs.readFileSync(path.join(REPO, file), 'utf8'));
      // "CPU by category" showed 10 bars in Grafana 12.4 on the demo's data, and cut the 10th
      const bars = 10;
      for (const p of d.panels as Array<Panel & { gridPos: { h: number } }>) {
        if (p.type === 'bargauge') {
          const inner = p.gridPos.h * 30 + (p.gridPos.h - 1) * 8 - 32;
          expect([p.title, Math.floor(inner / bars) >= 24]).toEqual([p.title, true]);
        }
      }
    }
  );
});
