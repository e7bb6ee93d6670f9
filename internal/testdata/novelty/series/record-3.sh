#!/bin/sh
# Copyright 2026 The Emberscope Authors
# SPDX-License-Identifier: Apache-2.0
#
# Records the fresh evaluation series internal/testdata/novelty/series3: the same
# six programs and sizes as series2k (8 s at 250 Hz, ~2,000 samples a profile) with
# seed 3, 24 stable and 2 changed profiles per change column. It was recorded after
# the σ score's change for issue 22 was chosen, to judge it on unseen runs.
# Run from the repository root.
set -eu
OUT=internal/testdata/novelty/series3 SEED=3 STABLE=24 CHANGED=2 \
	exec "$(dirname "$0")/record-2k.sh"
