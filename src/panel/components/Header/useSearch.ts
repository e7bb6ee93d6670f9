// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { useEffect, useMemo } from 'react';
import { FlameData } from '../../../shared/flameData';
import { FlameIndex, warmIndex } from '../../model/flameIndex';
import { Collapsed, shownMatch } from '../../model/collapse';
import { compileSearch, Matcher, matchNames, nameTextSteps, searchNodes, SearchResult } from '../../model/search';
import { formatPercent } from '../../model/format';
import { inIdleSteps } from '../../model/idle';
import { afterPaint } from '../../afterPaint';

export interface SearchMatch {
  matcher?: Matcher;
  /** What the search box's text matches. */
  searchResult?: SearchResult;
  /** The nodes of the highlighted function. */
  highlightResult?: SearchResult;
  /** The marked nodes of the profile's graph (the highlight's, else the search's), and of the drawn one. */
  origMatch?: Uint8Array;
  nodeMatch?: Uint8Array;
  /** What the search or the highlight found, in words ('' when nothing is searched). */
  resultInfo: string;
}

/**
 * The nodes a search or a highlighted function marks. The names' text for plain-text search is
 * made in idle slices after the first paint, so a first search does not wait for it.
 */
export function useSearch(
  data: FlameData,
  index: FlameIndex,
  collapsed: Collapsed | undefined,
  search: string,
  highlight: number
): SearchMatch {
  const matcher = useMemo(() => compileSearch(search), [search]);
  const searchResult = useMemo(
    () => (matcher ? searchNodes(index, matchNames(data, matcher)) : undefined),
    [matcher, index, data]
  );
  const highlightResult = useMemo(() => {
    if (highlight < 0) {
      return undefined;
    }
    const m = new Uint8Array(data.names.length);
    m[highlight] = 1;
    return searchNodes(index, m);
  }, [highlight, index, data]);
  const origMatch = (highlightResult ?? searchResult)?.nodeMatch;
  const nodeMatch = useMemo(
    () => (origMatch && collapsed ? shownMatch(collapsed, origMatch) : origMatch),
    [origMatch, collapsed]
  );
  useEffect(() => {
    let cancelIdle: (() => void) | undefined;
    const cancelPaint = afterPaint(() => {
      const build = nameTextSteps(data);
      cancelIdle = inIdleSteps([(d) => build(d), warmIndex(index)]);
    });
    return () => {
      cancelPaint();
      cancelIdle?.();
    };
  }, [data, index]);
  const resultInfo = highlightResult
    ? `${highlightResult.count} × ${data.names[highlight]} · ${formatPercent(highlightResult.share)} of total`
    : searchResult
      ? `${searchResult.count} match${searchResult.count === 1 ? '' : 'es'} · ${formatPercent(searchResult.share)} of total`
      : '';
  return { matcher, searchResult, highlightResult, origMatch, nodeMatch, resultInfo };
}
