// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tsParser from '@typescript-eslint/parser';

/**
 * The import-cycle rule over src, shared by the project's lint (eslint.config.mjs) and, on its
 * own, by src/lint/importCycles.test.ts. A cycle makes a module's exports undefined while the
 * other one loads, and hides which of two modules is the lower layer.
 */
export const cycleRule = {
  files: ['src/**/*.{ts,tsx}'],
  plugins: { 'import-x': importX },
  settings: {
    'import-x/extensions': ['.ts', '.tsx', '.js', '.jsx'],
    'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.jsx', '.json'] })],
  },
  rules: {
    'import-x/no-cycle': ['error', { ignoreExternal: true }],
  },
};

// Used as a config file on its own (`eslint --config eslint.cycles.mjs`): the cycle rule alone,
// with the TypeScript parser and no type information, which the rule does not need. Jest's test
// files are left out as the project's lint leaves them out: no module imports a test.
export default [{ ignores: ['src/**/*.test.{ts,tsx}'] }, { ...cycleRule, languageOptions: { parser: tsParser } }];
