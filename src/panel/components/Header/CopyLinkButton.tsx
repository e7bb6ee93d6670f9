// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import React, { useState } from 'react';
import { IconButton } from '@grafana/ui';

/**
 * "Copy link": puts the address of what the flame graph shows (zoom, view, search, sandwich,
 * collapse, colours) on the clipboard. The link copied last is kept on the button
 * (`data-link`), where a browser without clipboard access (or a test) can read it.
 */
export function CopyLinkButton({ linkOf }: { linkOf: () => string }) {
  const [copied, setCopied] = useState<string>();
  return (
    <IconButton
      name={copied ? 'check' : 'link'}
      data-testid="copy-link"
      data-link={copied}
      aria-label="Copy link"
      tooltip={copied ? 'Link copied: it opens this view as it is now' : 'Copy a link to this view as it is now'}
      onClick={() => {
        const url = linkOf();
        setCopied(url);
        navigator.clipboard?.writeText(url).catch(() => undefined);
      }}
    />
  );
}
