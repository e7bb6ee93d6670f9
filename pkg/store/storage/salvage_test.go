// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSalvageCorruptTable damages a table file: Open says so and points at
// -salvage; Salvage keeps what is readable and the store opens again.
func TestSalvageCorruptTable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	db, err := Open(Options{Dir: dir})
	require.NoError(t, err)
	for i := 0; i < 50; i++ {
		_, err := db.Append(writesOf(t, synthetic(20, 5, 0, "cpu"), int64(i+1)*1e9, "svc"))
		require.NoError(t, err)
	}
	require.NoError(t, db.Flush())
	require.NoError(t, db.Close())
	ssts, err := filepath.Glob(filepath.Join(dir, "*.sst"))
	require.NoError(t, err)
	require.NotEmpty(t, ssts)
	data, err := os.ReadFile(ssts[0])
	require.NoError(t, err)
	for i := 100; i < len(data)/2; i++ {
		data[i] ^= 0x5a
	}
	require.NoError(t, os.WriteFile(ssts[0], data, 0o644))

	_, err = Open(Options{Dir: dir})
	require.ErrorIs(t, err, ErrCorrupt)
	require.Contains(t, err.Error(), "-salvage")

	require.NoError(t, Salvage(Options{Dir: dir}))
	aside, _ := filepath.Glob(dir + ".corrupt-*")
	require.Len(t, aside, 1, "the damaged directory is kept")
	db, err = Open(Options{Dir: dir})
	require.NoError(t, err)
	defer db.Close()
	// Whatever is left answers queries.
	ids := db.Select(nil, math.MinInt64, math.MaxInt64)
	snap := db.Snapshot()
	defer snap.Close()
	require.NoError(t, snap.Scan(ids, math.MinInt64, math.MaxInt64, false, func(p *Profile) error {
		for _, s := range p.Stacks {
			require.NotPanics(t, func() { _ = strings.Join(snap.View().Stack(s), ";") })
		}
		return nil
	}))
}
