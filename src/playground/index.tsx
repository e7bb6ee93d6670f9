// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { createRoot } from 'react-dom/client';
import { createTheme } from '@grafana/data';
import { GlobalStyles, ThemeContext } from '@grafana/ui';
import { App } from './App';

const params = new URLSearchParams(window.location.search);
const theme = createTheme({ colors: { mode: params.get('theme') === 'dark' ? 'dark' : 'light' } });

createRoot(document.getElementById('root')!).render(
  <ThemeContext.Provider value={theme}>
    <GlobalStyles />
    <App />
  </ThemeContext.Provider>
);
