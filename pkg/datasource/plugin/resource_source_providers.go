// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/emberscope/emberscope/pkg/datasource/query"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/datasource/sourcecode"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// sourceProviders are the source view's providers, made at its first call
// from the settings.
type sourceProviders struct {
	once    sync.Once
	finder  *sourcecode.Finder
	goProxy *sourcecode.GoProxy
}

func (s *sourceProviders) close() {
	if s.goProxy != nil {
		s.goProxy.Close()
	}
}

// sourceFinder returns the providers in the order the settings page lists
// them: local roots, the profile server's VCS service, GitHub, a Go
// module proxy. A provider whose settings are wrong is left out (the
// settings were checked when the datasource was saved).
func (d *Datasource) sourceFinder() *sourcecode.Finder {
	s := &d.source
	s.once.Do(func() {
		cfg := d.settings.Source
		var ps []sourcecode.Provider
		if len(cfg.Roots) > 0 {
			ps = append(ps, &sourcecode.LocalRoots{Roots: cfg.Roots})
		}
		if cfg.ServerVCS && d.httpClient != nil && d.serverSpeaksPyroscope() {
			ps = append(ps, sourcecode.NewPyroscopeVCS(d.settings.URL, d.httpClient))
		}
		if cfg.GitHubAPIURL != "" {
			if g, err := sourcecode.NewGitHub(cfg.GitHubAPIURL, cfg.GitHubToken, d.settings.Timeout); err == nil {
				ps = append(ps, g)
			}
		}
		if cfg.GoProxyURL != "" {
			if g, err := sourcecode.NewGoProxy(cfg.GoProxyURL, d.settings.Timeout); err == nil {
				g.Platform = cfg.GoPlatform
				s.goProxy = g
				ps = append(ps, g)
			}
		}
		s.finder = sourcecode.NewFinder(0, ps...)
	})
	return s.finder
}

// serverSpeaksPyroscope tells whether the profile server may have
// Pyroscope's VCS service: not when it is known to be Parca.
func (d *Datasource) serverSpeaksPyroscope() bool {
	return d.settings.ServerKind != model.ServerParca
}

// sourceLabels reads the repository, commit, root path and Go version of
// the selection's series. Several values of one label are reported, and
// the first is used.
func (d *Datasource) sourceLabels(ctx context.Context, selector, typeID string, tr source.TimeRange, warnings *[]string) sourcecode.Request {
	m, err := query.WithMatchers(selector, profileTypeMatcher(typeID))
	if err != nil {
		return sourcecode.Request{GoVersion: d.settings.Source.GoVersion}
	}
	req := source.LabelsRequest{Matchers: []string{m}, Range: tr}
	names, err := d.src.LabelNames(ctx, req)
	if err != nil {
		*warnings = append(*warnings, fmt.Sprintf("the series' labels could not be read (%v): no repository link", err))
		return sourcecode.Request{GoVersion: d.settings.Source.GoVersion}
	}
	has := map[string]bool{}
	for _, n := range names {
		has[n] = true
	}
	value := func(name string) string {
		if !has[name] {
			return ""
		}
		vs, err := d.src.LabelValues(ctx, name, req)
		if err != nil || len(vs) == 0 {
			return ""
		}
		if len(vs) > 1 {
			*warnings = append(*warnings, fmt.Sprintf("the selection has several %s values (%s); showing %s: narrow the selector to one", name, strings.Join(vs, ", "), vs[0]))
		}
		return vs[0]
	}
	out := sourcecode.Request{
		Repository: value(labelRepository),
		Ref:        value(labelGitRef),
		RootPath:   value(labelRootPath),
		GoVersion:  value(labelGoVersion),
		Platform:   value(labelGoPlatform),
	}
	if out.GoVersion == "" {
		out.GoVersion = d.settings.Source.GoVersion
	}
	return out
}
