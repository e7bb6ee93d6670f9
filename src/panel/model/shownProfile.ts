// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { FlameData } from '../../shared/flameData';
import { invertFlameData } from './invert';
import { hideFrames, ignoreFrames } from './sampleFilters';

/** How the panel reshapes a profile before drawing it. */
export interface Reshape {
  ignore?: string;
  hide?: string;
  relative?: boolean;
  inverted?: boolean;
}

export interface Reshaped {
  data: FlameData;
  /**
   * The same profile not inverted, for the top table and the sandwich: a function's self and
   * total, and its callers and callees, do not depend on which way up the graph is drawn.
   */
  table: FlameData;
  /** What is wrong with the ignore or hide regex, in words. */
  error?: string;
}

/**
 * The profile as the panel shows it: ignore and hide applied (unless the datasource applied the
 * same ones, by pprof's full rule), inverted when asked, and percentages of the whole total from
 * before ignore and hide unless `relative` (pprof's -relative_percentages). The data itself when
 * nothing changes, so the view keeps its zoom.
 */
export function reshapeProfile(data: FlameData, o: Reshape): Reshaped {
  let out = data;
  const errors: string[] = [];
  const applied = data.sampleFilters;
  const whole = applied?.wholeTotal ?? (data.count > 0 ? data.value[0] : 0);
  const ignore = compile('Ignore', o.ignore, errors);
  if (ignore && !applied?.ignore.includes(o.ignore!)) {
    out = ignoreFrames(out, ignore);
  }
  const hide = compile('Hide', o.hide, errors);
  if (hide && !applied?.hide.includes(o.hide!)) {
    out = hideFrames(out, hide);
  }
  out = withPercentBase(out, whole, o.relative);
  const table = out;
  if (o.inverted) {
    out = withPercentBase(invertFlameData(out), whole, o.relative);
  }
  return errors.length > 0 ? { data: out, table, error: errors.join('; ') } : { data: out, table };
}

/** data with its percentages of whole, or of its own total when relative. */
function withPercentBase(data: FlameData, whole: number, relative?: boolean): FlameData {
  const shownTotal = data.count > 0 ? data.value[0] : 0;
  if (!relative && whole !== shownTotal) {
    return data.wholeTotal === whole ? data : { ...data, wholeTotal: whole };
  }
  return data.wholeTotal === undefined ? data : { ...data, wholeTotal: undefined };
}

function compile(what: string, text: string | undefined, errors: string[]): RegExp | undefined {
  if (!text) {
    return undefined;
  }
  try {
    return new RegExp(text);
  } catch (e) {
    errors.push(`${what}: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}
