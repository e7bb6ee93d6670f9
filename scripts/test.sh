#!/usr/bin/env bash
# Copyright 2026 The Emberscope Authors
# SPDX-License-Identifier: Apache-2.0

# Runs every test: Go (with -race) for every Go module of the repository,
# bounded fuzzing, staticcheck, the frontend's unit tests, type check and lint,
# then the browser tests against the playground (installing Debian's chromium
# when it is missing). Prints the tests passed/failed/skipped per runner and
# the slowest steps. A skipped test fails the run unless
# scripts/skip-allowlist.txt names it with a reason.
#
#   bash scripts/test.sh            # the default run: short versions of the long suites
#   bash scripts/test.sh --full     # or EMBERSCOPE_FULL=1: longer fuzzing, the crash loop,
#                                   # the load test, the 500k-node browser benchmark
source "$(dirname "$0")/lib.sh"
need_tools go node npm

for arg in "$@"; do
  case "$arg" in
    --full) export EMBERSCOPE_FULL=1 ;;
    *) echo "usage: $0 [--full]" >&2; exit 2 ;;
  esac
done
if [ "${EMBERSCOPE_FULL:-}" = 1 ]; then
  FUZZTIME="${FUZZTIME:-60s}"
else
  FUZZTIME="${FUZZTIME:-5s}"
fi
FUZZMINIMIZE="${FUZZMINIMIZE:-100x}"

REPORTS="$ROOT/test-results/reports"  # per-runner summaries (test-results/ is gitignored)
rm -rf "$REPORTS" && mkdir -p "$REPORTS"
TOOLS_BIN="$ROOT/bin/tools"           # linters built from tools/go.mod (bin/ is gitignored)

passed=0
failed=0
failures=()
timings=()

step() {
  local name="$1"; shift
  say "$name"
  local start=$SECONDS
  if "$@"; then
    passed=$((passed + 1))
    echo "--- $name: ok ($((SECONDS - start)) s)"
  else
    failed=$((failed + 1))
    failures+=("$name")
    echo "--- $name: FAILED ($((SECONDS - start)) s)"
  fi
  timings+=("$((SECONDS - start))	$name")
}

# go_modules lists the folder of every Go module git tracks (x/k6 and its
# submodules keep their own go version and dependencies), except tools/, which
# only pins the linters. node_modules is a module too once npm's postinstall
# wrote its go.mod (scripts/go-mod-in-node-modules.mjs), but an untracked one.
go_modules() {
  git ls-files -- go.mod '*/go.mod' | sed -e 's|/*go\.mod$||' -e 's|^$|.|' | grep -vx tools
}

# in_each_module runs "$@" ./... inside every Go module: the go command's own
# pattern names the module's packages and stops at the folders of other
# modules.
in_each_module() {
  local ok=0 mod
  for mod in $(go_modules); do
    echo "module $mod"
    (cd "$mod" && "$@" ./...) || ok=1
  done
  return $ok
}

# fuzz_targets prints "package-folder target" for each fuzz target of the
# current module: the go command lists the packages' test files, whose
# `func Fuzz...` lines name the targets.
fuzz_targets() {
  local here file target
  here="$(pwd)"
  go list -f '{{range .TestGoFiles}}{{$.Dir}}/{{.}}{{"\n"}}{{end}}{{range .XTestGoFiles}}{{$.Dir}}/{{.}}{{"\n"}}{{end}}' ./... |
    xargs -r awk 'match($0, /^func Fuzz[A-Za-z0-9_]+/) { print FILENAME, substr($0, 6, RLENGTH - 5) }' |
    while read -r file target; do
      echo "$(dirname "${file#"$here"/}") $target"
    done
}

go_vet() { in_each_module go vet; }

# go_test runs one module's tests and counts them (test-report.mjs).
go_test_module() {
  local name
  name="$(pwd)"
  name="${name#"$ROOT"}"
  name="${name#/}"
  name="${name//\//_}"
  [ -n "$name" ] || name=root
  go test -race -count=1 -json "$@" | node "$ROOT/scripts/test-report.mjs" go "$REPORTS/go-$name.summary.json"
}
go_tests() { in_each_module go_test_module; }

# fuzz_target fuzzes one target for FUZZTIME. Each new interesting input is minimised for at most
# FUZZMINIMIZE runs: with Go's default (a minute per input), a target whose seeds are real profiles
# spent its whole short budget minimising its seeds' first mutants and barely fuzzed
# (BENCHMARKS.md). A crasher is still written to testdata/fuzz and fails the step.
#
# Go 1.26's fuzz coordinator can end a run that found nothing with "context deadline exceeded"
# when -fuzztime runs out while a worker is busy (golang/go#75804, fixed in Go 1.27). That
# failure, and only that one (no new crasher written), is run again once and said so.
fuzz_target() {
  local mod="$1" pkg="$2" target="$3" out rc
  local corpus="$mod/$pkg/testdata/fuzz/$target"
  local before
  before="$(ls "$corpus" 2>/dev/null | sort || true)"
  fuzz_once() {
    (cd "$mod" && go test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" \
      -fuzzminimizetime "$FUZZMINIMIZE" "./$pkg")
  }
  out="$(mktemp)"
  rc=0
  fuzz_once 2>&1 | tee "$out" || rc=$?
  if [ "$rc" != 0 ] && grep -q '^    context deadline exceeded$' "$out" &&
    [ "$(ls "$corpus" 2>/dev/null | sort || true)" = "$before" ]; then
    echo "$target: the run ended with Go's fuzz-deadline race (golang/go#75804) and no crasher; running it again"
    fuzz_once && rc=0 || rc=$?
  fi
  rm -f "$out"
  return "$rc"
}

# go_fuzz runs every Go fuzz target of every module for FUZZTIME.
go_fuzz() {
  local ok=0 mod targets pkg target
  for mod in $(go_modules); do
    targets="$(cd "$mod" && fuzz_targets)" || { echo "module $mod: its fuzz targets cannot be listed"; ok=1; continue; }
    while read -r pkg target; do
      [ -n "$target" ] || continue
      echo "fuzzing $target in $mod/$pkg for $FUZZTIME"
      fuzz_target "$mod" "$pkg" "$target" </dev/null || ok=1
    done <<<"$targets"
  done
  return $ok
}

# staticcheck, at the version tools/go.mod pins, over every module.
go_lint() {
  mkdir -p "$TOOLS_BIN" &&
  (cd tools && go build -o "$TOOLS_BIN/staticcheck" honnef.co/go/tools/cmd/staticcheck) &&
  in_each_module "$TOOLS_BIN/staticcheck"
}

jest_tests() {
  local out="$REPORTS/jest.json" ok=0
  npm run test:ci -- --json --outputFile="$out" || ok=1
  [ -f "$out" ] || { echo "jest wrote no report"; return 1; }
  node scripts/test-report.mjs jest "$out" "$REPORTS/jest.summary.json" || ok=1
  return $ok
}

browser_tests() {
  local out="$REPORTS/playwright.json" ok=0
  PLAYWRIGHT_JSON_OUTPUT_NAME="$out" npm run e2e -- --reporter=list,json || ok=1
  [ -f "$out" ] || { echo "playwright wrote no report"; return 1; }
  node scripts/test-report.mjs playwright "$out" "$REPORTS/playwright.summary.json" || ok=1
  return $ok
}

# The browser benchmark: the 16k-node case by default, every case (500k
# nodes, 5,000 levels) with --full. Its numbers go to test-results/.
browser_bench() {
  if [ "${EMBERSCOPE_FULL:-}" = 1 ]; then
    npm run bench:browser
  else
    BENCH_CASES=16k npm run bench:browser
  fi
}
if [ "${EMBERSCOPE_FULL:-}" = 1 ]; then BENCH_LABEL="every case"; else BENCH_LABEL="16k nodes; --full: every case"; fi

step "no tracked build outputs" bash scripts/check-tracked.sh
step "install frontend dependencies" npm_install
step "go vet" go_vet
step "go lint (staticcheck)" go_lint
step "go tests (race detector)" go_tests
step "go fuzz targets (${FUZZTIME} each)" go_fuzz
step "frontend type check" npm run typecheck
step "frontend lint" npm run lint
step "frontend unit tests" jest_tests
step "build the plugin bundle" npm run build  # the browser tests build the playground page
step "build the backend" build_backend
step "install chromium when missing" ensure_chromium
step "browser tests" browser_tests
step "browser benchmark ($BENCH_LABEL)" browser_bench

say "summary"
node scripts/test-report.mjs totals "$REPORTS" || true
echo
echo "slowest steps:"
printf '%s\n' "${timings[@]}" | sort -rn | head -5 | awk -F'\t' '{printf "  %4d s  %s\n", $1, $2}'
if [ "$failed" -gt 0 ]; then
  printf 'failed step: %s\n' "${failures[@]}"
fi
echo "steps: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
