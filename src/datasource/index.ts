// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * What pages outside Grafana (the playground) import to embed the query editor:
 *
 *   import { PlaygroundQueryEditor, FetchResourceClient } from '../datasource';
 *   const client = new FetchResourceClient('/api/datasources/uid/emberscope/resources');
 *   <PlaygroundQueryEditor query={q} onChange={setQ} onRunQuery={run} client={client}
 *                          exporter={client} range={{ from, to }} app="explore" frames={frames} />
 */
export {
  EmberscopeQueryEditor,
  EmberscopeQueryEditor as PlaygroundQueryEditor,
} from './components/EmberscopeQueryEditor';
export type { EmberscopeQueryEditorProps } from './components/EmberscopeQueryEditor';
export { FetchResourceClient } from './resources/fetchClient';
export type { ResourceClient, ProfileTypeInfo, TimeRangeMs } from './resources/client';
export { CachingResourceClient } from './resources/cache';
export type { EmberscopeQuery, QueryType } from './types';
export { narrowToSeries } from './links';
export { buildExpr } from './language/selector';
