// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Command emberscope-datasource is the backend of the Emberscope datasource,
// started by Grafana.
package main

import (
	"os"

	"github.com/grafana/grafana-plugin-sdk-go/backend/datasource"
	"github.com/grafana/grafana-plugin-sdk-go/backend/log"

	"github.com/emberscope/emberscope/pkg/datasource/plugin"
)

func main() {
	// Manage serves the datasource over gRPC to Grafana, creating one
	// instance per configured datasource and replacing it when its settings
	// change.
	if err := datasource.Manage(plugin.PluginID, plugin.NewDatasource, datasource.ManageOpts{}); err != nil {
		log.DefaultLogger.Error(err.Error())
		os.Exit(1)
	}
}
