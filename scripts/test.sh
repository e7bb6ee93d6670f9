#!/usr/bin/env bash
# Runs every test: Go (with -race) for both modules, bounded fuzzing, the
# frontend's unit tests, type check and lint, then the browser tests against
# the playground (installing Debian's chromium when it is missing).
source "$(dirname "$0")/lib.sh"
need_tools go node npm

FUZZTIME="${FUZZTIME:-10s}"
passed=0
failed=0
failures=()

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
}

GO_PKGS=(./pkg/... ./cmd/... ./tests/...)  # not ./...: node_modules holds Go files too
go_vet() { go vet "${GO_PKGS[@]}" && (cd x/k6 && go vet ./...); }
go_tests() { go test -race -count=1 "${GO_PKGS[@]}" && (cd x/k6 && go test -race -count=1 ./...); }

# go_fuzz runs every Go fuzz target of both modules for a bounded time.
go_fuzz() {
  local ok=0 file dir target
  while IFS= read -r file; do
    dir="$(dirname "$file")"
    for target in $(grep -oE '^func (Fuzz[A-Za-z0-9_]+)' "$file" | awk '{print $2}'); do
      echo "fuzzing $target in ./$dir for $FUZZTIME"
      if [[ "$dir" == x/k6* ]]; then
        (cd x/k6 && go test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" "./${dir#x/k6}") || ok=1
      else
        go test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" "./$dir" || ok=1
      fi
    done
  done < <(grep -rlE '^func Fuzz' --include='*_test.go' pkg cmd x 2>/dev/null || true)
  return $ok
}

step "install frontend dependencies" npm_install
step "go vet" go_vet
step "go tests (race detector)" go_tests
step "go fuzz targets (${FUZZTIME} each)" go_fuzz
step "frontend type check" npm run typecheck
step "frontend lint" npm run lint
step "frontend unit tests" npm run test:ci
step "build the plugin bundle" npm run build  # the browser tests build the playground page
step "build the backend" build_backend
step "install chromium when missing" ensure_chromium
step "browser tests" npm run e2e

say "summary"
if [ "$failed" -gt 0 ]; then
  printf 'failed step: %s\n' "${failures[@]}"
fi
echo "steps: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
