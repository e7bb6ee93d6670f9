// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import path from 'path';
import CopyWebpackPlugin from 'copy-webpack-plugin';
import type { Configuration } from 'webpack';

import grafanaConfig, { type Env } from './.config/webpack/webpack.config';

/**
 * The scaffold's webpack config, extended:
 * - the root README/LICENSE/CHANGELOG are copied when present instead of failing the build;
 * - the nested plugins' logos (`src/<plugin>/img/*`) and READMEs (`src/<plugin>/README.md`, which
 *   Grafana's page of each plugin shows) are copied next to their plugin.json;
 * - test data (any `testdata` folder under src) stays out of the bundle.
 */
const config = async (env: Env): Promise<Configuration> => {
  const base = await grafanaConfig(env);
  const plugins = (base.plugins ?? []).map((plugin) => {
    if (!(plugin instanceof CopyWebpackPlugin)) {
      return plugin;
    }
    // CopyWebpackPlugin keeps its patterns on a private field; rebuild it with tolerant patterns.
    const patterns = ((plugin as unknown as { patterns: Array<Record<string, unknown>> }).patterns ?? [])
      .map((p) => (typeof p.from === 'string' && p.from.startsWith('../') ? { ...p, noErrorOnMissing: true } : p))
      .map((p) => (p.from === '**/*.json' ? { ...p, globOptions: { ignore: ['**/testdata/**'] } } : p));
    patterns.push({ from: '*/img/**/*', to: '.', noErrorOnMissing: true });
    patterns.push({ from: '*/README.md', to: '.' });
    return new CopyWebpackPlugin({ patterns: patterns as never });
  });
  return {
    ...base,
    // the panel's model worker beside the panel's module, a plain script (no AMD wrapper: a
    // worker has no loader), found from the module's public path (src/panel/worker/client.ts)
    entry: {
      ...(base.entry as Record<string, string>),
      'panel/model-worker': {
        import: './panel/worker/model.worker.ts',
        library: { type: 'var', name: 'emberscopeModelWorker' },
      },
    },
    plugins,
    cache: {
      ...(base.cache as object),
      buildDependencies: {
        config: [
          path.resolve(__dirname, 'webpack.config.ts'),
          path.resolve(__dirname, '.config/webpack/webpack.config.ts'),
        ],
      },
    } as Configuration['cache'],
  };
};

export default config;
