package pyroscope

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"

	"connectrpc.com/connect"
	"github.com/grafana/grafana-plugin-sdk-go/backend"
)

// Kind classifies a failed call so that the plugin can pick a status.
type Kind int

const (
	// KindUnreachable: no connection to the server (refused, DNS, reset).
	KindUnreachable Kind = iota + 1
	// KindTimeout: the server did not answer in time.
	KindTimeout
	// KindAuth: the server refused the credentials.
	KindAuth
	// KindBadRequest: the server rejected the request; Msg is its reason.
	KindBadRequest
	// KindNotFound: the server does not speak the querier API at this URL.
	KindNotFound
	// KindServer: the server failed.
	KindServer
)

// Error is a failed call to the profile server. It is a downstream error in
// Grafana's terms (backend.IsDownstreamError reports true for it): the
// problem lies with the server or the request, not with the plugin.
type Error struct {
	Kind Kind
	// Msg is the whole message shown to the user.
	Msg string
	// Err is the error connect returned.
	Err error
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Err }

// ErrorSource marks every Error as downstream.
func (e *Error) ErrorSource() backend.ErrorSource { return backend.ErrorSourceDownstream }

// Is makes backend.IsDownstreamError report true for every Error.
func (e *Error) Is(target error) bool {
	t, ok := target.(backend.ErrorWithSource)
	return ok && t.ErrorSource() == backend.ErrorSourceDownstream
}

// HTTPStatus is the status Grafana shows for the failed query.
func (e *Error) HTTPStatus() int {
	switch e.Kind {
	case KindUnreachable:
		return http.StatusBadGateway
	case KindTimeout:
		return http.StatusGatewayTimeout
	case KindAuth:
		return http.StatusUnauthorized
	case KindBadRequest:
		return http.StatusBadRequest
	case KindNotFound:
		return http.StatusNotFound
	default:
		return http.StatusBadGateway
	}
}

// wrap turns a connect error of the call named op into an *Error. Context
// cancellation is returned as is: the caller went away.
func (c *Client) wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	e := &Error{Err: err}
	code := connect.CodeOf(err)
	switch {
	case isTimeout(err) || code == connect.CodeDeadlineExceeded:
		e.Kind = KindTimeout
		e.Msg = fmt.Sprintf("profile server at %s did not answer in time (%s): %s", c.url, op, cause(err))
	case code == connect.CodeUnavailable && isNetError(err):
		e.Kind = KindUnreachable
		e.Msg = fmt.Sprintf("cannot reach profile server at %s: %s", c.url, cause(err))
	case code == connect.CodeUnauthenticated || code == connect.CodePermissionDenied:
		e.Kind = KindAuth
		e.Msg = fmt.Sprintf("profile server at %s refused the credentials (%s): %s; check the authentication and tenant settings", c.url, op, message(err))
	case code == connect.CodeInvalidArgument:
		e.Kind = KindBadRequest
		e.Msg = message(err)
	case code == connect.CodeUnimplemented || code == connect.CodeNotFound:
		e.Kind = KindNotFound
		e.Msg = fmt.Sprintf("profile server at %s does not answer the querier API (%s): %s; is the URL a Pyroscope server?", c.url, op, message(err))
	case code == connect.CodeUnavailable:
		e.Kind = KindUnreachable
		e.Msg = fmt.Sprintf("profile server at %s is unavailable (%s): %s", c.url, op, message(err))
	default:
		e.Kind = KindServer
		e.Msg = fmt.Sprintf("profile server at %s failed to %s: %s", c.url, op, message(err))
	}
	return e
}

// message is the server's own message when it sent one.
func message(err error) string {
	var ce *connect.Error
	if errors.As(err, &ce) {
		if m := ce.Message(); m != "" {
			return m
		}
	}
	return err.Error()
}

func isTimeout(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func isNetError(err error) bool {
	var op *net.OpError
	var dns *net.DNSError
	var ue *url.Error
	return errors.As(err, &op) || errors.As(err, &dns) || errors.As(err, &ue)
}

// cause names the network failure in a few words ("connection refused").
func cause(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return dns.Error()
	}
	if isTimeout(err) {
		return "timed out"
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err.Error()
	}
	msg := message(err)
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		return msg[i+2:]
	}
	return msg
}
