// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

module.exports = {
  // Prettier configuration provided by Grafana scaffolding
  ...require('./.config/.prettierrc.js'),
};
