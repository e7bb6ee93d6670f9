// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

/**
 * What Grafana writes into its page before any plugin code runs (`window.grafanaBootData`),
 * as the playground's stand-in: an anonymous user (so the per-user plugin storage is the
 * browser's local storage, as Grafana does for a signed-out user), no feature toggles.
 * Imported first by the playground's entry, before @grafana/runtime reads it.
 */
const w = window as unknown as { grafanaBootData?: unknown };
if (!w.grafanaBootData) {
  w.grafanaBootData = {
    assets: { dark: '', light: '' },
    settings: { featureToggles: {}, appSubUrl: '', namespace: 'default' },
    user: { id: 0, uid: '', login: 'playground', isSignedIn: false, theme: 'light', orgId: 1 },
    navTree: [],
  };
}

export {};
