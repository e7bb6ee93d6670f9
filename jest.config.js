// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// force timezone to UTC to allow tests to work regardless of local timezone
process.env.TZ = 'UTC';

const { grafanaESModules, nodeModulesToTransform } = require('./.config/jest/utils');
const base = require('./.config/jest.config');

// Recent d3 packages (pulled in by @grafana/ui and @grafana/data) ship ESM `.mjs` mains:
// transform them with swc and allow them through transformIgnorePatterns.
const extraESModules = ['d3-[a-z-]+', 'internmap', 'delaunator', 'robust-predicates'];

module.exports = {
  ...base,
  // jsdom with its computed styles kept until the document changes (jest.environment.js says why)
  testEnvironment: '<rootDir>/jest.environment.js',
  setupFiles: ['jest-canvas-mock'],
  // Tests assert behaviour, not speed: Jest's 5 s default per test fails user-event typing on a
  // busy 2-core machine, so the limit only catches a test that hangs.
  testTimeout: 120000,
  testMatch: ['<rootDir>/src/**/*.{spec,test}.{ts,tsx}'],
  transform: {
    ...base.transform,
    '^.+\\.mjs$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'ecmascript' } },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'jsx', 'mjs', 'json', 'node'],
  transformIgnorePatterns: [nodeModulesToTransform([...grafanaESModules, ...extraESModules])],
};
