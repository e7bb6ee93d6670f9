// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import path from 'path';
import CopyWebpackPlugin from 'copy-webpack-plugin';
import type { Configuration } from 'webpack';

import grafanaConfig, { type Env } from './.config/webpack/webpack.config';

/** The fields of webpack's module filename context `sourceName` reads. */
type ModuleFilenameInfo = { absoluteResourcePath: string; resourcePath: string; namespace: string };

/**
 * The name a source map gives each module: `webpack://<plugin id>/./<path>` with the path relative to
 * src/ for the plugin's own files, `webpack://<plugin id>/./node_modules/<package>/<file>` for a
 * dependency wherever its node_modules really is (with node_modules behind a symlink webpack's default
 * named dagre's module by the build machine's path to it), and webpack's own name for its runtime and
 * the externals. Grafana's plugin validator
 * compares the first kind with the plugin's source tree and skips the others; the release check
 * (internal/release) refuses any other kind.
 */
const sourceName =
  (srcDir: string) =>
  (info: ModuleFilenameInfo): string => {
    // The path after any `type|` or `loader!` prefix. A dependency is recognised by its node_modules
    // segment even when webpack hands over a mangled path: with node_modules behind a symlink it named
    // dagre `javascript/<absolute path without its leading slash>`, which its default name kept.
    const file = (info.absoluteResourcePath.split(/[|!]/).pop() ?? '').split(path.sep).join('/');
    if (file.startsWith('node_modules/') || file.includes('/node_modules/')) {
      return `webpack://${info.namespace}/./${file.slice(file.lastIndexOf('node_modules/'))}`;
    }
    if (!path.isAbsolute(file)) {
      return `webpack://${info.namespace}/${info.resourcePath}`;
    }
    const rel = path.relative(srcDir, file).split(path.sep).join('/');
    return `webpack://${info.namespace}/${rel.startsWith('../') ? rel : `./${rel}`}`;
  };

/**
 * The scaffold's webpack config, extended:
 * - the root README/LICENSE/CHANGELOG are copied when present instead of failing the build;
 * - the nested plugins' logos (`src/<plugin>/img/*`) and READMEs (`src/<plugin>/README.md`, which
 *   Grafana's page of each plugin shows) are copied next to their plugin.json;
 * - test data (any `testdata` folder under src) stays out of the bundle;
 * - source maps name every source by a relative `webpack://` path (see `sourceName`).
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
    output: {
      ...base.output,
      devtoolModuleFilenameTemplate: sourceName(path.resolve(__dirname, 'src')),
    },
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
