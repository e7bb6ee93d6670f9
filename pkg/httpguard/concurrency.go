package httpguard

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
)

// Concurrency lets at most running requests whose path has one of the
// suffixes run at once; up to queued more wait for a slot (until their
// client gives up), the rest are answered 429. running 0 turns it off.
func Concurrency(running, queued int, suffixes []string, next http.Handler) http.Handler {
	if running <= 0 {
		return next
	}
	slots := make(chan struct{}, running)
	var waiting atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		heavy := false
		for _, s := range suffixes {
			if strings.HasSuffix(r.URL.Path, s) {
				heavy = true
				break
			}
		}
		if !heavy {
			next.ServeHTTP(w, r)
			return
		}
		select {
		case slots <- struct{}{}:
		default:
			if waiting.Add(1) > int64(queued) {
				waiting.Add(-1)
				w.Header().Set("Retry-After", "1")
				connectError(w, http.StatusTooManyRequests, "resource_exhausted",
					fmt.Sprintf("too many queries: %d running and %d waiting (-max-concurrent-queries %d, -max-queued-queries %d); retry later", running, queued, running, queued))
				return
			}
			select {
			case slots <- struct{}{}:
				waiting.Add(-1)
			case <-r.Context().Done():
				waiting.Add(-1)
				connectError(w, 499, "canceled", "the client gave up while the query waited for a slot")
				return
			}
		}
		defer func() { <-slots }()
		next.ServeHTTP(w, r)
	})
}
