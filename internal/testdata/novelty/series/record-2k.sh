#!/bin/sh
# Copyright 2026 The Emberscope Authors
# SPDX-License-Identifier: Apache-2.0
#
# Records the ~2,000-sample evaluation series (internal/testdata/novelty/series2k):
# 8 s of CPU a profile at 250 Hz, seed 2 (runs distinct from series/, seed 17).
# OUT, SEED, STABLE and CHANGED override the folder, the seed and the numbers of
# stable and changed profiles (record-3.sh records series3 with them).
# Two recorders at a time at most (each runs on one thread), niced, so that a
# shared machine keeps a core. Run from the repository root.
set -eu
out=${OUT:-internal/testdata/novelty/series2k}
bin=$(mktemp -d)/series-recorder
go build -o "$bin" ./internal/testdata/novelty/series/recorder
mkdir -p "$out"
export GODEBUG=asyncpreemptoff=1
rec() {
	nice -n 10 "$bin" -out "$out" -program "$1" -seconds 8 -hz 250 -seed "${SEED:-2}" \
		-stable "${STABLE:-24}" -changed "${CHANGED:-1}" -others 1 2>"$out/.log-$1" || {
		cat "$out/.log-$1" >&2
		exit 1
	}
	rm -f "$out/.log-$1"
}
for pair in "logindex sitegen" "rideshare vault" "thumbnails codefmt"; do
	set -- $pair
	rec "$1" &
	a=$!
	rec "$2" &
	b=$!
	wait $a
	wait $b
done
"$bin" -out "$out" -merge
