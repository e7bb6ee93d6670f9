// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package sourcecode

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"
)

// GitHub finds files in a GitHub or GitHub Enterprise repository through the
// contents API, at the profile's service_repository, service_git_ref and
// service_root_path labels.
type GitHub struct {
	api          baseURL
	token        string
	hc           *http.Client
	MaxFileBytes int64
}

// NewGitHub returns the provider for the API at apiBase (https://api.github.com
// or a GitHub Enterprise server's https://host/api/v3), sending token, when
// set, to that base only.
func NewGitHub(apiBase, token string, timeout time.Duration) (*GitHub, error) {
	b, err := parseBase("githubApiUrl", apiBase)
	if err != nil {
		return nil, err
	}
	return &GitHub{api: b, token: token, hc: newHTTPClient(b, timeout)}, nil
}

// Name implements Provider.
func (g *GitHub) Name() string { return "GitHub API at " + g.api.String() }

// Find implements Provider.
func (g *GitHub) Find(ctx context.Context, r Request) (*File, error) {
	repo, err := ParseRepository(r.Repository)
	if err != nil {
		return nil, err
	}
	rel, err := repo.RelativePath(r.Path, r.RootPath)
	if err != nil {
		return nil, err
	}
	limit := g.MaxFileBytes
	if limit <= 0 {
		limit = DefaultMaxFileBytes
	}
	u := g.api.join(append([]string{"repos", repo.Owner, repo.Name, "contents"}, strings.Split(rel, "/")...)...)
	if r.Ref != "" {
		u.RawQuery = "ref=" + queryEscape(r.Ref)
	}
	h := http.Header{}
	h.Set("Accept", "application/vnd.github+json")
	h.Set("X-GitHub-Api-Version", "2022-11-28")
	if g.token != "" {
		h.Set("Authorization", "Bearer "+g.token)
	}
	// The JSON answer holds the file base64-encoded: about 4/3 of its size.
	body, status, err := get(ctx, g.hc, g.api, u, h, limit*4/3+64<<10)
	if err != nil {
		return nil, err
	}
	switch status {
	case http.StatusOK:
	case http.StatusNotFound:
		return nil, notFoundf("%s has no %s at %s", repo, rel, refOrDefault(r.Ref))
	case http.StatusUnauthorized, http.StatusForbidden:
		return nil, fmt.Errorf("GitHub refused to read %s (HTTP %d): check the GitHub token in the datasource's settings", repo, status)
	default:
		return nil, fmt.Errorf("GitHub answered HTTP %d for %s in %s", status, rel, repo)
	}
	var c struct {
		Type     string `json:"type"`
		Encoding string `json:"encoding"`
		Size     int64  `json:"size"`
		Content  string `json:"content"`
	}
	if err := json.Unmarshal(body, &c); err != nil {
		return nil, fmt.Errorf("GitHub's answer for %s in %s is not the contents API's JSON: %v", rel, repo, err)
	}
	if c.Type != "file" {
		return nil, notFoundf("%s in %s is a %s, not a file", rel, repo, c.Type)
	}
	if c.Size > limit {
		return nil, refusef("%s in %s is %d bytes, over the cap of %d bytes", rel, repo, c.Size, limit)
	}
	if c.Encoding != "base64" {
		return nil, fmt.Errorf("GitHub sent %s in %s with encoding %q, not base64", rel, repo, c.Encoding)
	}
	content, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(c.Content, "\n", ""))
	if err != nil {
		return nil, fmt.Errorf("GitHub sent %s in %s with content that is not base64: %v", rel, repo, err)
	}
	if int64(len(content)) > limit {
		return nil, refusef("%s in %s is over the cap of %d bytes", rel, repo, limit)
	}
	return &File{
		Content:  content,
		Origin:   fmt.Sprintf("GitHub %s at %s", repo, refOrDefault(r.Ref)),
		Provider: "github",
		Link:     repo.Link(r.Ref, rel),
	}, nil
}

func refOrDefault(ref string) string {
	if ref == "" {
		return "its default branch"
	}
	return ref
}

func queryEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(s, "%", "%25"), "&", "%26"), "#", "%23")
}

// Repository is a repository named by a service_repository label.
type Repository struct {
	Host, Owner, Name string
}

func (r Repository) String() string { return r.Owner + "/" + r.Name }

var repoElem = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// ParseRepository reads https://github.com/owner/repo, github.com/owner/repo
// or git@github.com:owner/repo.git.
func ParseRepository(s string) (Repository, error) {
	raw := strings.TrimSpace(s)
	if raw == "" {
		return Repository{}, notFoundf("the profile has no service_repository label")
	}
	t := raw
	for _, p := range []string{"https://", "http://", "ssh://", "git@"} {
		t = strings.TrimPrefix(t, p)
	}
	t = strings.Replace(t, ":", "/", 1)
	t = strings.TrimSuffix(strings.TrimSuffix(t, "/"), ".git")
	parts := strings.Split(t, "/")
	if len(parts) != 3 || parts[0] == "" || !repoElem.MatchString(parts[1]) || !repoElem.MatchString(parts[2]) || parts[1] == ".." || parts[2] == ".." {
		return Repository{}, fmt.Errorf("service_repository %q is not a repository URL such as https://github.com/owner/repo", raw)
	}
	return Repository{Host: parts[0], Owner: parts[1], Name: parts[2]}, nil
}

// RelativePath places a profile's file in the repository: after the
// repository's own import path (github.com/owner/repo/...), else after
// rootPath (the service_root_path label, where the build checked it out).
func (r Repository) RelativePath(path, rootPath string) (string, error) {
	p := strings.ReplaceAll(path, "\\", "/")
	prefix := r.Host + "/" + r.Owner + "/" + r.Name + "/"
	rel := ""
	if i := strings.Index(p, prefix); i >= 0 && (i == 0 || p[i-1] == '/') {
		rel = p[i+len(prefix):]
	} else if root := strings.TrimRight(strings.ReplaceAll(rootPath, "\\", "/"), "/"); root != "" && strings.HasPrefix(p, root+"/") {
		rel = p[len(root)+1:]
	} else {
		return "", notFoundf("%s is neither under %s nor under the service_root_path label %q", path, prefix, rootPath)
	}
	return cleanRelative(rel)
}

// Link is the file's page in the repository at ref ("HEAD" when unknown).
func (r Repository) Link(ref, rel string) string {
	if ref == "" {
		ref = "HEAD"
	}
	return "https://" + r.Host + "/" + r.Owner + "/" + r.Name + "/blob/" + queryEscape(ref) + "/" + rel
}
