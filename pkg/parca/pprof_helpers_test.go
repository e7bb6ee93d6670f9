package parca_test

import (
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/require"
)

// readProfile parses a pprof file; a missing one fails the test.
func readProfile(t *testing.T, path string) *profile.Profile {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err, "recorded pprof %s", path)
	defer f.Close()
	p, err := profile.Parse(f)
	require.NoError(t, err)
	return p
}

// shapeSection matches one Go generic shape section without nested
// brackets inside its type list beyond one level.
var shapeSection = regexp.MustCompile(`\[go\.shape\.(?:[^\[\]]|\[\])*\]`)

// leafName names the innermost frame of a location as Pyroscope does.
func leafName(loc *profile.Location) string {
	if len(loc.Line) == 0 {
		return fmt.Sprintf("0x%x", loc.Address)
	}
	return shapeSection.ReplaceAllString(loc.Line[0].Function.Name, "")
}
