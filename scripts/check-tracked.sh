#!/usr/bin/env bash
# Copyright 2026 The Emberscope Authors
# SPDX-License-Identifier: Apache-2.0

# Fails when git tracks a build output: an executable or object file (ELF,
# Mach-O, PE, WebAssembly, static archive) or any file over 5 MB. Fixtures are
# data (pprof, JSON, PNG), never programs; a large fixture belongs in
# scripts/tracked-large-allowlist.txt with its reason.
source "$(dirname "$0")/lib.sh"

limit=$((5 * 1024 * 1024))
allow="$ROOT/scripts/tracked-large-allowlist.txt"
bad=0
while IFS= read -r -d '' f; do
  [ -f "$f" ] || continue
  magic="$(head -c 4 "$f" | od -An -tx1 | tr -d ' \n')"
  case "$magic" in
    7f454c46) kind="an ELF executable or object" ;;
    cffaedfe|cefaedfe|feedfacf|feedface|cafebabe) kind="a Mach-O executable" ;;
    0061736d) kind="a WebAssembly module" ;;
    213c6172) kind="a static archive" ;;
    4d5a*) kind="a Windows (PE) executable" ;;
    *) kind="" ;;
  esac
  if [ -z "$kind" ] && [ "$(stat -c %s "$f")" -gt "$limit" ]; then
    if [ -f "$allow" ] && grep -qxF "$f" <(sed 's/[[:space:]]*#.*//' "$allow"); then continue; fi
    kind="over 5 MB ($(stat -c %s "$f") bytes)"
  fi
  if [ -n "$kind" ]; then
    echo "tracked build output: $f is $kind; remove it with 'git rm --cached $f' and list it in .gitignore" >&2
    bad=1
  fi
done < <(git ls-files -z)
[ "$bad" -eq 0 ] && echo "no tracked build outputs ($(git ls-files | wc -l) files checked)"
exit "$bad"
