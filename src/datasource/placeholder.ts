import { DataSourceInstanceSettings, QueryEditorProps } from '@grafana/data';
import { DataQuery } from '@grafana/schema';
import { DataSourceWithBackend } from '@grafana/runtime';

/** Minimal query model until the datasource work lands. */
export interface EmberscopeQuery extends DataQuery {
  expr?: string;
}

/** Minimal backend datasource: every call goes to the Go backend unchanged. */
export class DataSource extends DataSourceWithBackend<EmberscopeQuery> {
  constructor(instanceSettings: DataSourceInstanceSettings) {
    super(instanceSettings);
  }
}

/** Empty query editor so the nested plugin builds; replaced by the real editor. */
export function QueryEditor(_props: QueryEditorProps<DataSource, EmberscopeQuery>) {
  return null;
}
