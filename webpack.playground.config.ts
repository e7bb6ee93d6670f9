import path from 'path';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import type { Configuration } from 'webpack';

type Env = Record<string, string | boolean | undefined>;

/**
 * Webpack config of the standalone playground page (`src/playground`). It is a normal
 * browser bundle (React, @grafana/ui and @grafana/data bundled in, no AMD, no externals)
 * written to `dist-playground/`, and it is not part of the plugin bundle in `dist/`.
 */
const config = (env: Env = {}): Configuration => ({
  context: path.resolve(__dirname, 'src'),
  entry: { playground: './playground/index.tsx' },
  mode: env.development ? 'development' : 'production',
  devtool: env.development ? 'eval-source-map' : 'source-map',
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
    path: path.resolve(__dirname, 'dist-playground'),
    filename: '[name].[contenthash:8].js',
    chunkFilename: '[name].[contenthash:8].js',
    publicPath: '/',
    clean: true,
  },
  performance: { hints: false },
  plugins: [
    new HtmlWebpackPlugin({
      title: 'Emberscope playground',
      template: path.resolve(__dirname, 'src/playground/index.html'),
    }),
  ],
  resolve: {
    extensions: ['.js', '.jsx', '.ts', '.tsx'],
    modules: [path.resolve(__dirname, 'src'), 'node_modules'],
  },
});

export default config;
