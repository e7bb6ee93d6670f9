import os from 'os';
import path from 'path';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import type { Configuration } from 'webpack';

/** Where the test page is built: outside the repository, served by `emberscope playground -static`. */
export const HARNESS_DIST = path.join(os.tmpdir(), 'emberscope-editor-harness');

const REPO = path.resolve(__dirname, '..', '..', '..');

/**
 * The browser tests' page embedding the query editor the way the playground should: the same
 * loaders as webpack.playground.config.ts, a different entry and output.
 */
const config = (): Configuration => ({
  context: REPO,
  entry: { harness: './tests/editor/harness/index.tsx' },
  mode: 'development',
  devtool: false,
  module: {
    rules: [
      {
        exclude: /node_modules/,
        test: /\.[tj]sx?$/,
        use: {
          loader: 'swc-loader',
          options: {
            jsc: {
              baseUrl: path.join(REPO, 'src'),
              target: 'es2020',
              parser: { syntax: 'typescript', tsx: true, decorators: false, dynamicImport: true },
              transform: { react: { runtime: 'automatic' } },
            },
          },
        },
      },
      { test: /\.css$/, use: ['style-loader', 'css-loader'] },
      { test: /\.(png|jpe?g|gif|svg|woff2?|eot|ttf|otf)$/, type: 'asset/resource' },
    ],
  },
  output: { path: HARNESS_DIST, filename: '[name].js', publicPath: '/', clean: true },
  performance: { hints: false },
  plugins: [new HtmlWebpackPlugin({ template: path.join(__dirname, 'index.html') })],
  resolve: {
    extensions: ['.js', '.jsx', '.ts', '.tsx'],
    modules: [path.join(REPO, 'src'), 'node_modules'],
  },
});

export default config;
