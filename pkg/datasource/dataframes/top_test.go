// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package dataframes

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/flame/flametest"
)

func TestTopTableFrame(t *testing.T) {
	rows := flame.TopTable(flametest.Stacks("a;b;a;b 4", "a 1", "b 2"))
	f := TopTable(rows, "bytes")
	sym := mustField(t, f, "symbol")
	var names []string
	for i := 0; i < sym.Len(); i++ {
		names = append(names, sym.At(i).(string))
	}
	assert.Equal(t, []string{"b", "a", "total"}, names)
	assert.Equal(t, []int64{6, 1, 0}, int64s(t, f, "self"))
	assert.Equal(t, []int64{6, 5, 7}, int64s(t, f, "total"))
	assert.Equal(t, "bytes", mustField(t, f, "self").Config.Unit)
	assert.Equal(t, "bytes", mustField(t, f, "total").Config.Unit)
	checkGolden(t, "top_table", f)
}
