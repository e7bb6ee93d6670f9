// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package store

import (
	"encoding/json"
	"net/http"

	"github.com/emberscope/emberscope/pkg/store/storage"
)

// flushHandler serves POST /flush: what Pebble holds in its memtables is
// written to sstables (so that the data directory alone, without replaying
// the write-ahead log, holds everything, e.g. before a volume snapshot).
// The answer is Pebble's flush count and level-0 table count, as JSON.
func flushHandler(db *storage.DB) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := db.Flush(); err != nil {
			http.Error(w, "flush: "+err.Error(), http.StatusInternalServerError)
			return
		}
		flushes, l0 := db.FlushStats()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]int64{"flushes": flushes, "l0Tables": l0})
	}
}
