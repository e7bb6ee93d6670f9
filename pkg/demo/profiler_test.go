package demo

import "testing"

func TestWithoutSessionID(t *testing.T) {
	for in, want := range map[string]string{
		"app{__session_id__=77e4,region=eu}":       "app{region=eu}",
		"app{region=eu,__session_id__=77e4}":       "app{region=eu}",
		"app{a=1,__session_id__=77e4,b=2}":         "app{a=1,b=2}",
		"app{__session_id__=77e4}":                 "app",
		"app":                                      "app",
		"app{region=eu}":                           "app{region=eu}",
		"app{my__session_id__x=1,__session_id__=}": "app{my__session_id__x=1}",
	} {
		if got := withoutSessionID(in); got != want {
			t.Errorf("withoutSessionID(%q) = %q, want %q", in, got, want)
		}
	}
}
