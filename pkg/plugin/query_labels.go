package plugin

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/frames"
	"github.com/emberscope/emberscope/pkg/source"
)

// queryLabels answers a "labels" query: for each label of the query's
// group-by (or frames_from_label), how much each of its values contributes
// to the selection's total, largest first, the values beyond limit summed
// into "other". Profiles without the label count under the value "".
func (d *Datasource) queryLabels(ctx context.Context, r *request) (data.Frames, error) {
	names := r.Query.GroupBy
	if len(names) == 0 {
		names, _ = r.Query.VirtualLabels()
	}
	if len(names) == 0 {
		return nil, userErrorf("a labels query needs a label: set groupBy, or write the query as `... by (label)`")
	}
	unit := frames.UnitOfProfileType(r.Query.ProfileTypeID)
	out := make(data.Frames, 0, len(names))
	for _, name := range names {
		rows, err := d.labelTotals(ctx, r, name)
		if err != nil {
			return nil, err
		}
		kept, folded := foldTotals(rows, r.Limit)
		f, err := frames.LabelContribution(name, kept, unit)
		if err != nil {
			return nil, fmt.Errorf("label %q: %w", name, err)
		}
		if folded > 0 {
			f.AppendNotices(data.Notice{
				Severity: data.NoticeSeverityInfo,
				Text: fmt.Sprintf("Showing the %d largest of %d values of %s; the other %d are summed into %q.",
					r.Limit, len(rows), name, folded, otherName),
			})
		}
		out = append(out, f)
	}
	return out, nil
}

// labelTotals sums the selection per value of one label, from its series.
func (d *Datasource) labelTotals(ctx context.Context, r *request, name string) ([]frames.ValueTotal, error) {
	series, err := d.src.Series(ctx, source.SeriesRequest{
		Selection: r.selection(),
		GroupBy:   []string{name},
		// One point per series is enough for a sum.
		Step: max(r.Step, r.Range.To.Sub(r.Range.From)),
	})
	if err != nil {
		return nil, err
	}
	if len(series) == 0 {
		if err := d.checkProfileType(ctx, r); err != nil {
			return nil, err
		}
	}
	totals := map[string]float64{}
	for _, s := range series {
		value := ""
		for _, l := range s.Labels {
			if l.Name == name {
				value = l.Value
			}
		}
		for _, p := range s.Points {
			totals[value] += p.Value
		}
	}
	rows := make([]frames.ValueTotal, 0, len(totals))
	for v, t := range totals {
		rows = append(rows, frames.ValueTotal{Value: v, Total: int64(t)})
	}
	return rows, nil
}

// foldTotals keeps the limit largest values (ties by value) and sums the rest
// into "other".
func foldTotals(rows []frames.ValueTotal, limit int) ([]frames.ValueTotal, int) {
	slices.SortFunc(rows, func(a, b frames.ValueTotal) int {
		if c := cmp.Compare(b.Total, a.Total); c != 0 {
			return c
		}
		return cmp.Compare(a.Value, b.Value)
	})
	if limit <= 0 || len(rows) <= limit {
		return rows, 0
	}
	other := frames.ValueTotal{Value: otherName}
	for _, r := range rows[limit:] {
		other.Total += r.Total
	}
	kept := append(slices.Clone(rows[:limit]), other)
	return kept, len(rows) - limit
}
