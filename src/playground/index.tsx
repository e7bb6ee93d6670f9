// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// first: Grafana's boot data stand-in, read by @grafana/runtime when it loads
import './app/bootData';
import React from 'react';
import { createRoot } from 'react-dom/client';
import { createTheme } from '@grafana/data';
import { GlobalStyles, ThemeContext } from '@grafana/ui';
import { App } from './App';
import { AppHost } from './app/AppHost';
import { APP_BASE } from '../app/state';

const params = new URLSearchParams(window.location.search);
const theme = createTheme({ colors: { mode: params.get('theme') === 'dark' ? 'dark' : 'light' } });

createRoot(document.getElementById('root')!).render(
  <ThemeContext.Provider value={theme}>
    <GlobalStyles />
    {window.location.pathname.startsWith(APP_BASE) ? <AppHost /> : <App />}
  </ThemeContext.Provider>
);
