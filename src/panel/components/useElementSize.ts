// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { RefObject, useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';

/** The content-box size of an element, kept up to date with a ResizeObserver. */
export function useElementSize(ref: RefObject<HTMLElement | null>): { width: number; height: number } {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) {
      return;
    }
    const update = () => {
      const width = el.clientWidth;
      const height = el.clientHeight;
      setSize((s) => (s.width === width && s.height === height ? s : { width, height }));
    };
    update();
    if (typeof ResizeObserver === 'undefined') {
      return;
    }
    const ro = new ResizeObserver(update);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return size;
}

/**
 * The height of an element (padding box, as clientHeight), starting from `guess` without
 * reading the layout: the first render sizes what depends on it from the guess, and a
 * ResizeObserver (whose first report comes after the browser's own layout, before the frame
 * is painted) corrects it in that same frame, rendering synchronously so a wrong guess is
 * never painted; later changes are ordinary updates, as with `useElementSize`. Unlike
 * `useElementSize`, the first commit forces no layout and needs no second render when the
 * guess holds.
 */
export function useElementHeight(ref: RefObject<HTMLElement | null>, guess: number): number {
  const [height, setHeight] = useState(guess);
  // the height last rendered: only the observer below changes it
  const shown = useRef(guess);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') {
      return;
    }
    let first = true;
    const ro = new ResizeObserver(() => {
      const h = el.clientHeight;
      const correcting = first;
      first = false;
      if (h === shown.current) {
        return;
      }
      shown.current = h;
      if (correcting) {
        // the guess was wrong: render now, before this first frame is painted
        flushSync(() => setHeight(h));
      } else {
        // a later change (breadcrumbs wrapping, a resize): rendered as any update, so an input
        // that grows the header is not drawn twice inside its own frame
        setHeight(h);
      }
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return height;
}
