// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { useEffect, useRef } from 'react';
import type { ViewAction } from '../state';
import { encodeLink, ViewLink } from './viewLink';

/**
 * A link the host hands over after the view was made (the query's view changed in the query
 * editor and ran): opened on the view as the `openLink` action. The first link is the view's
 * initial state and is not opened again.
 */
export function useOpenedLink(link: ViewLink | undefined, act: (a: ViewAction) => void) {
  const text = link ? encodeLink(link) : '';
  const seen = useRef(text);
  useEffect(() => {
    if (text !== seen.current) {
      seen.current = text;
      act({ type: 'openLink', link: text ? (JSON.parse(text) as ViewLink) : {} });
    }
  }, [text, act]);
}
