// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { ContextMenu, MenuItem } from '@grafana/ui';
import { isAncestorOrSelf } from '../../model/flameIndex';
import { ViewAction } from '../state';
import { ShownGraph } from './useShownGraph';
import { useSourceOpener } from '../Source';
import { useTrackLink } from '../TrackMetric';
import { useOverTimeOpener } from '../OverTime';
import { pathOf } from '../focus/callSitePath';

export interface FlameContextMenuProps {
  graph: ShownGraph;
  menu: { node: number; x: number; y: number };
  /** Heads of the chains the user expanded (nodes of the profile's graph). */
  expanded: Set<number>;
  collapse: boolean;
  /** The top table is in another view (not beside the graph): "Show in table" switches to it. */
  tableElsewhere: boolean;
  /** "Show in table" is offered (not in the flame graph alone). */
  tableOffered: boolean;
  act: (a: ViewAction) => void;
}

/** The actions on a bar of the flame graph: zoom, copy, highlight, sandwich, chains, table. */
export function FlameContextMenu({
  graph,
  menu,
  expanded,
  collapse,
  tableElsewhere,
  tableOffered,
  act,
}: FlameContextMenuProps) {
  const { shown, collapsed, index, toOrig } = graph;
  const node = menu.node;
  const name = shown.data.nameIdx[node];
  const inOpenedChain = () => {
    const o = toOrig(node);
    for (const x of expanded) {
      if (isAncestorOrSelf(index, x, o)) {
        return true;
      }
    }
    return false;
  };
  const copyName = () => {
    if (navigator.clipboard?.writeText) {
      navigator.clipboard.writeText(shown.data.names[name]).catch(() => undefined);
    }
    act({ type: 'closeMenu' });
  };
  const chainHead = collapsed ? collapsed.head[node] : node;
  const source = useSourceOpener();
  const trackLink = useTrackLink();
  const overTime = useOverTimeOpener();
  return (
    <ContextMenu
      x={menu.x}
      y={menu.y}
      onClose={() => act({ type: 'closeMenu' })}
      renderMenuItems={() => (
        <>
          <MenuItem label="Focus (zoom)" icon="search-plus" onClick={() => act({ type: 'zoom', node: toOrig(node) })} />
          <MenuItem label="Copy name" icon="copy" onClick={copyName} />
          <MenuItem label="Highlight same name" icon="eye" onClick={() => act({ type: 'highlight', name })} />
          <MenuItem label="Sandwich view" icon="gf-show-context" onClick={() => act({ type: 'openSandwich', name })} />
          {source && (
            <MenuItem
              label="Source"
              icon="brackets-curly"
              onClick={() => {
                source.open(shown.data.names[name]);
                act({ type: 'closeMenu' });
              }}
            />
          )}
          {trackLink && (
            <MenuItem
              label="Track as a metric"
              icon="calculator-alt"
              url={trackLink(shown.data.names[name])}
              onClick={() => act({ type: 'closeMenu' })}
            />
          )}
          {overTime && toOrig(node) > 0 && (
            <MenuItem
              label="Show over time"
              icon="chart-line"
              onClick={() => {
                overTime.open(pathOf(index.data, toOrig(node)));
                act({ type: 'closeMenu' });
              }}
            />
          )}
          {collapsed && collapsed.frames[node] > 1 && (
            <MenuItem
              label={`Expand ${collapsed.frames[node]} collapsed frames`}
              icon="angle-double-down"
              onClick={() => act({ type: 'toggleChain', head: chainHead, open: true, index })}
            />
          )}
          {collapse && expanded.size > 0 && inOpenedChain() && (
            <MenuItem
              label="Collapse this chain"
              icon="angle-double-up"
              onClick={() => act({ type: 'toggleChain', head: chainHead, open: false, index })}
            />
          )}
          {tableOffered && (
            <MenuItem
              label="Show in table"
              icon="table"
              onClick={() => act({ type: 'showInTable', name, switchView: tableElsewhere })}
            />
          )}
        </>
      )}
    />
  );
}
