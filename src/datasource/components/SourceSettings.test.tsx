// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { baseUrlProblem, rootsFromText, SourceSettings } from './SourceSettings';

describe('SourceSettings', () => {
  it('saves the folders one per line and the proxy, and keeps the token a secret', () => {
    const setJson = jest.fn();
    const setSecret = jest.fn();
    render(
      <SourceSettings
        jsonData={{ sourceRoots: ['/srv/a'] }}
        githubTokenSet={true}
        githubToken=""
        setJson={setJson}
        setSecret={setSecret}
        resetSecret={jest.fn()}
      />
    );
    fireEvent.change(screen.getByLabelText('Source folders'), { target: { value: '/srv/a\n\n /srv/b \n' } });
    expect(setJson).toHaveBeenLastCalledWith({ sourceRoots: ['/srv/a', '/srv/b'] });
    fireEvent.change(screen.getByLabelText('Go module proxy URL'), { target: { value: 'http://proxy:8080' } });
    expect(setJson).toHaveBeenLastCalledWith({ goProxyUrl: 'http://proxy:8080' });
    fireEvent.change(screen.getByLabelText('Go platform'), { target: { value: 'linux-arm64' } });
    expect(setJson).toHaveBeenLastCalledWith({ goPlatform: 'linux-arm64' });
    expect(screen.getByLabelText('GitHub token')).toHaveValue('configured');
  });

  it('says what is wrong with a folder, a base URL or a Go version', () => {
    render(
      <SourceSettings
        jsonData={{ sourceRoots: ['src/app'], githubApiUrl: 'ftp://x', goVersion: 'latest', goPlatform: 'arm64' }}
        githubTokenSet={false}
        githubToken=""
        setJson={jest.fn()}
        setSecret={jest.fn()}
        resetSecret={jest.fn()}
      />
    );
    expect(screen.getByText('"src/app" is not an absolute folder')).toBeInTheDocument();
    expect(screen.getByText('Must start with http:// or https://')).toBeInTheDocument();
    expect(screen.getByText('A Go release such as go1.22.4')).toBeInTheDocument();
    expect(screen.getByText('A <goos>-<goarch> such as linux-arm64')).toBeInTheDocument();
    expect(baseUrlProblem('https://u:p@h')).toMatch(/No credentials/);
    expect(rootsFromText(' /a \n')).toEqual(['/a']);
  });
});
