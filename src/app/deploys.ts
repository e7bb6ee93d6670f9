// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import type { Line } from './query';
import type { Span } from './state';

/**
 * Labels that name what is deployed, most specific first: Pyroscope's and OpenTelemetry's
 * `service_version`, a bare `version`, then git commit labels (Pyroscope's
 * `service_git_ref`, `__git_commit__`-style ones are hidden, so only visible names count).
 */
export const VERSION_LABELS = [
  'service_version',
  'version',
  'app_version',
  'service_git_ref',
  'git_commit',
  'git_sha',
  'commit',
  'revision',
];

/** The version-like label among names, or undefined. */
export function versionLabel(names: string[]): string | undefined {
  return VERSION_LABELS.find((v) => names.includes(v));
}

/** When one version ran: from its first sample to its last (plus one step). */
export interface Deploy {
  version: string;
  range: Span;
}

/**
 * The deploys of a series grouped by the version label: each value's span of non-zero
 * samples, ordered by when it first appeared. `step` widens each span to cover its last step.
 */
export function deploysOf(lines: Line[], label: string, step: number): Deploy[] {
  const out: Deploy[] = [];
  for (const l of lines) {
    const version = l.labels[label];
    if (version === undefined) {
      continue;
    }
    const ts = l.times.filter((_, i) => l.values[i] > 0);
    if (!ts.length) {
      continue;
    }
    out.push({ version, range: { from: Math.min(...ts), to: Math.max(...ts) + step } });
  }
  return out.sort((a, b) => a.range.from - b.range.from || a.version.localeCompare(b.version));
}

/** "This deploy against the previous one": the last two deploys (baseline the previous). */
export function lastTwoDeploys(deploys: Deploy[]): { baseline: Deploy; comparison: Deploy } | undefined {
  if (deploys.length < 2) {
    return undefined;
  }
  return { baseline: deploys[deploys.length - 2], comparison: deploys[deploys.length - 1] };
}

/** "The last hour against the hour before", ending at `to`. */
export function lastHourPreset(to: number): { baseline: Span; comparison: Span } {
  const h = 3_600_000;
  return { baseline: { from: to - 2 * h, to: to - h }, comparison: { from: to - h, to } };
}
