// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestNoveltySigmaTextAndUnit(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	p := NoveltyPoint{From: at, To: at.Add(time.Millisecond), Score: 11.26, Sigma: true, MatchFrom: at.Add(-time.Minute), MatchTo: at.Add(-time.Minute + time.Millisecond)}
	ann := NoveltyAnnotations([]NovelPoint{{NoveltyPoint: p, Threshold: 6, Changes: []NoveltyChange{
		{Name: "encoding/json.(*decodeState).object", From: 0.18, To: 0.32, Sigma: 9.04},
		{Name: "compress/flate.(*compressor).deflate", From: 0.35, To: 0.216, Sigma: -4.44},
		{Name: "main.redactSecrets", From: 0, To: 0.004, Sigma: 10.6},
	}}})
	require.Equal(t, "Novelty 11.3 σ (threshold 6.0 σ). Moved most: encoding/json.(*decodeState).object 18 % → 32 % (+9.0 σ),"+
		" compress/flate.(*compressor).deflate 35 % → 22 % (−4.4 σ), main.redactSecrets 0.0 % → 0.4 % (+11 σ)."+
		" Most similar earlier profile: 2026-12-01T09:59:00Z.", ann.Fields[3].At(0))
	fs := NoveltyScores([]NoveltySeries{{Points: []NoveltyPoint{p}}}, DiffLink{})
	cfg := fs[0].Fields[1].Config
	require.Equal(t, "σ", cfg.Unit)
	require.Nil(t, cfg.Max, "σ has no upper bound")
	require.Contains(t, cfg.Description, "σ")
	// Cosine scores keep their 0..1 range and text.
	p.Sigma = false
	p.Score = 0.42
	fs = NoveltyScores([]NoveltySeries{{Points: []NoveltyPoint{p}}}, DiffLink{})
	require.Empty(t, fs[0].Fields[1].Config.Unit)
	require.Equal(t, 1.0, float64(*fs[0].Fields[1].Config.Max))
	ann = NoveltyAnnotations([]NovelPoint{{NoveltyPoint: p, Threshold: 0.1, Changes: []NoveltyChange{{Name: "x", From: 0.1, To: 0.5}}}})
	require.Contains(t, ann.Fields[3].At(0), "Novelty score 0.42 (threshold 0.10). Moved most: x (10.0% → 50.0% of self).")
}
