# Copyright 2026 The Emberscope Authors
# SPDX-License-Identifier: Apache-2.0

# Shared helpers of the build, demo and test scripts. Sourced, not run.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

say() { printf '\n==> %s\n' "$*"; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# need_tools fails early, naming what is missing.
need_tools() {
  local missing=()
  for t in "$@"; do command -v "$t" >/dev/null 2>&1 || missing+=("$t"); done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "missing tools: ${missing[*]} (this project needs Go 1.26, Node 20 and npm)" >&2
    exit 1
  fi
}

# npm_install runs `npm ci` unless node_modules already matches package-lock.json.
npm_install() {
  local stamp=node_modules/.emberscope-lock-sha
  local want
  want="$(sha256sum package-lock.json | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    echo "node_modules matches package-lock.json"
    return
  fi
  npm ci --no-audit --no-fund --prefer-offline || return 1
  echo "$want" > "$stamp"
}

# ensure_chromium installs Debian's Chromium when no browser is there, and its
# chromium-headless-shell, which the browser tests drive (a page costs it half
# the CPU of chromium --headless; the benchmark keeps the full browser).
ensure_chromium() {
  local missing=()
  if [ -z "${CHROMIUM_PATH:-}" ] || [ ! -x "$CHROMIUM_PATH" ]; then
    command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  fi
  if [ -z "${CHROMIUM_HEADLESS_SHELL_PATH:-}" ] || [ ! -x "$CHROMIUM_HEADLESS_SHELL_PATH" ]; then
    command -v chromium-headless-shell >/dev/null 2>&1 || missing+=(chromium-headless-shell)
  fi
  if [ "${#missing[@]}" -gt 0 ]; then
    say "installing Debian's ${missing[*]} for the browser tests"
    as_root apt-get update -qq || return 1
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null || return 1
  fi
  export_chromium_paths
}

# export_chromium_paths names the browsers found for the browser tests and the benchmark.
export_chromium_paths() {
  if [ -z "${CHROMIUM_PATH:-}" ] && command -v chromium >/dev/null 2>&1; then
    export CHROMIUM_PATH="$(command -v chromium)"
  fi
  if [ -z "${CHROMIUM_HEADLESS_SHELL_PATH:-}" ] && command -v chromium-headless-shell >/dev/null 2>&1; then
    export CHROMIUM_HEADLESS_SHELL_PATH="$(command -v chromium-headless-shell)"
  fi
}

# build_frontend builds the plugin bundle and the playground page.
build_frontend() {
  npm_install && npm run build && npm run build:playground
}

# build_backend builds the emberscope command (with the playground page built
# at that moment in it) and the plugin's backend binary. Both are built static
# with -trimpath, as the release (internal/release), the store image
# (Dockerfile, internal/deploytest) and pkg/store/attack build theirs: their
# tests then find every compiled package in Go's build cache and only link.
build_backend() {
  mkdir -p bin dist/datasource &&
  CGO_ENABLED=0 go build -trimpath -o bin/emberscope ./cmd/emberscope &&
  CGO_ENABLED=0 go build -trimpath -tags arrow_json_stdlib -o "dist/datasource/gpx_emberscope_$(go env GOOS)_$(go env GOARCH)" ./pkg
}
