package flame_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

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

// TestTopTableRealRecursion uses a real CPU profile whose recurse function
// calls itself 12 deep: its total must not exceed the profile's total.
func TestTopTableRealRecursion(t *testing.T) {
	tr, err := flametest.FromProfile(flametest.CPUProfile(t, 300e6), 1)
	if err != nil {
		t.Fatal(err)
	}
	var sumSelf int64
	for _, r := range flame.TopTable(tr) {
		sumSelf += r.Self
		assert.LessOrEqual(t, r.Total, tr.Total(), "total of %s", r.Name)
		assert.LessOrEqual(t, r.Self, r.Total, "self of %s", r.Name)
	}
	assert.Equal(t, tr.Total(), sumSelf)
}
