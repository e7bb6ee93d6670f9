// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/emberscope/emberscope/pkg/source"
)

// knownTypesLookback is how far before a query's start a profile type must
// have had data to count as known.
const knownTypesLookback = 30 * 24 * time.Hour

// checkProfileType is called when a query found nothing: it tells an empty
// range (fine, Grafana shows "No data") from a profile type the server does
// not have while it has others (a mistake the user should see). A server with
// no profile types at all around the range is an empty range too.
func (d *Datasource) checkProfileType(ctx context.Context, r *request) error {
	id := r.Query.ProfileTypeID
	types, err := d.src.ProfileTypes(ctx, source.TimeRange{From: r.Range.From.Add(-knownTypesLookback), To: r.Range.To})
	if err != nil {
		return err
	}
	ids := make([]string, 0, len(types))
	for _, t := range types {
		if t.String() == id {
			return nil
		}
		ids = append(ids, t.String())
	}
	if len(ids) == 0 {
		// Nothing at all around this range: an empty range, not a typo.
		// Grafana shows "No data", as for any other empty range.
		return nil
	}
	slices.Sort(ids)
	return userErrorf("unknown profile type %q: the profile server has %s", id, strings.Join(ids, ", "))
}
