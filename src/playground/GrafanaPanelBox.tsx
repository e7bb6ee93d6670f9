// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { forwardRef, ReactNode } from 'react';
import { css, cx } from '@emotion/css';
import { useStyles2 } from '@grafana/ui';

/**
 * How far the box is moved by its transform, as react-grid-layout moves Grafana's panels (down
 * only, so that the box keeps the page's width).
 */
export const PANEL_BOX_SHIFT = { x: 0, y: 8 };

/**
 * A box like the one Grafana 12.4 renders a panel in: `contain: size layout` (the panel chrome's)
 * and moved by a CSS transform (react-grid-layout places dashboard panels with
 * `transform: translate(…)`). Both make the box the containing block of `position: fixed`
 * descendants, so an overlay placed `fixed` at the cursor inside it lands the box's offset
 * away from the cursor; overlays must be rendered outside (a portal). The playground draws its
 * panels in it so that browser tests see what Grafana does.
 */
export const GrafanaPanelBox = forwardRef<HTMLDivElement, { testId: string; className?: string; children?: ReactNode }>(
  function GrafanaPanelBox({ testId, className, children }, ref) {
    const styles = useStyles2(getStyles);
    return (
      <div ref={ref} data-testid={testId} data-grafana-panel-box="" className={cx(className, styles.box)}>
        {children}
      </div>
    );
  }
);

const getStyles = () => ({
  box: css({
    contain: 'size layout',
    transform: `translate(${PANEL_BOX_SHIFT.x}px, ${PANEL_BOX_SHIFT.y}px)`,
    marginBottom: PANEL_BOX_SHIFT.y,
  }),
});
