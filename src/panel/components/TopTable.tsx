import React, { useEffect, useRef, useState } from 'react';
import { formatPercent, formatValue } from '../model/format';
import { SortKey, TopRow } from '../model/topTable';
import { fitName } from '../model/shortName';
import { monoCharWidth } from '../render/textMetrics';

export interface TopTableProps {
  rows: TopRow[];
  unit?: string;
  rootTotal: number;
  width: number;
  height: number;
  sortKey: SortKey;
  descending: boolean;
  onSort: (key: SortKey) => void;
  highlighted: number;
  onSelect: (nameIdx: number) => void;
  dark: boolean;
}

const ROW = 24;
const HEADER = 28;
const CELL_PADDING = 6;
/** Font of the symbol column. */
const NAME_FONT = '12px monospace';

/**
 * The top table: symbol, self and total per function, sortable by any column. Rows are
 * windowed (only the visible ones are in the DOM), so 100k symbols stay fast.
 */
/** A right-aligned value cell; its title is the value's share of the root. */
function ValueCell(props: { width: number; value: number; rootTotal: number; unit?: string }) {
  const { width, value, rootTotal, unit } = props;
  return (
    <div role="cell" style={{ ...VALUE_CELL, width }} title={formatPercent(value / (rootTotal || 1))}>
      {formatValue(value, unit)}
    </div>
  );
}

const VALUE_CELL: React.CSSProperties = {
  padding: '0 6px',
  boxSizing: 'border-box',
  textAlign: 'right',
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
};

export function TopTable(props: TopTableProps) {
  const { rows, width, height, sortKey, descending, onSort, highlighted, onSelect, unit, rootTotal, dark } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const bodyHeight = Math.max(0, height - HEADER);
  const first = Math.max(0, Math.floor(scrollTop / ROW) - 5);
  const last = Math.min(rows.length, Math.ceil((scrollTop + bodyHeight) / ROW) + 5);
  const numW = Math.max(84, Math.min(150, Math.floor(width * 0.22)));
  const nameW = Math.max(40, width - 2 * numW - 2);
  // long names are shortened from the left (module path, package) so the function stays visible
  const nameChars = Math.floor((nameW - 2 * CELL_PADDING) / monoCharWidth(NAME_FONT));

  // bring the highlighted symbol into view
  useEffect(() => {
    const el = scroller.current;
    if (!el || highlighted < 0) {
      return;
    }
    const at = rows.findIndex((r) => r.nameIdx === highlighted);
    if (at >= 0 && (at * ROW < el.scrollTop || (at + 1) * ROW > el.scrollTop + el.clientHeight)) {
      el.scrollTop = Math.max(0, at * ROW - el.clientHeight / 2);
    }
  }, [highlighted, rows]);

  const border = dark ? '#3b3f47' : '#d8d9de';
  const header = (key: SortKey, label: string, w: number, align: 'left' | 'right') => (
    <div
      role="columnheader"
      aria-sort={sortKey === key ? (descending ? 'descending' : 'ascending') : 'none'}
      tabIndex={0}
      onClick={() => onSort(key)}
      onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && onSort(key)}
      style={{
        width: w,
        textAlign: align,
        cursor: 'pointer',
        padding: '0 6px',
        boxSizing: 'border-box',
        fontWeight: 600,
        userSelect: 'none',
      }}
    >
      {label}
      {sortKey === key ? (descending ? ' ▼' : ' ▲') : ''}
    </div>
  );
  return (
    <div
      role="table"
      aria-label="Top table"
      data-testid="top-table"
      style={{ width, height, fontSize: 12, display: 'flex', flexDirection: 'column' }}
    >
      <div
        role="row"
        style={{
          display: 'flex',
          height: HEADER,
          alignItems: 'center',
          borderBottom: `1px solid ${border}`,
          flex: 'none',
        }}
      >
        {header('name', 'Symbol', nameW, 'left')}
        {header('self', 'Self', numW, 'right')}
        {header('total', 'Total', numW, 'right')}
      </div>
      <div
        ref={scroller}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        style={{ overflowY: 'auto', overflowX: 'hidden', height: bodyHeight }}
      >
        <div role="rowgroup" style={{ height: rows.length * ROW, position: 'relative' }}>
          {rows.slice(first, last).map((r, k) => {
            const i = first + k;
            const on = r.nameIdx === highlighted;
            return (
              <div
                role="row"
                key={r.nameIdx}
                aria-selected={on}
                data-testid="top-table-row"
                onClick={() => onSelect(r.nameIdx)}
                title={r.name}
                style={{
                  position: 'absolute',
                  top: i * ROW,
                  height: ROW,
                  width: '100%',
                  display: 'flex',
                  alignItems: 'center',
                  cursor: 'pointer',
                  background: on
                    ? dark
                      ? '#1f3a5f'
                      : '#dbe9ff'
                    : i % 2
                      ? dark
                        ? '#1c1e22'
                        : '#f7f7f9'
                      : 'transparent',
                }}
              >
                <div
                  role="cell"
                  style={{
                    width: nameW,
                    padding: '0 6px',
                    boxSizing: 'border-box',
                    overflow: 'hidden',
                    textOverflow: 'ellipsis',
                    whiteSpace: 'nowrap',
                    font: NAME_FONT,
                  }}
                >
                  {fitName(r.name, nameChars)}
                </div>
                <ValueCell width={numW} value={r.self} rootTotal={rootTotal} unit={unit} />
                <ValueCell width={numW} value={r.total} rootTotal={rootTotal} unit={unit} />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
