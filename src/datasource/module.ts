import { DataSourcePlugin } from '@grafana/data';
import { DataSource, QueryEditor } from './placeholder';

/** Placeholder entry of the nested datasource plugin; the datasource work replaces it. */
export const plugin = new DataSourcePlugin(DataSource).setQueryEditor(QueryEditor);
