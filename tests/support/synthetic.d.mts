/** Types of synthetic.mjs (deterministic synthetic flamegraph frames). */
export interface Columns {
  level: number[];
  value: number[];
  self: number[];
  labels: string[];
}
export function rng(seed: number): () => number;
export function syntheticTree(opts: { nodes: number; seed?: number; deep?: number; maxDepth?: number }): Columns;
export function flameFrameJSON(cols: Columns, unit?: string): import('@grafana/data').DataFrameJSON;
export function seriesFrameJSON(
  from: number,
  to: number,
  stepMs: number,
  labels: Record<string, string>,
  seed?: number
): import('@grafana/data').DataFrameJSON;
