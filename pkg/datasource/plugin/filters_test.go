// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
)

func TestParseRequestMergesFilters(t *testing.T) {
	r, err := parseRequest(dataQuery(`{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"api\"}",
		"filters":[{"key":"region","operator":"=~","value":"eu-.*"},{"key":"route","operator":"!=","value":"/health"},
		{"key":"service_name","operator":"!~","value":"api-canary"},{"key":"k6_test","operator":"=","value":"42","condition":""}]}`), 15*time.Second)
	require.NoError(t, err)
	assert.Equal(t, `{k6_test="42",region=~"eu-.*",route!="/health",service_name="api",service_name!~"api-canary"}`, r.Query.Selector)
	require.Len(t, r.Query.Matchers, 5, "Matchers follow the selector")

	// Filters narrow a text expression too, and the comparison of a diff.
	r, err = parseRequest(dataQuery(`{"expr":"reverse(`+cpuType+`{a=\"1\"})","comparison":{"labelSelector":"{b=\"2\"}","from":1,"to":2},
		"filters":[{"key":"env","operator":"=","value":"prod"}]}`), 15*time.Second)
	require.NoError(t, err)
	assert.Equal(t, `{a="1",env="prod"}`, r.Query.Selector)
	assert.Equal(t, `reverse(`+cpuType+`{a="1",env="prod"})`, r.Query.String())
	assert.Equal(t, `{b="2",env="prod"}`, r.Comparison.Selector)
}

func TestParseRequestFilterErrors(t *testing.T) {
	cases := map[string]struct{ filters, want string }{
		"unknown operator": {`[{"key":"a","operator":"=","value":"1"},{"key":"b","operator":"<","value":"3"}]`,
			`filters[1]: operator "<" on label "b" is not supported: use =, !=, =~ or !~`},
		"no key":       {`[{"key":" ","operator":"=","value":"1"}]`, `filters[0]: the filter has no key (label name)`},
		"metric name":  {`[{"key":"__name__","operator":"=","value":"x"}]`, `filters[0]: cannot filter on __name__: profiles have no metric name`},
		"bad regex":    {`[{"key":"a","operator":"=~","value":"(eu"}]`, "filters[0]: a=~\"(eu\": error parsing regexp: missing closing ): `(eu`"},
		"not an array": {`{"key":"a"}`, `invalid query JSON: field "filters" must be []plugin.adHocFilter, not object`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := parseRequest(dataQuery(`{"profileTypeId":"`+cpuType+`","filters":`+c.filters+`}`), 15*time.Second)
			require.Error(t, err)
			assert.Equal(t, c.want, err.Error())
			assert.Equal(t, backend.StatusBadRequest, errorResponse(err).Status, "a bad filter is the query's mistake")
		})
	}
}

// TestSelectorsAndFiltersAgainstTheStore checks, against the real store,
// that several matchers on one label, an empty selector and ad-hoc filters
// select exactly the samples they name.
func TestSelectorsAndFiltersAgainstTheStore(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	total := plugintest.Pprof(t, plugintest.CPUFile, "cpu").Total
	byRoute := plugintest.CPUByRoute(t)
	checkout, search, none := byRoute["/checkout"], byRoute["/search"], byRoute[""]
	require.Positive(t, checkout)
	require.Positive(t, search)

	filters := func(fs ...adHocFilter) string {
		b, err := json.Marshal(fs)
		require.NoError(t, err)
		return string(b)
	}
	cases := []struct {
		name, selector, filters string
		want                    int64
	}{
		{"empty braces select everything", `{}`, `[]`, total},
		{"empty string selects everything", ``, `null`, total},
		{"two matchers on one label", `{service_name="shop", route=~"/.*", route!="/search"}`, `[]`, checkout},
		{"three matchers on one label", `{route=~"/.+", route!="/search", route!~"/nothing.*"}`, `[]`, checkout},
		{"filter =", `{service_name="shop"}`, filters(adHocFilter{"route", "=", "/search"}), search},
		{"filter !=, matching samples without the label", `{service_name="shop"}`, filters(adHocFilter{"route", "!=", "/checkout"}), search + none},
		{"filter =~", `{service_name="shop"}`, filters(adHocFilter{"route", "=~", "/checkout|/search"}), checkout + search},
		{"filter !~", `{service_name="shop"}`, filters(adHocFilter{"route", "!~", "/s.*"}), checkout + none},
		{"filter on the selector's label", `{route=~"/.*"}`, filters(adHocFilter{"route", "!=", "/checkout"}), search},
		{"filters and {}", `{}`, filters(adHocFilter{"env", "=", "test"}, adHocFilter{"route", "=", "/checkout"}), checkout},
		{"filter that matches nothing", `{}`, filters(adHocFilter{"env", "=", "prod"}), 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sel, err := json.Marshal(c.selector)
			require.NoError(t, err)
			js := `{"profileTypeId":"` + cpuType + `","labelSelector":` + string(sel) + `,"filters":` + c.filters + `}`
			resp := run(t, d, q("P", "profile", js), q("M", "metrics", js))
			rows := flameRows(t, ok(t, resp, "P")[0])
			assert.Equal(t, c.want, rows[0].Value, "flamegraph root total")
			sum, _, _ := seriesSum(t, ok(t, resp, "M"))
			assert.Equal(t, float64(c.want), sum, "series total")
		})
	}
}
