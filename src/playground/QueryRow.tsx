import React from 'react';
import { Button, Combobox, InlineField, Input } from '@grafana/ui';
import { ProfileType } from './api';

/** The editable query: structured fields plus the text form, which wins when set. */
export interface QueryDraft {
  profileTypeId: string;
  labelSelector: string;
  groupBy: string;
  expr: string;
}

export interface QueryRowProps {
  draft: QueryDraft;
  profileTypes: ProfileType[];
  onChange: (d: QueryDraft) => void;
  onRun: () => void;
  running: boolean;
}

/** The query row: profile type, label selector, group-by, query text and Run. */
export function QueryRow({ draft, profileTypes, onChange, onRun, running }: QueryRowProps) {
  const set = (patch: Partial<QueryDraft>) => onChange({ ...draft, ...patch });
  const onEnter = (e: React.KeyboardEvent) => e.key === 'Enter' && onRun();
  return (
    <div data-testid="query-row" style={{ display: 'flex', flexWrap: 'wrap', gap: 6, alignItems: 'flex-start' }}>
      <InlineField label="Profile type" grow={false}>
        <Combobox
          width={36}
          aria-label="Profile type"
          options={profileTypes.map((t) => ({ value: t.id, label: t.name || t.id, description: t.id }))}
          value={draft.profileTypeId || null}
          onChange={(v) => set({ profileTypeId: v.value })}
          placeholder="Choose a profile type"
        />
      </InlineField>
      <InlineField label="Selector" grow>
        <Input
          aria-label="Label selector"
          value={draft.labelSelector}
          placeholder='{service_name="api"}'
          onChange={(e) => set({ labelSelector: e.currentTarget.value })}
          onKeyDown={onEnter}
        />
      </InlineField>
      <InlineField label="Group by" grow={false}>
        <Input
          width={20}
          aria-label="Group by"
          value={draft.groupBy}
          placeholder="label, label"
          onChange={(e) => set({ groupBy: e.currentTarget.value })}
          onKeyDown={onEnter}
        />
      </InlineField>
      <InlineField label="Query" grow style={{ flexBasis: '100%' }}>
        <Input
          aria-label="Query text"
          data-testid="query-text"
          value={draft.expr}
          placeholder='process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="api"} (overrides the fields)'
          onChange={(e) => set({ expr: e.currentTarget.value })}
          onKeyDown={onEnter}
        />
      </InlineField>
      <Button onClick={onRun} disabled={running} icon={running ? 'spinner' : 'play'} data-testid="run-query">
        Run query
      </Button>
    </div>
  );
}
