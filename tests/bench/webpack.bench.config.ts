// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import path from 'path';
import type { Configuration } from 'webpack';
import playground from '../../webpack.playground.config';

/**
 * The benchmark page: the playground's webpack setup with tests/bench/page.tsx as entry,
 * written to test-results/bench-page/ (never part of the plugin or the playground).
 */
const config = (env: Record<string, string | boolean | undefined> = {}): Configuration => {
  const base = playground(env);
  const root = path.resolve(__dirname, '..', '..');
  return {
    ...base,
    context: root,
    entry: {
      bench: './tests/bench/page.tsx',
      'model-worker': { import: './src/panel/worker/model.worker.ts', filename: 'model-worker.js' },
    },
    // --env profile writes source maps next to the bundle (tests/bench/profile-first-draw.spec.ts maps samples back to sources)
    devtool: env.profile ? 'source-map' : false,
    // --env reactdev bundles React's development build (full error messages) for debugging the page
    // --env nominify keeps function names (for profile-sandwich.spec.ts) with React's production build
    optimization: env.reactdev
      ? { nodeEnv: 'development', minimize: false }
      : env.nominify
        ? { ...base.optimization, minimize: false }
        : base.optimization,
    cache: {
      type: 'filesystem',
      name: env.profile ? 'bench-profile' : 'bench',
      buildDependencies: { config: [__filename, path.join(root, 'webpack.playground.config.ts')] },
    },
    module: {
      rules: [
        ...(base.module?.rules ?? []).map((r) =>
          r && typeof r === 'object' && String(r.test) === String(/\.[tj]sx?$/)
            ? { ...r, test: /\.m?[tj]sx?$/, resolve: { fullySpecified: false } }
            : r
        ),
      ],
    },
    output: { ...base.output, path: path.join(root, 'test-results', 'bench-page') },
    resolve: {
      ...base.resolve,
      modules: [path.join(root, 'src'), 'node_modules'],
      // @grafana/ui's table (used by @grafana/flamegraph's top table) imports OpenLayers for geo
      // cells; OpenLayers is an optional peer not installed here and geo cells are never drawn.
      alias: { 'ol/format/WKT': false, 'ol/geom': false },
    },
  };
};

export default config;
