// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React from 'react';
import { InlineField, InlineSwitch, Input, SecretInput, TextArea } from '@grafana/ui';
import { ConfigSection } from '@grafana/plugin-ui';
import { EmberscopeOptions, EmberscopeSecureOptions } from '../types';

export interface SourceSettingsProps {
  jsonData: EmberscopeOptions;
  githubTokenSet: boolean;
  githubToken: string;
  setJson: (patch: Partial<EmberscopeOptions>) => void;
  setSecret: (key: keyof EmberscopeSecureOptions, value: string) => void;
  resetSecret: (key: keyof EmberscopeSecureOptions) => void;
}

/** Checks a base URL as the backend will: empty (left out) or http(s) without credentials. */
export function baseUrlProblem(v: string | undefined): string | undefined {
  const s = (v ?? '').trim();
  if (!s) {
    return undefined;
  }
  try {
    const u = new URL(s);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') {
      return 'Must start with http:// or https://';
    }
    if (u.username || u.password || u.search || u.hash) {
      return 'No credentials, query or fragment: the token has its own field';
    }
  } catch {
    return `"${s}" is not a URL`;
  }
  return undefined;
}

/** The source roots as the text area shows them: one folder per line. */
export function rootsFromText(text: string): string[] {
  return text
    .split('\n')
    .map((r) => r.trim())
    .filter((r) => r !== '');
}

/**
 * Where the source view finds a function's source, tried in this order: folders on the Grafana
 * server, the profile server's VCS service, GitHub (repository and commit from the profile's
 * service_repository and service_git_ref labels), and a Go module proxy for modules and the
 * standard library.
 */
export function SourceSettings({
  jsonData: jd,
  githubTokenSet,
  githubToken,
  setJson,
  setSecret,
  resetSecret,
}: SourceSettingsProps) {
  const rootsErr = (jd.sourceRoots ?? []).find((r) => !r.startsWith('/') && !/^[A-Za-z]:\\/.test(r));
  const ghErr = baseUrlProblem(jd.githubApiUrl);
  const proxyErr = baseUrlProblem(jd.goProxyUrl);
  const versionErr =
    jd.goVersion && !/^(go)?1(\.\d+){1,2}((rc|beta)\d+)?$/.test(jd.goVersion.trim())
      ? 'A Go release such as go1.22.4'
      : undefined;
  const platformErr =
    jd.goPlatform && !/^[a-z0-9]+-[a-z0-9]+$/.test(jd.goPlatform.trim())
      ? 'A <goos>-<goarch> such as linux-arm64'
      : undefined;
  return (
    <ConfigSection
      title="Source code"
      description="Where the source view reads the code of a hot function, tried in order."
    >
      <InlineField
        label="Source folders"
        labelWidth={24}
        invalid={Boolean(rootsErr)}
        error={rootsErr && `"${rootsErr}" is not an absolute folder`}
        tooltip="Folders on the Grafana server holding source trees, one per line; a profile's file is found by its longest path suffix present in one"
      >
        <TextArea
          aria-label="Source folders"
          cols={50}
          rows={3}
          placeholder="/srv/src/my-service"
          value={(jd.sourceRoots ?? []).join('\n')}
          onChange={(e) => setJson({ sourceRoots: rootsFromText(e.currentTarget.value) })}
        />
      </InlineField>
      <InlineField
        label="Server's VCS"
        labelWidth={24}
        tooltip="Ask the profile server's VCS service (Pyroscope's GitHub integration)"
      >
        <InlineSwitch
          aria-label="Ask the profile server's VCS service"
          value={jd.sourceServerVcs ?? true}
          onChange={(e) => setJson({ sourceServerVcs: e.currentTarget.checked })}
        />
      </InlineField>
      <InlineField
        label="GitHub API"
        labelWidth={24}
        invalid={Boolean(ghErr)}
        error={ghErr}
        tooltip="GitHub's API base, or a GitHub Enterprise server's (https://host/api/v3); empty leaves GitHub out"
      >
        <Input
          aria-label="GitHub API URL"
          width={40}
          placeholder="https://api.github.com"
          value={jd.githubApiUrl ?? ''}
          onChange={(e) => setJson({ githubApiUrl: e.currentTarget.value })}
        />
      </InlineField>
      <InlineField
        label="GitHub token"
        labelWidth={24}
        tooltip="Sent to the GitHub API above only; never to the browser"
      >
        <SecretInput
          aria-label="GitHub token"
          width={40}
          isConfigured={githubTokenSet}
          value={githubToken}
          onChange={(e) => setSecret('githubToken', e.currentTarget.value)}
          onReset={() => resetSecret('githubToken')}
        />
      </InlineField>
      <InlineField
        label="Go module proxy"
        labelWidth={24}
        invalid={Boolean(proxyErr)}
        error={proxyErr}
        tooltip="A GOPROXY base serving module zips, for Go modules and the standard library; empty leaves it out"
      >
        <Input
          aria-label="Go module proxy URL"
          width={40}
          placeholder="https://goproxy.example.internal"
          value={jd.goProxyUrl ?? ''}
          onChange={(e) => setJson({ goProxyUrl: e.currentTarget.value })}
        />
      </InlineField>
      <InlineField
        label="Go version"
        labelWidth={24}
        invalid={Boolean(versionErr)}
        error={versionErr}
        tooltip="The Go release whose standard library is shown when a profile has no go_version label"
      >
        <Input
          aria-label="Go version"
          width={16}
          placeholder="go1.22.4"
          value={jd.goVersion ?? ''}
          onChange={(e) => setJson({ goVersion: e.currentTarget.value })}
        />
      </InlineField>
      <InlineField
        label="Go platform"
        labelWidth={24}
        invalid={Boolean(platformErr)}
        error={platformErr}
        tooltip="The platform whose Go toolchain module holds the standard library when a profile has no go_platform label (linux-amd64 when empty; other platforms are tried when it is missing)"
      >
        <Input
          aria-label="Go platform"
          width={16}
          placeholder="linux-amd64"
          value={jd.goPlatform ?? ''}
          onChange={(e) => setJson({ goPlatform: e.currentTarget.value })}
        />
      </InlineField>
    </ConfigSection>
  );
}
