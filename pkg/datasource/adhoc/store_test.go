// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package adhoc

import (
	"errors"
	"strings"
	"testing"
	"time"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func open(t *testing.T, s *Store, user, name string) *Entry {
	t.Helper()
	body := []byte("main;work 3\n")
	_, e, err := s.Chunk(user, "", name, int64(len(body)), 0, body)
	if err != nil || e == nil {
		t.Fatalf("open %s: entry %v, error %v", name, e, err)
	}
	return e
}

func TestFilesAreTheirUsersBoundedAndExpire(t *testing.T) {
	c := &clock{t: time.Unix(1e9, 0)}
	opts := DefaultOptions()
	opts.MaxFilesPerUser, opts.TTL, opts.Now = 2, time.Hour, c.now
	s := New(opts)

	a := open(t, s, "alice", "a.txt")
	if _, err := s.Get("bob", a.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("bob got alice's file (error %v)", err)
	}
	c.t = c.t.Add(time.Minute)
	b := open(t, s, "alice", "b.txt")
	c.t = c.t.Add(time.Minute)
	open(t, s, "alice", "c.txt")
	if _, err := s.Get("alice", a.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("the least recently used file stayed open past the count (error %v)", err)
	}
	if got := len(s.List("alice")); got != 2 {
		t.Errorf("alice has %d files open, want 2", got)
	}
	c.t = c.t.Add(2 * time.Hour)
	if _, err := s.Get("alice", b.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("a file unused for 2h is still open (error %v)", err)
	}
}

func TestChunksInOrder(t *testing.T) {
	s := New(DefaultOptions())
	body := []byte("main;work 3\nmain 1\n")
	id, e, err := s.Chunk("alice", "", "s.txt", int64(len(body)), 0, body[:5])
	if err != nil || e != nil {
		t.Fatalf("first chunk: %v %v", e, err)
	}
	if _, _, err := s.Chunk("alice", id, "", 0, 9, body[9:]); err == nil || !strings.Contains(err.Error(), "send the chunk at offset 5") {
		t.Errorf("a chunk out of order: error %v", err)
	}
	if _, _, err := s.Chunk("bob", id, "", 0, 5, body[5:]); err == nil {
		t.Errorf("bob continued alice's upload")
	}
	if _, e, err = s.Chunk("alice", id, "", 0, 5, body[5:]); err != nil || e == nil || e.Name != "s.txt" {
		t.Fatalf("last chunk: %v %v", e, err)
	}
	if _, _, err := s.Chunk("alice", "", "big", 1<<40, 0, []byte("x")); err == nil || !strings.Contains(err.Error(), "more than the limit") {
		t.Errorf("a file over the limit: error %v", err)
	}
}
