// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useCallback, useMemo, useState } from 'react';
import { css, cx } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { Alert, Checkbox, Field, Input, LoadingPlaceholder, RadioButtonGroup, Select, useStyles2 } from '@grafana/ui';
import { useApp } from '../context';
import { Flame } from '../components/Flame';
import { unitOf } from '../profileTypes';
import { flameTotals, formatValue, isFlame } from '../query';
import { useAsync } from '../useAsync';
import { DiffMode, OpenedFile, Shown, Side, diffSides, errorText, queryFiles, uploadFile } from '../../shared/adhoc';
import { OpenFileExport } from './OpenFileExport';
import { OpenFileLabels } from './OpenFileLabels';
import { LiveChoice, OpenFileLive, defaultLiveChoice } from './OpenFileLive';
import { OpenFileTop } from './OpenFileTop';

type Mode = 'merge' | 'compare' | 'live';

/** The profile type shown first: a CPU type when the files have one, else the first. */
function preferredType(types: string[]): string {
  return types.find((t) => t.includes(':cpu:')) ?? types[0] ?? '';
}

/** The panel's title: the files shown, or what is compared with what. */
function titleOf(shown: Shown | undefined, files: OpenedFile[]): string {
  const name = (id: string) => files.find((f) => f.id === id)?.name ?? id;
  const side = (s: Side) => ('ids' in s ? s.ids.map(name).join(', ') : `live ${s.live.labelSelector}`);
  return !shown || 'ids' in shown ? files.map((f) => f.name).join(', ') : `${side(shown.right)} against ${side(shown.left)}`;
}

/**
 * Open a file: profile files (pprof, collapsed stacks, .cpuprofile) dropped or picked are
 * uploaded to the datasource (kept there for the user, never stored) and shown in the panel
 * with every view: all of them merged as pprof merges them, a baseline against a comparison, or a
 * file against a live query of the datasource, with pprof's -diff_base / -base and -normalize.
 */
export function OpenFilePage() {
  const { ds, range, type: liveType, view } = useApp();
  const styles = useStyles2(getStyles);
  const [files, setFiles] = useState<OpenedFile[]>([]);
  const [errors, setErrors] = useState<string[]>([]);
  const [uploading, setUploading] = useState(0);
  const [dragging, setDragging] = useState(false);
  const [mode, setMode] = useState<Mode>('merge');
  const [chosenType, setType] = useState('');
  const [expr, setExpr] = useState('{}');
  const [baseline, setBaseline] = useState('');
  const [comparison, setComparison] = useState('');
  const [diffMode, setDiffMode] = useState<DiffMode>('diff_base');
  const [normalize, setNormalize] = useState(false);
  const [live, setLive] = useState<LiveChoice>();
  const uid = ds?.uid ?? '';

  const open = useCallback(
    async (list: FileList | File[]) => {
      const picked = Array.from(list);
      setUploading((n) => n + picked.length);
      const results = await Promise.allSettled(picked.map((f) => uploadFile(uid, f)));
      setUploading((n) => n - picked.length);
      const opened = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      setErrors(results.flatMap((r) => (r.status === 'rejected' ? [errorText(r.reason)] : [])));
      if (opened.length) {
        setFiles((fs) => {
          const all = [...fs, ...opened];
          if (all.length >= 2) {
            setBaseline((b) => b || all[0].id);
            setComparison((c) => c || all[all.length - 1].id);
          }
          return all;
        });
      }
    },
    [uid]
  );

  const types = useMemo(() => Array.from(new Set(files.flatMap((f) => f.profileTypes))).sort(), [files]);
  const type = types.includes(chosenType) ? chosenType : preferredType(types);
  const liveChoice = live && files.some((f) => f.id === live.fileId) ? live : defaultLiveChoice(files, view.service);
  const from = range.from.valueOf();
  const to = range.to.valueOf();
  const query = useMemo(() => ({ queryType: 'profile', profileTypeId: type, expr, maxNodes: 16384 }), [type, expr]);
  // what is shown: the files merged, two files, or a file against the live query
  const shown: Shown | undefined = useMemo(() => {
    if (!type || !files.length) {
      return undefined;
    }
    if (mode === 'compare' && baseline && comparison) {
      return { left: { ids: [baseline] }, right: { ids: [comparison] }, query, mode: diffMode, normalize };
    }
    if (mode === 'live' && liveChoice.fileId && liveType) {
      const file: Side = { ids: [liveChoice.fileId] };
      const other: Side = { live: { profileTypeId: liveType, labelSelector: liveChoice.selector, from, to } };
      const [left, right] = liveChoice.fileIs === 'comparison' ? [other, file] : [file, other];
      return { left, right, query, mode: diffMode, normalize };
    }
    return { ids: files.map((f) => f.id), query };
  }, [type, files, mode, baseline, comparison, query, diffMode, normalize, liveChoice.fileId, liveChoice.fileIs, liveChoice.selector, liveType, from, to]);
  const comparing = shown !== undefined && !('ids' in shown);
  const answer = useAsync(
    () =>
      !shown
        ? undefined
        : 'ids' in shown
          ? queryFiles(uid, shown.ids, shown.query)
          : diffSides(uid, shown.left, shown.right, shown.query, shown.mode, shown.normalize),
    [uid, shown]
  );
  const flame = answer.value?.frames.find(isFlame);
  const unit = unitOf(type);
  const totals = flame ? flameTotals(flame) : undefined;
  const fileOptions = files.map((f) => ({ value: f.id, label: f.name }));

  return (
    <div className={styles.page} data-testid="openfile-page">
      <label
        className={cx(styles.drop, dragging && styles.dragging)}
        data-testid="openfile-drop"
        onDragOver={(e) => (e.preventDefault(), setDragging(true))}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          open(e.dataTransfer.files);
        }}
      >
        <span>Drop profile files here (pprof, collapsed stacks, .cpuprofile), or pick them:</span>
        <input
          type="file"
          multiple
          aria-label="Profile files"
          data-testid="openfile-input"
          onChange={(e) => {
            if (e.currentTarget.files?.length) {
              open(e.currentTarget.files);
              e.currentTarget.value = '';
            }
          }}
        />
      </label>
      {uploading > 0 && <LoadingPlaceholder text={`Opening ${uploading} file(s)…`} />}
      {errors.map((e) => (
        <Alert key={e} severity="error" title="The file could not be opened" data-testid="openfile-error">
          {e}
        </Alert>
      ))}
      {files.length > 0 && (
        <ul className={styles.files} data-testid="openfile-files">
          {files.map((f) => (
            <li key={f.id} data-testid="openfile-file">
              <b>{f.name}</b> ({f.format}, {f.samples} samples{f.truncatedStacks ? `, ${f.truncatedStacks} deep stacks cut` : ''})
            </li>
          ))}
        </ul>
      )}
      {files.length > 0 && (
        <div className={styles.bar}>
          <Field label="Sample type">
            <Select
              aria-label="Sample type"
              inputId="openfile-type"
              width={44}
              options={types.map((t) => ({ value: t, label: t }))}
              value={type || null}
              onChange={(v) => setType(v.value ?? '')}
            />
          </Field>
          <Field label="Query" description="a label selector, with `by (label)` for virtual frames">
            <Input aria-label="Query" width={36} defaultValue={expr} onBlur={(e) => setExpr(e.currentTarget.value.trim() || '{}')} />
          </Field>
          <Field label="Files">
            <RadioButtonGroup
              aria-label="Files"
              options={[
                { value: 'merge', label: 'Merge all' },
                { value: 'compare', label: 'Compare two', disabled: files.length < 2 },
                { value: 'live', label: 'Against a live query' },
              ]}
              value={mode}
              onChange={(v) => setMode(v as Mode)}
            />
          </Field>
        </div>
      )}
      {mode === 'compare' && files.length >= 2 && (
        <div className={styles.bar}>
          <Field label="Baseline">
            <Select aria-label="Baseline" width={30} options={fileOptions} value={baseline} onChange={(v) => setBaseline(v.value ?? '')} />
          </Field>
          <Field label="Comparison">
            <Select aria-label="Comparison" width={30} options={fileOptions} value={comparison} onChange={(v) => setComparison(v.value ?? '')} />
          </Field>
        </div>
      )}
      {mode === 'live' && files.length > 0 && <OpenFileLive files={files} value={liveChoice} onChange={setLive} />}
      {mode === 'live' && !liveType && (
        <Alert severity="info" title="No live profile type" data-testid="openfile-live-notype">
          The datasource has no profiles in the time range: pick another range or profile type above to compare a file with.
        </Alert>
      )}
      {comparing && (
        <div className={styles.bar}>
          <Field label="As pprof">
            <RadioButtonGroup
              aria-label="Diff mode"
              options={[
                { value: 'diff_base', label: '-diff_base' },
                { value: 'base', label: '-base' },
              ]}
              value={diffMode}
              onChange={(v) => setDiffMode(v as DiffMode)}
            />
          </Field>
          <Field label="Normalize">
            <Checkbox aria-label="Normalize" label="-normalize" value={normalize} onChange={(e) => setNormalize(e.currentTarget.checked)} />
          </Field>
        </div>
      )}
      {answer.loading && <LoadingPlaceholder text="Reading the files…" />}
      {answer.error && (
        <Alert severity="error" title="The files could not be shown" data-testid="openfile-error">
          {errorText(answer.error)}
        </Alert>
      )}
      {flame && totals && (
        <>
          <div className={styles.totals} data-testid="openfile-totals" data-total={totals.total} data-comparison={totals.right}>
            {comparing ? 'Baseline' : 'Total'} <b>{formatValue(totals.total, unit)}</b>
            {totals.right !== undefined && (
              <>
                , comparison <b>{formatValue(totals.right, unit)}</b>
              </>
            )}{' '}
            {shown && <OpenFileExport uid={uid} shown={shown} />}
          </div>
          <Flame frame={flame} range={range} title={titleOf(shown, files)} />
          <OpenFileTop frame={flame} unit={unit} />
        </>
      )}
      {files.length > 0 && type && !comparing && <OpenFileLabels uid={uid} ids={files.map((f) => f.id)} type={type} />}
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  page: css({ display: 'flex', flexDirection: 'column', gap: theme.spacing(1), minWidth: 0 }),
  drop: css({
    display: 'flex',
    flexWrap: 'wrap',
    gap: theme.spacing(1),
    alignItems: 'center',
    padding: theme.spacing(2),
    border: `1px dashed ${theme.colors.border.strong}`,
    borderRadius: theme.shape.radius.default,
  }),
  dragging: css({ borderColor: theme.colors.primary.border, background: theme.colors.action.hover }),
  files: css({ margin: 0, paddingLeft: theme.spacing(2), fontSize: 12 }),
  bar: css({ display: 'flex', flexWrap: 'wrap', gap: theme.spacing(2), alignItems: 'flex-end' }),
  totals: css({ fontSize: 12 }),
});
