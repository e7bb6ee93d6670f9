// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"io"
	"net/http"
)

// adhocUploadAnswer tells how far an upload got; Profile is set once the
// last chunk arrived and the file decoded (Upload's answer in Pyroscope).
type adhocUploadAnswer struct {
	UploadID string     `json:"uploadId"`
	Received int64      `json:"received"`
	Profile  *adhocMeta `json:"profile,omitempty"`
}

// adhocUpload answers POST adhoc/upload?name=&size=&offset=&uploadId= whose
// body is the chunk of the file at offset: offset 0 (no uploadId) starts a
// file of size bytes, the answer's uploadId names it in the next chunks.
// Chunks let a file larger than one resource call (Grafana's limit) in.
func (d *Datasource) adhocUpload(r *http.Request) (any, error) {
	if r.Method != http.MethodPost {
		return nil, userErrorf("%s is not allowed: POST the file's bytes", r.Method)
	}
	size, err := queryInt(r, "size")
	if err != nil {
		return nil, err
	}
	offset, err := queryInt(r, "offset")
	if err != nil {
		return nil, err
	}
	q := r.URL.Query()
	limit := adhocFiles.Limits().MaxFileBytes
	var body []byte
	if r.Body != nil {
		rd := io.Reader(r.Body)
		if limit > 0 {
			rd = io.LimitReader(r.Body, limit+1)
		}
		if body, err = io.ReadAll(rd); err != nil {
			return nil, userErrorf("cannot read the chunk: %v", err)
		}
	}
	if offset == 0 && q.Get("uploadId") == "" && size == 0 {
		size = int64(len(body))
	}
	id, e, err := adhocFiles.Chunk(adhocUser(r.Context()), q.Get("uploadId"), q.Get("name"), size, offset, body)
	if err != nil {
		return nil, adhocError(err)
	}
	ans := adhocUploadAnswer{UploadID: id, Received: offset + int64(len(body))}
	if e != nil {
		m := metaOf(e)
		ans.Profile = &m
	}
	return ans, nil
}
