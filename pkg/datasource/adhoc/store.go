// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package adhoc keeps the profile files users open ("ad hoc profiles", as
// Pyroscope's adhocprofiles.v1 calls them) in memory, decoded: each under a
// random id bound to the user who uploaded it, so that no one else can read
// it; bounded in count per user and in bytes overall (the least recently
// used go first) and expiring after a while unused. Nothing is written to
// disk or to a store.
//
// A file arrives in chunks (Grafana bounds one resource call's body, 16 MiB
// through the plugin protocol by default): the first chunk declares the
// whole size, each chunk its offset, and the last one completes the upload,
// which is then decoded (pkg/profile/fileformat) or refused.
package adhoc

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/emberscope/emberscope/pkg/profile/fileformat"
)

// Options bound a Store.
type Options struct {
	// Limits bound each file.
	Limits fileformat.Limits
	// MaxFilesPerUser bounds the files one user keeps open; opening one
	// more closes that user's least recently used file.
	MaxFilesPerUser int
	// MaxTotalBytes bounds the decoded bytes of every open file and pending
	// upload together; past it the least recently used files close.
	MaxTotalBytes int64
	// TTL closes a file unused for that long, and drops an upload not
	// completed within it.
	TTL time.Duration
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// DefaultOptions: fileformat.DefaultLimits, 16 files per user, 2 GiB in all,
// closed after an hour unused.
func DefaultOptions() Options {
	return Options{Limits: fileformat.DefaultLimits(), MaxFilesPerUser: 16, MaxTotalBytes: 2 << 30, TTL: time.Hour}
}

// Entry is one open file.
type Entry struct {
	ID         string
	Name       string
	UploadedAt time.Time
	File       *fileformat.File
	user       string
	lastUsed   time.Time
}

// upload is a file being received.
type upload struct {
	user, name string
	data       []byte
	size       int64
	started    time.Time
}

// Store holds the open files of every user.
type Store struct {
	opts    Options
	mu      sync.Mutex
	entries map[string]*Entry
	uploads map[string]*upload
}

// ErrNotFound is the answer for an id that is not open for the user (it
// never was, it expired, or it is someone else's).
var ErrNotFound = errors.New("no such open profile file: it may have expired; open it again")

// New returns an empty store.
func New(opts Options) *Store {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Store{opts: opts, entries: map[string]*Entry{}, uploads: map[string]*upload{}}
}

// Limits are the limits of each file.
func (s *Store) Limits() fileformat.Limits { return s.opts.Limits }

// Chunk receives data at offset of the upload uploadID of user. Offset 0
// starts an upload (uploadID empty: the store makes one) of size bytes
// named name. It returns the upload's id and, once every byte arrived, the
// decoded file's entry.
func (s *Store) Chunk(user, uploadID, name string, size, offset int64, data []byte) (string, *Entry, error) {
	s.mu.Lock()
	s.expire()
	var u *upload
	if offset == 0 && uploadID == "" {
		if err := s.startUpload(user, name, size); err != nil {
			s.mu.Unlock()
			return "", nil, err
		}
		uploadID = newID()
		u = &upload{user: user, name: name, size: size, started: s.opts.Now()}
		s.uploads[uploadID] = u
	} else if u = s.uploads[uploadID]; u == nil || u.user != user {
		s.mu.Unlock()
		return "", nil, fmt.Errorf("upload %q is not in progress (it may have expired): start again at offset 0", uploadID)
	}
	if offset != int64(len(u.data)) {
		s.mu.Unlock()
		return "", nil, fmt.Errorf("%s: chunk at offset %d, but %d bytes were received: send the chunk at offset %d", u.name, offset, len(u.data), len(u.data))
	}
	if int64(len(u.data)+len(data)) > u.size {
		delete(s.uploads, uploadID)
		s.mu.Unlock()
		return "", nil, fmt.Errorf("%s: chunks of more than the %d bytes announced", u.name, u.size)
	}
	u.data = append(u.data, data...)
	if int64(len(u.data)) < u.size {
		s.mu.Unlock()
		return uploadID, nil, nil
	}
	delete(s.uploads, uploadID)
	s.mu.Unlock()

	f, err := fileformat.Decode(u.name, u.data, s.opts.Limits)
	if err != nil {
		return uploadID, nil, err
	}
	return uploadID, s.Add(user, f), nil
}

// maxPendingUploads bounds the uploads one user has in progress.
const maxPendingUploads = 4

// startUpload checks a new upload's name and size, and that user has room.
func (s *Store) startUpload(user, name string, size int64) error {
	pending := 0
	for _, u := range s.uploads {
		if u.user == user {
			pending++
		}
	}
	switch {
	case pending >= maxPendingUploads:
		return fmt.Errorf("%s: %d uploads are already in progress; finish them first", name, pending)
	case name == "":
		return errors.New("the upload has no file name")
	case size <= 0:
		return fmt.Errorf("%s: the file is empty", name)
	case s.opts.Limits.MaxFileBytes > 0 && size > s.opts.Limits.MaxFileBytes:
		return &fileformat.Error{File: name, Msg: fmt.Sprintf("the file has %d bytes, more than the limit of %d bytes for a file", size, s.opts.Limits.MaxFileBytes), TooLarge: true}
	}
	return nil
}

// Add opens a decoded file for user and returns its entry.
func (s *Store) Add(user string, f *fileformat.File) *Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.opts.Now()
	e := &Entry{ID: newID(), Name: f.Name, UploadedAt: now, File: f, user: user, lastUsed: now}
	s.entries[e.ID] = e
	s.evict(user)
	return e
}

// Get returns user's open file id.
func (s *Store) Get(user, id string) (*Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	e := s.entries[id]
	if e == nil || e.user != user {
		return nil, ErrNotFound
	}
	e.lastUsed = s.opts.Now()
	return e, nil
}

// List returns user's open files, the latest first.
func (s *Store) List(user string) []*Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	var out []*Entry
	for _, e := range s.entries {
		if e.user == user {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].UploadedAt.After(out[j].UploadedAt) })
	return out
}

// expire drops the files and uploads unused for longer than the TTL.
func (s *Store) expire() {
	if s.opts.TTL <= 0 {
		return
	}
	cutoff := s.opts.Now().Add(-s.opts.TTL)
	for id, e := range s.entries {
		if e.lastUsed.Before(cutoff) {
			delete(s.entries, id)
		}
	}
	for id, u := range s.uploads {
		if u.started.Before(cutoff) {
			delete(s.uploads, id)
		}
	}
}

// evict closes user's least recently used files beyond the count, then
// anyone's beyond the bytes.
func (s *Store) evict(user string) {
	var mine []*Entry
	var all []*Entry
	var bytes int64
	for _, e := range s.entries {
		all = append(all, e)
		bytes += int64(e.File.DecodedBytes)
		if e.user == user {
			mine = append(mine, e)
		}
	}
	for _, u := range s.uploads {
		bytes += u.size
	}
	lru := func(es []*Entry) {
		sort.Slice(es, func(i, j int) bool { return es[i].lastUsed.Before(es[j].lastUsed) })
	}
	if n := s.opts.MaxFilesPerUser; n > 0 && len(mine) > n {
		lru(mine)
		for _, e := range mine[:len(mine)-n] {
			delete(s.entries, e.ID)
			bytes -= int64(e.File.DecodedBytes)
		}
	}
	if s.opts.MaxTotalBytes > 0 && bytes > s.opts.MaxTotalBytes {
		lru(all)
		for _, e := range all[:len(all)-1] {
			if bytes <= s.opts.MaxTotalBytes {
				break
			}
			if _, open := s.entries[e.ID]; open {
				delete(s.entries, e.ID)
				bytes -= int64(e.File.DecodedBytes)
			}
		}
	}
}

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
