// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useTheme2 } from '@grafana/ui';
import {
  COLOR_OPTIONS,
  COLOUR_SCHEME_WIDTH,
  DIFF_PALETTE_OPTIONS,
  HeaderChoices,
  HeaderControlsProps,
  HEADER_WORDS,
  TEXT_ALIGN_OPTIONS,
  VIEW_OPTIONS,
} from './headerOptions';
import { InputStandIn } from './SearchInput';

/** The gap between the header's controls, in CSS px (the real controls' row uses it too). */
export const CONTROLS_GAP = 6;

/** The row the header's controls sit in, the same for the stand-in and the real controls. */
export const CONTROLS_ROW_STYLE: React.CSSProperties = {
  display: 'flex',
  flexWrap: 'wrap',
  gap: CONTROLS_GAP,
  alignItems: 'center',
  minWidth: 0,
};

/**
 * The stand-in's box sizes that are not text, in CSS px, from the theme as @grafana/ui sizes the
 * controls: its classes are made from them, and so is the width the header's row needs
 * (`controlsRowWidth`).
 */
function boxMetrics(theme: GrafanaTheme2) {
  const grid = theme.spacing.gridSize;
  return {
    grid,
    /** a radio group's padding and border, each side */
    groupInset: 2 + 1,
    /** a radio option's padding, each side */
    optionPad: grid,
    /** an alignment icon and its gap to the word */
    glyph: 16 + 6,
    /** the collapse switch row's border and padding, each side */
    switchInset: 1 + grid,
    /** the gap between the switch's label and the switch */
    switchLabelGap: grid,
    /** the switch itself */
    switchWidth: 4 * grid,
    /** a text button's padding and border, each side */
    buttonInset: grid - 1 + 1,
  };
}

/**
 * The stand-in's classes, made once per theme. Every box is sized as @grafana/ui sizes the
 * control it stands for (small radio buttons, the inline switch, small text buttons), from the
 * same theme values, so that the real controls replace it without moving anything.
 */
function makeClasses(theme: GrafanaTheme2) {
  const m = boxMetrics(theme);
  const grid = m.grid;
  const radius = theme.shape.radius.default;
  // a small control's outer height; a radio option is it less the group's border (1 px each side)
  // and its padding (2 px each side)
  const sm = theme.components.height.sm * grid;
  const optionHeight = sm - 2 - 4;
  const option = {
    flex: 'none',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    height: optionHeight,
    lineHeight: `${optionHeight}px`,
    padding: `0 ${m.optionPad}px`,
    fontSize: theme.typography.bodySmall.fontSize,
    whiteSpace: 'nowrap',
    color: theme.colors.text.secondary,
    background: theme.colors.background.primary,
    borderRadius: `calc(max(0px, ${radius} - 3px))`,
    cursor: 'pointer',
    userSelect: 'none',
    '&:hover': { color: theme.colors.text.primary },
  } as const;
  const switchLabel = {
    paddingRight: m.switchLabelGap,
    color: theme.colors.text.secondary,
    whiteSpace: 'nowrap',
    cursor: 'pointer',
  } as const;
  const track = {
    display: 'inline-block',
    width: '100%',
    height: '100%',
    cursor: 'pointer',
    borderRadius: theme.shape.radius.pill,
    background: theme.components.input.background,
    border: `1px solid ${theme.components.input.borderColor}`,
  } as const;
  const knob = {
    position: 'absolute',
    display: 'block',
    left: 0,
    top: '50%',
    width: 1.5 * grid,
    height: 1.5 * grid,
    borderRadius: theme.shape.radius.circle,
    background: theme.colors.text.secondary,
    boxShadow: theme.shadows.z1,
    // a 2D move: the real switch's translate3d would give the knob a compositor layer of its own
    transform: `translate(${0.25 * grid}px, -50%)`,
  } as const;
  const glyph = {
    display: 'inline-block',
    flexShrink: 0,
    width: 16,
    height: 16,
    marginRight: m.glyph - 16,
    verticalAlign: 'middle',
  } as const;
  return {
    group: css({
      display: 'inline-flex',
      flexDirection: 'row',
      flexWrap: 'nowrap',
      padding: m.groupInset - 1,
      border: `1px solid ${theme.components.input.borderColor}`,
      borderRadius: radius,
      backgroundColor: theme.colors.background.primary,
    }),
    option: css(option),
    optionOn: css(option, {
      color: theme.colors.text.primary,
      fontWeight: theme.typography.fontWeightMedium,
      background: theme.colors.action.selected,
    }),
    // the alignment icons' four bars (long, short, long, short; flush left or right), drawn as
    // background layers of one box: the 24-unit icon at 16 px, each bar 2/3 px per unit
    glyphLeft: css(glyph, { background: alignBars('left') }),
    glyphRight: css(glyph, { background: alignBars('right') }),
    colour: css({ width: COLOUR_SCHEME_WIDTH, cursor: 'pointer' }),
    colourBox: css({ position: 'relative' }),
    // the combobox's open-menu chevron (its suffix icon: 16 px, the input's padding from the
    // right), drawn as two borders of a box turned by 45°
    chevron: css({
      position: 'absolute',
      right: grid,
      top: '50%',
      width: 16,
      height: 16,
      marginTop: -8,
      color: theme.colors.text.secondary,
      pointerEvents: 'none',
      // over the input's box (its wrapper is raised to z-index 1, as @grafana/ui's is)
      zIndex: 2,
      '&::after': {
        content: '""',
        position: 'absolute',
        left: 5,
        top: 3.5,
        width: 6,
        height: 6,
        borderRight: '1.5px solid currentColor',
        borderBottom: '1.5px solid currentColor',
        transform: 'rotate(45deg)',
      },
    }),
    switchRow: css({
      display: 'inline-flex',
      alignItems: 'center',
      height: theme.components.height.md * grid,
      padding: `0 ${m.switchInset - 1}px`,
      border: '1px solid transparent',
      borderRadius: radius,
      '&:hover > span': { color: theme.colors.text.primary },
    }),
    switchLabel: css(switchLabel),
    switchLabelOn: css(switchLabel, { color: theme.colors.text.primary }),
    switchBox: css({
      position: 'relative',
      width: m.switchWidth,
      height: 2 * grid,
      lineHeight: 1,
    }),
    track: css(track),
    trackOn: css(track, { background: theme.colors.primary.main, borderColor: theme.colors.primary.main }),
    knob: css(knob),
    knobOn: css(knob, {
      background: theme.colors.primary.contrastText,
      color: theme.colors.primary.main,
      transform: `translate(${2.25 * grid}px, -50%)`,
      // the check in the knob: the short and the long stroke of a box turned by 45°
      '&::after': {
        content: '""',
        position: 'absolute',
        left: 4.5,
        top: 2,
        width: 3.5,
        height: 6,
        borderRight: '1.4px solid currentColor',
        borderBottom: '1.4px solid currentColor',
        transform: 'rotate(45deg)',
      },
    }),
    button: css({
      display: 'inline-flex',
      alignItems: 'center',
      height: sm,
      lineHeight: `${sm - 2}px`,
      padding: `0 ${m.buttonInset - 1}px`,
      verticalAlign: 'middle',
      fontFamily: theme.typography.fontFamily,
      fontSize: theme.typography.bodySmall.fontSize,
      fontWeight: theme.typography.fontWeightMedium,
      letterSpacing: theme.typography.body.letterSpacing,
      color: theme.colors.secondary.text,
      background: 'transparent',
      border: '1px solid transparent',
      borderRadius: radius,
      whiteSpace: 'nowrap',
      cursor: 'pointer',
      userSelect: 'none',
      '&:hover': { background: theme.colors.secondary.transparent },
    }),
  };
}

type Classes = ReturnType<typeof makeClasses>;
const classesByTheme = new WeakMap<GrafanaTheme2, Classes>();

function classesOf(theme: GrafanaTheme2): Classes {
  let c = classesByTheme.get(theme);
  if (!c) {
    c = makeClasses(theme);
    classesByTheme.set(theme, c);
  }
  return c;
}

/**
 * The four bars of the align-left / align-right icon (alternately 18 and 12 units long, 2 high,
 * at rows 5, 9, 13 and 17 of a 24-unit box, 3 units from the side they are flush with) as CSS
 * background layers of a 16 px box.
 */
function alignBars(side: 'left' | 'right'): string {
  const u = 16 / 24;
  return [18, 12, 18, 12]
    .map((w, k) => {
      const x = side === 'left' ? 3 * u : (24 - 3 - w) * u;
      const y = (5 + 4 * k) * u;
      return `linear-gradient(currentColor, currentColor) ${x}px ${y}px / ${w * u}px ${2 * u}px no-repeat`;
    })
    .join(', ');
}

function Radios<T>(props: {
  c: Classes;
  options: ReadonlyArray<{ value: T; label: string; icon?: string }>;
  value: T;
  box: string;
  onPick: (v: T) => void;
}) {
  const { c, options, value, box, onPick } = props;
  return (
    <div className={c.group} data-box={box}>
      {options.map((o) => (
        <div
          key={String(o.value)}
          className={o.value === value ? c.optionOn : c.option}
          data-selected={o.value === value || undefined}
          data-box={`${box}:${String(o.value)}`}
          onClick={() => onPick(o.value)}
        >
          {o.icon && <span className={o.icon === 'align-right' ? c.glyphRight : c.glyphLeft} data-glyph="" />}
          {o.label}
        </div>
      ))}
    </div>
  );
}

/**
 * The colour scheme's box until its Combobox is mounted: the same input box showing the current
 * scheme, with the combobox's chevron.
 */
export function ColourStandIn({ label }: { label: string }) {
  const c = classesOf(useTheme2());
  return (
    <div className={c.colourBox}>
      <InputStandIn text={label} />
      <span className={c.chevron} />
    </div>
  );
}

export interface HeaderStandInProps extends HeaderControlsProps {
  /** Asks for the real controls now (a click on the colour scheme, which only they can open). */
  onWake: () => void;
}

/**
 * What the header shows until its @grafana/ui controls are mounted, after the first paint: the
 * same boxes with the same words and the current choices, made of plain elements with classes
 * made once per theme (no Icon, no Tooltip, no inline SVG loader, no per-mount style work; its
 * icons are CSS backgrounds and borders, not SVG, and its text box is no input: the first frame
 * lays out and paints fewer, simpler boxes). A
 * click on a choice does what the real control's click does. It is out of the accessibility tree
 * and of the tab order: the real controls, mounted in the next idle time, are the ones announced.
 */
export const HeaderStandIn = React.memo(function HeaderStandIn(props: HeaderStandInProps) {
  const { view, diff, colorMode, colorBlindDiff, textAlign, collapse, onAction, onWake } = props;
  const c = classesOf(useTheme2());
  return (
    <div style={CONTROLS_ROW_STYLE} aria-hidden="true" data-testid="header-standin">
      <Radios
        c={c}
        box="view"
        options={VIEW_OPTIONS}
        value={view}
        onPick={(v) => onAction({ kind: 'view', view: v })}
      />
      {!diff && (
        <div className={c.colour} data-box="colour" onClick={onWake}>
          <ColourStandIn label={COLOR_OPTIONS.find((o) => o.value === colorMode)?.label ?? ''} />
        </div>
      )}
      {diff && (
        <Radios
          c={c}
          box="palette"
          options={DIFF_PALETTE_OPTIONS}
          value={colorBlindDiff}
          onPick={(v) => onAction({ kind: 'options', changed: { colorBlindDiff: v } })}
        />
      )}
      <Radios
        c={c}
        box="align"
        options={TEXT_ALIGN_OPTIONS}
        value={textAlign}
        onPick={(v) => onAction({ kind: 'options', changed: { textAlign: v } })}
      />
      <div className={c.switchRow} data-box="collapse">
        <span className={collapse ? c.switchLabelOn : c.switchLabel}>{HEADER_WORDS.collapse}</span>
        <div className={c.switchBox} data-box="collapse:switch">
          <span
            className={collapse ? c.trackOn : c.track}
            onClick={() => onAction({ kind: 'collapse', on: !collapse })}
          >
            <span className={collapse ? c.knobOn : c.knob} />
          </span>
        </div>
      </div>
      <div className={c.button} data-box="expand-all" onClick={() => onAction({ kind: 'collapse', on: false })}>
        {HEADER_WORDS.expandAll}
      </div>
      <div className={c.button} data-box="collapse-all" onClick={() => onAction({ kind: 'collapse', on: true })}>
        {HEADER_WORDS.collapseAll}
      </div>
    </div>
  );
});

/** A 2D context of a canvas outside the page, to measure words with; null where there is none. */
let measurer: CanvasRenderingContext2D | null | undefined;
/** Words measured in fonts the page had loaded, by font and text (a loaded font stays loaded). */
const measured = new Map<string, number>();

/** A theme size (px, or rem of the page's root font size, which Grafana sets to the theme's) in px. */
function sizePx(theme: GrafanaTheme2, size: string | number): number {
  if (typeof size === 'number') {
    return size;
  }
  return parseFloat(size) * (size.endsWith('rem') ? (theme.typography.htmlFontSize ?? 16) : 1);
}

/**
 * The width, in CSS px, that the header's controls for `choices` take side by side, as the
 * stand-in lays them out (the real controls take the same boxes): their boxes from the theme and
 * their words measured in the theme's fonts, as the page inherits them (Grafana's body text, its
 * letter spacing included). Undefined where words cannot be measured (no canvas) or not yet in
 * the fonts they will show in (a web font still loading). A diff's header
 * also holds the legend, which this leaves out.
 */
export function controlsRowWidth(theme: GrafanaTheme2, choices: Omit<HeaderChoices, 'diff'>): number | undefined {
  if (measurer === undefined) {
    measurer = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  }
  const ctx = measurer;
  if (!ctx || typeof ctx.measureText !== 'function') {
    return undefined;
  }
  const ty = theme.typography;
  const bodyPx = sizePx(theme, ty.body.fontSize);
  const smallPx = sizePx(theme, ty.bodySmall.fontSize);
  const spacing = (em: string | undefined, px: number) => (em ? parseFloat(em) * (em.endsWith('em') ? px : 1) : 0);
  // the letter spacing the page's body sets, inherited as it computes there
  const bodySpacing = spacing(ty.body.letterSpacing, bodyPx);
  let unloaded = false;
  const words = (text: string, px: number, weight: number, letterSpacing: number) => {
    const font = `${weight} ${px}px ${ty.fontFamily}`;
    const key = `${font}\n${text}`;
    let w = measured.get(key);
    if (w === undefined) {
      // a web font the page has not loaded yet would be measured in its fallback's widths
      if (typeof document.fonts?.check === 'function' && !document.fonts.check(font, text)) {
        unloaded = true;
        return 0;
      }
      ctx.font = font;
      w = ctx.measureText(text).width;
      measured.set(key, w);
    }
    return w + text.length * letterSpacing;
  };
  const m = boxMetrics(theme);
  const radios = <T,>(options: ReadonlyArray<{ value: T; label: string; icon?: string }>, value: T) =>
    options.reduce(
      (w, o) =>
        w +
        2 * m.optionPad +
        (o.icon ? m.glyph : 0) +
        words(o.label, smallPx, o.value === value ? ty.fontWeightMedium : ty.fontWeightRegular, bodySpacing),
      2 * m.groupInset
    );
  const button = (text: string) =>
    2 * m.buttonInset + words(text, smallPx, ty.fontWeightMedium, spacing(ty.body.letterSpacing, smallPx));
  const boxes = [
    radios(VIEW_OPTIONS, choices.view),
    COLOUR_SCHEME_WIDTH,
    radios(TEXT_ALIGN_OPTIONS, choices.textAlign),
    2 * m.switchInset +
      words(HEADER_WORDS.collapse, bodyPx, ty.fontWeightRegular, bodySpacing) +
      m.switchLabelGap +
      m.switchWidth,
    button(HEADER_WORDS.expandAll),
    button(HEADER_WORDS.collapseAll),
  ];
  return unloaded ? undefined : boxes.reduce((a, b) => a + b, 0) + CONTROLS_GAP * (boxes.length - 1);
}
