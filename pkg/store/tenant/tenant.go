// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package tenant carries the tenant of a request, as Pyroscope does: with
// multitenancy on, the X-Scope-OrgID header names it (and is required);
// otherwise every request belongs to "anonymous".
//
// The store keeps a tenant in the reserved series label __tenant__, which
// it never shows: the anonymous tenant's series have no such label, so data
// stored before tenants existed belongs to it.
package tenant

import (
	"context"
	"fmt"
	"net/http"
	"unicode/utf8"

	"github.com/emberscope/emberscope/pkg/security/httpguard"
)

const (
	// Header names the tenant, as in Pyroscope and Cortex.
	Header = "X-Scope-OrgID"
	// Anonymous is the tenant of every request when multitenancy is off.
	Anonymous = "anonymous"
	// Label is the reserved series label holding a tenant other than Anonymous.
	Label = "__tenant__"
	// maxLength bounds a tenant ID, as Cortex does.
	maxLength = 150
)

type ctxKey struct{}

// With returns ctx carrying tenant id.
func With(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, ctxKey{}, id)
}

// From returns the tenant of ctx (Anonymous when none is set).
func From(ctx context.Context) string {
	if id, ok := ctx.Value(ctxKey{}).(string); ok && id != "" {
		return id
	}
	return Anonymous
}

// LabelValue is the value of Label for tenant id ("" for Anonymous).
func LabelValue(id string) string {
	if id == Anonymous {
		return ""
	}
	return id
}

// Validate checks a tenant ID as Cortex does: printable, at most 150 bytes,
// none of / \ and not "." or "..".
func Validate(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("no tenant: the %s header is required when multitenancy is enabled", Header)
	case len(id) > maxLength:
		return fmt.Errorf("tenant ID of %d bytes exceeds the limit of %d", len(id), maxLength)
	case !utf8.ValidString(id):
		return fmt.Errorf("tenant ID %q is not valid UTF-8", id)
	case id == "." || id == "..":
		return fmt.Errorf("tenant ID %q is not allowed", id)
	}
	for _, r := range id {
		if r < 0x20 || r == 0x7f || r == '/' || r == '\\' {
			return fmt.Errorf("tenant ID %q: character %q is not allowed", id, r)
		}
	}
	return nil
}

// Middleware puts the request's tenant into its context. With multi set,
// X-Scope-OrgID is required (401 without it, as Pyroscope answers);
// otherwise the header is ignored and the tenant is Anonymous.
func Middleware(multi bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := Anonymous
		if multi {
			id = r.Header.Get(Header)
			if err := Validate(id); err != nil {
				httpguard.Error(w, r, http.StatusUnauthorized, err.Error())
				return
			}
		}
		next.ServeHTTP(w, r.WithContext(With(r.Context(), id)))
	})
}

// FromLabel is the tenant of a series whose Label has value v.
func FromLabel(v string) string {
	if v == "" {
		return Anonymous
	}
	return v
}
