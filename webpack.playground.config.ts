// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import path from 'path';
import CopyWebpackPlugin from 'copy-webpack-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import TerserPlugin from 'terser-webpack-plugin';
import type { Configuration } from 'webpack';

type Env = Record<string, string | boolean | undefined>;

/** Where the page is written: the Go package that embeds it in the emberscope binary. */
const OUT = path.resolve(__dirname, 'pkg/hosts/playground/page/built');

/** Grafana's public files that @grafana/ui asks the page for, and where they come from. */
const GRAFANA_PUBLIC = [
  // Icon loads `public/build/img/icons/<set>/<name>.svg`
  { from: 'node_modules/@grafana/ui/dist/public/img/icons', to: 'public/build/img/icons' },
  // GlobalStyles' @font-face rules load `public/fonts/inter/Inter-*.woff2` and one Roboto Mono file
  ...['Regular', 'Medium', 'Italic', 'MediumItalic'].map((w) => ({
    from: `node_modules/inter-ui/web/Inter-${w}.woff2`,
    to: `public/fonts/inter/Inter-${w}.woff2`,
  })),
  {
    from: 'node_modules/@fontsource/roboto-mono/files/roboto-mono-latin-400-normal.woff2',
    to: 'public/fonts/roboto/L0xTDF4xlVMF-BfR8bXMIhJHg45mwgGEFl0_3vrtSM1J-gEPT5Ese6hmHSh0mQ.woff2',
  },
];

/**
 * Webpack config of the standalone playground page (`src/playground`). It is a normal
 * browser bundle (React, @grafana/ui and @grafana/data bundled in, no AMD, no externals)
 * written to `pkg/hosts/playground/page/built/` with the fonts and icons @grafana/ui asks for, and
 * embedded from there in the emberscope binary (build the page, then the binary). It is not
 * part of the plugin bundle in `dist/`.
 */
const config = (env: Env = {}): Configuration => ({
  context: path.resolve(__dirname, 'src'),
  entry: {
    playground: './playground/index.tsx',
    // the panel's model worker, a script of its own at a fixed name (src/panel/worker/client.ts)
    'model-worker': { import: './panel/worker/model.worker.ts', filename: 'model-worker.js' },
  },
  mode: env.development ? 'development' : 'production',
  // no source maps in the production page: it is embedded in the binary
  devtool: env.development ? 'eval-source-map' : false,
  cache: { type: 'filesystem', name: 'playground', buildDependencies: { config: [__filename] } },
  module: {
    rules: [
      // Grafana's packages ship `.mjs` that default-import CommonJS modules (e.g. react-custom-scrollbars-2);
      // treat them as "auto" so webpack honours `__esModule` the way Grafana's own build does.
      { test: /\.mjs$/, include: /node_modules/, type: 'javascript/auto', resolve: { fullySpecified: false } },
      {
        exclude: /node_modules/,
        test: /\.[tj]sx?$/,
        use: {
          loader: 'swc-loader',
          options: {
            jsc: {
              baseUrl: path.resolve(__dirname, 'src'),
              target: 'es2020',
              parser: { syntax: 'typescript', tsx: true, decorators: false, dynamicImport: true },
            },
          },
        },
      },
      { test: /\.css$/, use: ['style-loader', 'css-loader'] },
      { test: /\.(png|jpe?g|gif|svg|woff2?|eot|ttf|otf)$/, type: 'asset/resource' },
    ],
  },
  output: {
    path: OUT,
    filename: '[name].[contenthash:8].js',
    chunkFilename: '[name].[contenthash:8].js',
    publicPath: '/',
    // the checked-in .gitkeep keeps built/ (and so go:embed) there in a clean clone
    clean: { keep: /^\.gitkeep$/ },
  },
  performance: { hints: false },
  // swc's minifier instead of webpack's default (terser): the page and the benchmark page (which
  // shares this setting) are a few megabytes of @grafana/ui, which terser minifies on one core
  // for most of the build's time; swc's output is as small and it takes a fraction of the time.
  optimization: {
    minimizer: [new TerserPlugin({ minify: TerserPlugin.swcMinify, terserOptions: { compress: true, mangle: true } })],
  },
  plugins: [
    new CopyWebpackPlugin({
      patterns: GRAFANA_PUBLIC.map((p) => ({ ...p, context: __dirname })),
    }),
    new HtmlWebpackPlugin({
      title: 'Emberscope playground',
      template: path.resolve(__dirname, 'src/playground/index.html'),
      // a worker's script is started by the page, never loaded by it
      excludeChunks: ['model-worker'],
    }),
  ],
  resolve: {
    extensions: ['.js', '.jsx', '.ts', '.tsx'],
    modules: [path.resolve(__dirname, 'src'), 'node_modules'],
  },
});

export default config;
