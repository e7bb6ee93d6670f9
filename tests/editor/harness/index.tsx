import React from 'react';
import { createRoot } from 'react-dom/client';
import { createTheme } from '@grafana/data';
import { GlobalStyles, ThemeContext } from '@grafana/ui';
import { HarnessApp } from './HarnessApp';

createRoot(document.getElementById('root')!).render(
  <ThemeContext.Provider value={createTheme({ colors: { mode: 'light' } })}>
    <GlobalStyles />
    <HarnessApp />
  </ThemeContext.Provider>
);
