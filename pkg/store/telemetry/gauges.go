// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package telemetry

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/emberscope/emberscope/pkg/store/storage"
)

// memoryCollector reports the estimated size of the in-memory tables and
// of Pebble's memtables, measured when scraped.
type memoryCollector struct {
	db       *storage.DB
	est      *storage.MemoryEstimator
	tables   *prometheus.Desc
	total    *prometheus.Desc
	memtable *prometheus.Desc
}

// RegisterMemoryGauges registers on r:
//   - emberscope_store_memory_table_bytes{table="strings|stacks|series|postings"}
//   - emberscope_store_memory_tables_bytes (their sum)
//   - emberscope_store_memtable_bytes (Pebble's memtables, for writes not yet flushed)
//
// The table sizes are estimates from entry counts and string lengths,
// updated incrementally (the tables only grow), so a scrape stays cheap.
func RegisterMemoryGauges(r prometheus.Registerer, db *storage.DB) error {
	return r.Register(&memoryCollector{
		db:  db,
		est: storage.NewMemoryEstimator(db),
		tables: prometheus.NewDesc("emberscope_store_memory_table_bytes",
			"Estimated bytes held by each in-memory table (strings, stacks, series, postings).", []string{"table"}, nil),
		total: prometheus.NewDesc("emberscope_store_memory_tables_bytes",
			"Estimated bytes held by the in-memory tables together.", nil, nil),
		memtable: prometheus.NewDesc("emberscope_store_memtable_bytes",
			"Bytes Pebble's memtables hold (allocated for writes not yet flushed to sstables).", nil, nil),
	})
}

func (c *memoryCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.tables
	ch <- c.total
	ch <- c.memtable
}

func (c *memoryCollector) Collect(ch chan<- prometheus.Metric) {
	b := c.est.Estimate()
	for _, t := range []struct {
		name  string
		bytes int64
	}{{"strings", b.Strings}, {"stacks", b.Stacks}, {"series", b.Series}, {"postings", b.Postings}} {
		ch <- prometheus.MustNewConstMetric(c.tables, prometheus.GaugeValue, float64(t.bytes), t.name)
	}
	ch <- prometheus.MustNewConstMetric(c.total, prometheus.GaugeValue, float64(b.Total()))
	ch <- prometheus.MustNewConstMetric(c.memtable, prometheus.GaugeValue, float64(c.db.MemtableBytes()))
}
