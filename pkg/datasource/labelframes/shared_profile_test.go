// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package labelframes_test

import (
	"context"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/pkg/datasource/labelframes"
	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// sharedProfile reads one of the real profiles pushed to Parca; a missing
// one fails the test.
func sharedProfile(t *testing.T, name string) *profile.Profile {
	t.Helper()
	p, err := profile.ParseData(fixtures.Read(t, "parca/pushed-profiles/"+name))
	require.NoError(t, err)
	return p
}

// TestBuildOnRecordedProfile uses a CPU profile recorded from an app whose
// samples carry category ("observability :: tracing", "observability ::
// metrics", "authentication") and route labels, about half of them neither.
func TestBuildOnRecordedProfile(t *testing.T) {
	ctx := context.Background()
	p := sharedProfile(t, "labeled.cpu.redated.pb.gz")
	src := newProfileSource(t, p)
	all := sumWhere(t, p, func(map[string]string) bool { return true })

	tree, err := labelframes.Build(ctx, src, stacksRequest(checkout), []string{"category", "route"}, "::", labelframes.Options{})
	require.NoError(t, err)
	assert.Equal(t, all, tree.Total())
	assert.Equal(t, []string{"(no category)", "authentication", "observability"}, childNames(tree, flame.Root))

	obs := child(t, tree, flame.Root, "observability", flame.KindVirtual)
	assert.Equal(t, []string{"metrics", "tracing"}, childNames(tree, obs))
	for _, part := range []string{"metrics", "tracing"} {
		n := child(t, tree, obs, part, flame.KindVirtual)
		assert.Equal(t, sumWhere(t, p, hasLabel("category", "observability :: "+part)), tree.NodeTotal(n), part)
		for _, c := range tree.Children(n) {
			assert.Equal(t, flame.KindVirtual, tree.Kind(c), "route frames under each category")
			assert.Equal(t, "route", tree.VirtualLabel(c))
		}
	}
	none := child(t, tree, flame.Root, "(no category)", flame.KindVirtual)
	assert.Equal(t, sumWhere(t, p, hasLabel("category", "")), tree.NodeTotal(none))

	rows, err := labelframes.Contribution(ctx, src, stacksRequest(checkout).Selection, "route", 2)
	require.NoError(t, err)
	require.Len(t, rows, 4)
	assert.Equal(t, []string{"/bike", "/car", "other", "(no route)"}, []string{rows[0].Value, rows[1].Value, rows[2].Value, rows[3].Value})
	assert.Equal(t, sumWhere(t, p, hasLabel("route", "/bike")), rows[0].Total)
	assert.InDelta(t, 0.1804, rows[0].Share, 0.0005, "pprof -tags says /bike is 18.04%")
}
