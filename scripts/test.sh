#!/usr/bin/env bash
# Copyright 2026 The Emberscope Authors
# SPDX-License-Identifier: Apache-2.0

# Runs every test: Go (with -race) for every Go module of the repository,
# bounded fuzzing, staticcheck, the frontend's unit tests, type check and lint,
# then the browser tests against the playground (installing Debian's chromium
# when it is missing). Prints the tests passed/failed/skipped per runner and
# every step's time. A skipped test fails the run unless
# scripts/skip-allowlist.txt names it with a reason.
#
# The Go steps run in the background beside the frontend's (see "The two
# lanes" below); their output is printed when they end, and is in
# test-results/logs/go.log as they run.
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
# Fuzzing budget. The default run (CI's) fuzzes each target for 5 s with one
# worker: the Go lane shares the machine's two cores with the frontend lane,
# and a second worker doubled the step's CPU (each worker is one busy core)
# for a smoke run whose job is to catch shallow crashes near the seeds; every
# target's seed corpus also runs in `go test -race`. --full fuzzes for a
# minute per target with a worker per core. FUZZTIME and FUZZPARALLEL
# override both.
if [ "${EMBERSCOPE_FULL:-}" = 1 ]; then
  FUZZTIME="${FUZZTIME:-60s}"
  FUZZPARALLEL="${FUZZPARALLEL:-$(nproc 2>/dev/null || echo 2)}"
else
  FUZZTIME="${FUZZTIME:-5s}"
  FUZZPARALLEL="${FUZZPARALLEL:-1}"
fi
FUZZMINIMIZE="${FUZZMINIMIZE:-100x}"

REPORTS="$ROOT/test-results/reports"  # per-runner summaries (test-results/ is gitignored)
LOGS="$ROOT/test-results/logs"        # the background lanes' output
SIGNALS="$ROOT/test-results/signals"  # where one lane tells the other that a step is done
STEPS="$REPORTS/steps.tsv"            # every step: result, seconds, lane, name
rm -rf "$REPORTS" "$LOGS" "$SIGNALS" && mkdir -p "$REPORTS" "$LOGS" "$SIGNALS"
TOOLS_BIN="$ROOT/bin/tools"           # linters built from tools/go.mod (bin/ is gitignored)
exec 3>&1                             # the terminal, for the background lanes' one-line news
LANE=""                               # the lane a step runs in ("" is the foreground)

# step runs one step and records its result and time in $STEPS. A step in a
# background lane also says on the terminal that it started and how it ended.
step() {
  local name="$1"; shift
  say "$name"
  [ -z "$LANE" ] || echo "[$LANE] $name: started" >&3
  local start=$SECONDS rc=0 result=ok
  "$@" || rc=$?
  [ "$rc" = 0 ] || result=FAILED
  local took=$((SECONDS - start))
  echo "--- $name: $result ($took s)"
  [ -z "$LANE" ] || echo "[$LANE] $name: $result ($took s)" >&3
  printf '%s\t%s\t%s\t%s\n' "$result" "$took" "${LANE:-main}" "$name" >> "$STEPS"
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

# go vet and staticcheck read the export data of every package they check and
# of its dependencies, which the go command compiles for them. With -race it is
# the very compilation race_deps and the race tests need (the same action
# IDs): without it, both compiled every package a second time, uninstrumented,
# for nothing else in the run. No file of the repository has a race build tag,
# so both still see every file.
go_vet() { in_each_module go vet -race; }

# race_deps compiles, with the race detector, the packages of other modules that
# the current module's packages and tests import, into Go's build cache, where
# the race tests find them. None of them is ours, so none embeds the playground
# page: the Go lane compiles them while it waits for the page, instead of after.
race_deps() {
  local pkgs
  pkgs="$(go list -e -deps -test -f '{{if .Module}}{{if not .Module.Main}}{{.ImportPath}}{{end}}{{end}}' "$@" | sort -u)"
  [ -z "$pkgs" ] || xargs go build -race <<<"$pkgs"
}
race_deps_all() { in_each_module race_deps; }

# go_test runs one module's tests and counts them (test-report.mjs).
go_test_module() {
  local name
  name="$(pwd)"
  name="${name#"$ROOT"}"
  name="${name#/}"
  name="${name//\//_}"
  [ -n "$name" ] || name=root
  go test -race -count=1 -timeout 30m -json "$@" | node "$ROOT/scripts/test-report.mjs" go "$REPORTS/go-$name.summary.json"
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
      -parallel "$FUZZPARALLEL" -fuzzminimizetime "$FUZZMINIMIZE" "./$pkg")
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
build_staticcheck() {
  mkdir -p "$TOOLS_BIN" &&
  (cd tools && go build -o "$TOOLS_BIN/staticcheck" honnef.co/go/tools/cmd/staticcheck)
}
go_lint() { GOFLAGS="${GOFLAGS:+$GOFLAGS }-race" in_each_module "$TOOLS_BIN/staticcheck"; }

jest_tests() {
  local out="$REPORTS/jest.json" ok=0
  npm run test:ci -- --json --outputFile="$out" || ok=1
  [ -f "$out" ] || { echo "jest wrote no report"; return 1; }
  node scripts/test-report.mjs jest "$out" "$REPORTS/jest.summary.json" || ok=1
  return $ok
}

# The browser tests run the bin/emberscope the Go lane built after the page
# (global-setup builds one itself when $EMBERSCOPE_TEST_BIN is not set).
browser_tests() {
  local out="$REPORTS/playwright.json" ok=0
  EMBERSCOPE_TEST_BIN="$ROOT/bin/emberscope" PLAYWRIGHT_JSON_OUTPUT_NAME="$out" \
    npm run e2e:run -- --reporter=list,json || ok=1
  [ -f "$out" ] || { echo "playwright wrote no report"; return 1; }
  node scripts/test-report.mjs playwright "$out" "$REPORTS/playwright.summary.json" || ok=1
  return $ok
}

# The browser benchmark's page. The default run's smoke (below) keeps no
# numbers, so its page is not minified (a sixth of the build's CPU).
build_bench_page() {
  if [ "${EMBERSCOPE_FULL:-}" = 1 ]; then
    npm run build:bench
  else
    npm run build:bench -- --env nominify
  fi
}

# The browser benchmark, on the page the "build the benchmark page" step
# built: by default a smoke of its harness (the 16k-node case, every measure
# once, a measure that fails fails the step); with --full every case (500k
# nodes, 5,000 levels) at the full count of runs. Its numbers go to
# test-results/ (`npm run bench:browser` makes the ones in BENCHMARKS.md).
browser_bench() {
  if [ "${EMBERSCOPE_FULL:-}" = 1 ]; then
    npm run bench:browser:run
  else
    BENCH_RUNS=1 BENCH_CASES=16k npm run bench:browser:run
  fi
}
if [ "${EMBERSCOPE_FULL:-}" = 1 ]; then BENCH_LABEL="every case"; else BENCH_LABEL="16k nodes once, a smoke; --full: every case"; fi

# signal says that a step another lane waits for is done (whether it passed or
# not: the waiting step then fails on its own, naming what is missing).
signal() { touch "$SIGNALS/$1"; }

# wait_for waits until the signal is given, or until the lane that gives it
# (process $2) has ended without giving it.
wait_for() {
  local name="$1" giver="$2"
  while [ ! -e "$SIGNALS/$name" ]; do
    if ! kill -0 "$giver" 2>/dev/null; then
      echo "the lane that signals $name ended without it"
      return 1
    fi
    sleep 1
  done
}

# The two lanes. Two cores' worth of work side by side: the Go lane (fuzzing,
# vet, the backend's build, the race tests and staticcheck: compilers and tests
# that use both cores, with waits) in the background, and the frontend lane
# (install, webpack, tsc, eslint, Jest, the browser tests: mostly one core each)
# in the foreground. They meet where one lane's files are the other's input:
#   page-built     go vet, the Go tests and staticcheck compile pkg/hosts/playground/page,
#                  which embeds the playground page webpack writes: no Go command of
#                  the lane compiles it until the page is written (the fuzz targets'
#                  packages do not import it);
#   bundle-built   internal/release's test runs `npm run build` into dist/, and the
#                  backend's build writes into dist/: both wait for the frontend
#                  lane's own build of dist/, and nothing of that lane writes dist/
#                  or the page after it;
#   backend-built  the browser tests run the bin/emberscope the Go lane built, with
#                  the page in it.
MAIN_PID=$$
go_lane() {
  LANE=go
  step "build staticcheck (tools/go.mod)" build_staticcheck
  step "go fuzz targets (${FUZZTIME} each, ${FUZZPARALLEL} worker(s))" go_fuzz
  step "compile the dependencies with -race (while the page builds)" race_deps_all
  wait_for page-built "$MAIN_PID"
  step "go vet" go_vet
  wait_for bundle-built "$MAIN_PID"
  step "build the backend" build_backend
  signal backend-built
  export EMBERSCOPE_DIST_BUILT=1  # internal/release's package test stages the dist/ built above
  step "install prometheus when missing" ensure_prometheus
  step "go tests (race detector)" go_tests
  step "go lint (staticcheck)" go_lint
}

# A background lane runs in its own process group, so that stop_lanes ends it
# with everything it started when the run ends early (Ctrl-C included: a
# background command does not get the terminal's SIGINT).
lanes=()
start_lane() {
  local name="$1"; shift
  set -m
  "$@" > "$LOGS/$name.log" 2>&1 &
  set +m
  lanes+=("$!")
  echo "[$name] running in the background; output: test-results/logs/$name.log"
}
stop_lanes() {
  local pid
  for pid in "${lanes[@]+"${lanes[@]}"}"; do
    kill -TERM -- "-$pid" 2>/dev/null || true
  done
}
trap stop_lanes EXIT
trap 'exit 130' INT TERM

# finish_lane waits for a background lane and prints its output.
finish_lane() {
  local name="$1" pid="$2" p rest=()
  wait "$pid" || true
  for p in "${lanes[@]}"; do [ "$p" = "$pid" ] || rest+=("$p"); done
  lanes=("${rest[@]+"${rest[@]}"}")
  say "output of the $name lane (test-results/logs/$name.log)"
  cat "$LOGS/$name.log"
}

# ensure_prometheus installs Debian's prometheus, which the recording rules'
# tests (pkg/store/export) start on loopback, when it is missing.
ensure_prometheus() {
  command -v prometheus >/dev/null 2>&1 && return
  say "installing Debian's prometheus for the recording rules tests"
  # the chromium lane may hold apt's lock: wait for it rather than fail
  as_root apt-get -o DPkg::Lock::Timeout=600 update -qq || return 1
  DEBIAN_FRONTEND=noninteractive as_root apt-get -o DPkg::Lock::Timeout=600 install -y -qq prometheus >/dev/null
}

# Debian's chromium installs (apt, mostly network and disk) beside everything
# else when it is missing and packages can be installed without a password prompt.
chromium_lane() {
  LANE=chromium
  step "install chromium when missing" ensure_chromium
}
chromium_in_background() {
  { { [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1; } ||
    { [ -z "${CHROMIUM_HEADLESS_SHELL_PATH:-}" ] && ! command -v chromium-headless-shell >/dev/null 2>&1; }; } &&
    { [ "$(id -u)" = 0 ] || sudo -n true 2>/dev/null; }
}

step "no tracked build outputs" node scripts/check-tracked.mjs
start_lane go go_lane
GO_LANE="${lanes[-1]}"
CHROMIUM_LANE=""
if chromium_in_background; then
  start_lane chromium chromium_lane
  CHROMIUM_LANE="${lanes[-1]}"
fi
step "install frontend dependencies" npm_install
step "build the playground page" npm run build:playground
signal page-built
step "build the plugin bundle" npm run build
signal bundle-built
step "frontend type check" npm run typecheck
step "frontend lint" npm run lint
step "frontend unit tests" jest_tests
step "build the benchmark page" build_bench_page
if [ -n "$CHROMIUM_LANE" ]; then
  finish_lane chromium "$CHROMIUM_LANE"
  # the lane's CHROMIUM_PATH ended with it (a failed install failed its step)
  export_chromium_paths
else
  step "install chromium when missing" ensure_chromium
fi
wait_for backend-built "$GO_LANE" || echo "the browser tests run without the Go lane's bin/emberscope"
step "browser tests" browser_tests
step "browser benchmark ($BENCH_LABEL)" browser_bench
finish_lane go "$GO_LANE"

say "summary"
node scripts/test-report.mjs totals "$REPORTS" || true
echo
echo "steps (the go and chromium lanes ran beside the main one, so a step's time includes sharing the cores):"
awk -F'\t' '{printf "  %4d s  %-8s %-6s %s\n", $2, $3, $1, $4}' "$STEPS"
echo "slowest steps:"
sort -t$'\t' -k2,2rn "$STEPS" | head -5 | awk -F'\t' '{printf "  %4d s  %s\n", $2, $4}'
passed=$(grep -c '^ok' "$STEPS" || true)
failed=$(grep -c '^FAILED' "$STEPS" || true)
grep '^FAILED' "$STEPS" | cut -f4 | sed 's/^/failed step: /' || true
echo "whole run: $SECONDS s"
echo "steps: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
