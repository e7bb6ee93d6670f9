#!/usr/bin/env bash
# Copyright 2026 The Emberscope Authors
# SPDX-License-Identifier: Apache-2.0

# Builds everything (plugin bundle, playground page, backend, the emberscope
# command) and runs the demo: the embedded store, an instrumented demo service,
# a k6-style load generator and the playground, all on loopback.
# Flags are passed to `emberscope demo` (for example -duration 60s).
source "$(dirname "$0")/lib.sh"
need_tools go node npm
say "building the frontend (plugin bundle and playground page)"
build_frontend
say "building the backend"
build_backend
say "starting the demo (Ctrl-C stops it)"
exec ./bin/emberscope demo "$@"
