// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package attack holds the store's adversarial, crash and load tests: they
// build cmd/emberscope (without -race), run it as a real process and attack
// it over its network API, as a hostile client or an unlucky user would.
// The package has no code of its own.
package attack
