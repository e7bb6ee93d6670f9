package playground

import (
	"fmt"
	"html"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// staticHandler serves the built playground page from dir. A path without a
// file behind it gets index.html (the page routes itself); when dir has no
// index.html at all, a short page says how to build it.
func staticHandler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			writeMessage(w, http.StatusMethodNotAllowed, r.Method+" is not allowed here")
			return
		}
		index := filepath.Join(dir, "index.html")
		if _, err := os.Stat(index); err != nil {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintf(w, notBuiltPage, html.EscapeString(dir), html.EscapeString(BuildCommand))
			return
		}
		clean := path.Clean("/" + r.URL.Path)
		if clean != "/" {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(clean, "/")))); err != nil {
				if path.Ext(clean) != "" {
					http.NotFound(w, r)
					return
				}
				http.ServeFile(w, r, index)
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}

const notBuiltPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>Emberscope playground</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>Emberscope playground</h1>
<p>The playground page is not built: <code>%s/index.html</code> is missing.</p>
<p>Build it with <code>%s</code>, then reload. The datasource's API is already served under <code>/api/</code>.</p>
</body></html>
`
