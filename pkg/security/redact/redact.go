// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package redact removes credentials from text before it reaches a log or
// an error message: the user:password@ of URLs and bearer tokens.
package redact

import (
	"context"
	"log/slog"
	"net/url"
	"regexp"
)

var (
	userinfo = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.\-]*://)[^/?#@\s"']*@`)
	bearer   = regexp.MustCompile(`(?i)(bearer\s+)[A-Za-z0-9\-._~+/=]+`)
)

// String returns s with the credentials of every URL and bearer token in it
// replaced by "REDACTED".
func String(s string) string {
	s = userinfo.ReplaceAllString(s, "${1}REDACTED@")
	return bearer.ReplaceAllString(s, "${1}REDACTED")
}

// URL returns u without its password (the user name kept), for messages.
func URL(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.User == nil {
		return String(u)
	}
	return p.Redacted()
}

// Error is an error whose message has its credentials redacted.
type Error struct{ Err error }

func (e Error) Error() string { return String(e.Err.Error()) }
func (e Error) Unwrap() error { return e.Err }

// Handler wraps h so that every message and string attribute is redacted.
func Handler(h slog.Handler) slog.Handler { return handler{h} }

type handler struct{ h slog.Handler }

func (r handler) Enabled(ctx context.Context, l slog.Level) bool { return r.h.Enabled(ctx, l) }

func (r handler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, String(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(attr(a))
		return true
	})
	return r.h.Handle(ctx, out)
}

func attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, String(v.String()))
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return slog.String(a.Key, String(err.Error()))
		}
		return slog.String(a.Key, String(v.String()))
	case slog.KindGroup:
		as := v.Group()
		out := make([]any, len(as))
		for i, x := range as {
			out[i] = attr(x)
		}
		return slog.Group(a.Key, out...)
	}
	return a
}

func (r handler) WithAttrs(as []slog.Attr) slog.Handler {
	out := make([]slog.Attr, len(as))
	for i, a := range as {
		out[i] = attr(a)
	}
	return handler{r.h.WithAttrs(out)}
}

func (r handler) WithGroup(name string) slog.Handler { return handler{r.h.WithGroup(name)} }
