// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { defineConfig } from 'eslint/config';
import baseConfig from './.config/eslint.config.mjs';
import { cycleRule } from './eslint.cycles.mjs';

export default defineConfig([
  {
    ignores: [
      '**/logs',
      '**/*.log',
      '**/npm-debug.log*',
      '**/yarn-debug.log*',
      '**/yarn-error.log*',
      '**/.pnpm-debug.log*',
      '**/node_modules/',
      '.yarn/cache',
      '.yarn/unplugged',
      '.yarn/build-state.yml',
      '.yarn/install-state.gz',
      '**/.pnp.*',
      '**/pids',
      '**/*.pid',
      '**/*.seed',
      '**/*.pid.lock',
      '**/lib-cov',
      '**/coverage',
      '**/dist/',
      '**/dist-playground/',
      'pkg/hosts/playground/page/built/',
      '**/artifacts/',
      '**/work/',
      '**/ci/',
      'test-results/',
      'playwright-report/',
      'blob-report/',
      'playwright/.cache/',
      'playwright/.auth/',
      '**/.idea',
      '**/.eslintcache',
    ],
  },
  ...baseConfig,
  // no import cycles in src (eslint.cycles.mjs says why)
  cycleRule,
  {
    // Jest's test files. No module imports a test, so none can be in an import cycle: the cycle rule
    // walked the whole import graph from each of them and could never report. The deprecation rule is
    // the one typed rule; it asks the type checker about every name, which for the tests type-checked
    // them a second time (`tsc` checks them) to warn about deprecated calls that ship in no bundle.
    // Without a typed rule the tests need no type information, so they are parsed without it.
    files: ['src/**/*.test.{ts,tsx}'],
    languageOptions: { parserOptions: { project: null } },
    rules: {
      'import-x/no-cycle': 'off',
      '@typescript-eslint/no-deprecated': 'off',
    },
  },
]);
