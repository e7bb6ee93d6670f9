package flame_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/flame"
	"github.com/emberscope/emberscope/pkg/flame/flametest"
)

func TestTopTableCountsRecursionOnce(t *testing.T) {
	tr := flametest.Stacks("a;b;a;b 4", "a 1", "b 2")
	assert.Equal(t, []flame.TopRow{
		{Name: "b", Self: 6, Total: 6},
		{Name: "a", Self: 1, Total: 5},
		{Name: "total", Self: 0, Total: 7},
	}, flame.TopTable(tr))
}

func TestTopTableTiesByName(t *testing.T) {
	tr := flametest.Stacks("m;z 2", "m;y 2", "x 2")
	assert.Equal(t, []flame.TopRow{
		{Name: "x", Self: 2, Total: 2},
		{Name: "y", Self: 2, Total: 2},
		{Name: "z", Self: 2, Total: 2},
		{Name: "m", Self: 0, Total: 4},
		{Name: "total", Self: 0, Total: 6},
	}, flame.TopTable(tr))
}

// TestTopTableMatchesTheProfile computes, straight from the samples of a
// real CPU profile (with recurse calling itself 12 deep), each function's
// self (samples where it is the leaf) and total (samples where it appears at
// least once), and compares them with the top table.
func TestTopTableMatchesTheProfile(t *testing.T) {
	p := flametest.CPUProfile(t, time.Second)
	tr, err := flametest.FromProfile(p, 1)
	require.NoError(t, err)
	self := map[string]int64{}
	total := map[string]int64{}
	for _, s := range p.Sample {
		v := s.Value[1]
		if v == 0 {
			continue
		}
		self[s.Location[0].Line[0].Function.Name] += v
		seen := map[string]bool{}
		for _, loc := range s.Location {
			for _, l := range loc.Line {
				if !seen[l.Function.Name] {
					seen[l.Function.Name] = true
					total[l.Function.Name] += v
				}
			}
		}
	}
	rows := flame.TopTable(tr)
	require.Len(t, rows, len(total)+1, "one row per function, plus the root")
	recursive := false
	for _, r := range rows {
		if r.Name == flame.RootName {
			assert.Equal(t, tr.Total(), r.Total)
			continue
		}
		assert.Equal(t, self[r.Name], r.Self, "self of %s", r.Name)
		assert.Equal(t, total[r.Name], r.Total, "total of %s", r.Name)
		if strings.HasSuffix(r.Name, "flametest.recurse") {
			recursive = true
		}
	}
	assert.True(t, recursive, "the profile should hold the recursive function")
}

func TestTopTableSkipsVirtualFrames(t *testing.T) {
	tr := byService()
	v := tr.VirtualChild(flame.Root, "service", "idle") // samples with no stack
	tr.AddValue(v, 3)
	assert.Equal(t, []flame.TopRow{
		{Name: "work", Self: 4, Total: 4},
		{Name: "main", Self: 3, Total: 7},
		{Name: "total", Self: 3, Total: 10},
	}, flame.TopTable(tr))
}
