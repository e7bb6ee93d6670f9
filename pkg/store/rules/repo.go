// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package rules

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	settingsv1 "github.com/grafana/pyroscope/api/gen/proto/go/settings/v1"
	"google.golang.org/protobuf/proto"
)

// Settings is where the rules are persisted: the store's database.
type Settings interface {
	Setting(name string) ([]byte, bool, error)
	PutSetting(name string, value []byte) error
	ScanSettings(prefix string, fn func(name string, value []byte) error) error
}

// settingPrefix names each tenant's rule collection in Settings.
const settingPrefix = "recording_rules/"

var (
	// ErrConflict is an update naming a generation the rule does not have.
	ErrConflict = errors.New("conflicting update, please try again")
	// ErrNotFound is a rule id the tenant does not have.
	ErrNotFound = errors.New("no such rule")
	// ErrProvisioned is a change to a rule loaded from the provisioning file.
	ErrProvisioned = errors.New("provisioned rule")
)

// Repo holds every tenant's rules: the provisioned ones (the same for all
// tenants) and those stored through the API. Reads for evaluation are
// lock-free; changes are serialised and written to Settings before they
// are seen.
type Repo struct {
	db          Settings
	provisioned []*settingsv1.RecordingRule
	provByID    map[string]*settingsv1.RecordingRule

	mu       sync.Mutex // serialises changes
	stored   map[string]*settingsv1.RecordingRulesStore
	compiled atomic.Pointer[map[string][]*Compiled]
}

// NewRepo loads the stored rules of every tenant; provisioned rules (see
// LoadFile) are added to each tenant's.
func NewRepo(db Settings, provisioned []*settingsv1.RecordingRule) (*Repo, error) {
	r := &Repo{db: db, stored: map[string]*settingsv1.RecordingRulesStore{}, provByID: map[string]*settingsv1.RecordingRule{}}
	for _, p := range provisioned {
		p = proto.CloneOf(p)
		p.Provisioned = true
		if p.Id == "" {
			p.Id = contentID(p)
		}
		p.ProfileType = profileTypeOf(p.Matchers)
		if p.Generation == 0 {
			p.Generation = 1
		}
		if _, dup := r.provByID[p.Id]; dup {
			return nil, fmt.Errorf("recording rules: provisioned rule id %q appears twice", p.Id)
		}
		r.provByID[p.Id] = p
		r.provisioned = append(r.provisioned, p)
	}
	err := db.ScanSettings(settingPrefix, func(name string, value []byte) error {
		coll := &settingsv1.RecordingRulesStore{}
		if err := proto.Unmarshal(value, coll); err != nil {
			return fmt.Errorf("recording rules of tenant %q: %w", strings.TrimPrefix(name, settingPrefix), err)
		}
		r.stored[strings.TrimPrefix(name, settingPrefix)] = coll
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := r.recompile(); err != nil {
		return nil, err
	}
	return r, nil
}

// List returns the tenant's rules, provisioned ones first; a stored rule
// with a provisioned rule's id is hidden by it.
func (r *Repo) List(tenant string) []*settingsv1.RecordingRule {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*settingsv1.RecordingRule, 0, len(r.provisioned))
	for _, p := range r.provisioned {
		out = append(out, proto.CloneOf(p))
	}
	if coll := r.stored[tenant]; coll != nil {
		for _, s := range coll.Rules {
			if r.provByID[s.Id] == nil {
				out = append(out, toAPI(s))
			}
		}
	}
	return out
}

// Get returns the tenant's rule id, or ErrNotFound.
func (r *Repo) Get(tenant, id string) (*settingsv1.RecordingRule, error) {
	if p := r.provByID[id]; p != nil {
		return proto.CloneOf(p), nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if coll := r.stored[tenant]; coll != nil {
		for _, s := range coll.Rules {
			if s.Id == id {
				return toAPI(s), nil
			}
		}
	}
	return nil, ErrNotFound
}

// Upsert adds the rule, or replaces the tenant's rule of the same id when
// rule.Generation is that rule's generation (ErrConflict otherwise). The
// stored rule's generation is 1 when new, one more than before otherwise.
func (r *Repo) Upsert(tenant string, rule *settingsv1.RecordingRuleStore) (*settingsv1.RecordingRule, error) {
	if r.provByID[rule.Id] != nil {
		return nil, ErrProvisioned
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.stored[tenant]
	coll := &settingsv1.RecordingRulesStore{}
	if old != nil {
		coll = proto.CloneOf(old)
	}
	rule = proto.CloneOf(rule)
	pos := -1
	for i, s := range coll.Rules {
		if s.Id == rule.Id {
			pos = i
		}
	}
	if pos < 0 {
		rule.Generation = 1
		coll.Rules = append(coll.Rules, rule)
	} else {
		if rule.Generation != coll.Rules[pos].Generation {
			return nil, ErrConflict
		}
		rule.Generation++
		coll.Rules[pos] = rule
	}
	coll.Generation++
	if err := r.save(tenant, coll); err != nil {
		return nil, err
	}
	return toAPI(rule), nil
}

// Delete removes the tenant's rule id, or answers ErrNotFound.
func (r *Repo) Delete(tenant, id string) error {
	if r.provByID[id] != nil {
		return ErrProvisioned
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.stored[tenant]
	if old == nil {
		return ErrNotFound
	}
	coll := proto.CloneOf(old)
	n := len(coll.Rules)
	coll.Rules = deleteID(coll.Rules, id)
	if len(coll.Rules) == n {
		return ErrNotFound
	}
	coll.Generation++
	return r.save(tenant, coll)
}

func deleteID(rs []*settingsv1.RecordingRuleStore, id string) []*settingsv1.RecordingRuleStore {
	out := rs[:0]
	for _, s := range rs {
		if s.Id != id {
			out = append(out, s)
		}
	}
	return out
}

// save persists coll as the tenant's rules, then makes them current.
func (r *Repo) save(tenant string, coll *settingsv1.RecordingRulesStore) error {
	b, err := proto.Marshal(coll)
	if err != nil {
		return err
	}
	if err := r.db.PutSetting(settingPrefix+tenant, b); err != nil {
		return fmt.Errorf("storing recording rules: %w", err)
	}
	r.stored[tenant] = coll
	return r.recompile()
}

// Rules are the compiled rules that apply to the tenant's profiles.
func (r *Repo) Rules(tenant string) []*Compiled {
	m := *r.compiled.Load()
	if rs, ok := m[tenant]; ok {
		return rs
	}
	return m[""]
}

// recompile rebuilds the lock-free view of the rules; the key "" holds the
// provisioned rules alone, for tenants without rules of their own.
func (r *Repo) recompile() error {
	prov := make([]*Compiled, 0, len(r.provisioned))
	for _, p := range r.provisioned {
		c, err := Compile(p)
		if err != nil {
			return err
		}
		prov = append(prov, c)
	}
	m := map[string][]*Compiled{"": prov}
	for tenant, coll := range r.stored {
		rs := append([]*Compiled(nil), prov...)
		for _, s := range coll.Rules {
			if r.provByID[s.Id] != nil {
				continue
			}
			c, err := Compile(toAPI(s))
			if err != nil {
				return err
			}
			rs = append(rs, c)
		}
		m[tenant] = rs
	}
	r.compiled.Store(&m)
	return nil
}

func toAPI(s *settingsv1.RecordingRuleStore) *settingsv1.RecordingRule {
	s = proto.CloneOf(s)
	return &settingsv1.RecordingRule{
		Id:               s.Id,
		MetricName:       s.MetricName,
		ProfileType:      profileTypeOf(s.Matchers),
		Matchers:         s.Matchers,
		GroupBy:          s.GroupBy,
		ExternalLabels:   s.ExternalLabels,
		Generation:       s.Generation,
		StacktraceFilter: s.StacktraceFilter,
	}
}
