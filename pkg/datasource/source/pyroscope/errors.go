// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pyroscope

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"syscall"

	"connectrpc.com/connect"

	"github.com/emberscope/emberscope/pkg/profile/model"
)

// wrap turns a connect error of the call named op into a *model.Error.
// Context cancellation is returned as is: the caller went away.
func (c *Client) wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	e := &model.Error{Err: err}
	code := connect.CodeOf(err)
	switch {
	case isTimeout(err) || code == connect.CodeDeadlineExceeded:
		e.Kind = model.KindTimeout
		e.Msg = fmt.Sprintf("profile server at %s did not answer in time (%s): %s", c.url, op, cause(err))
	case code == connect.CodeUnavailable && isNetError(err):
		e.Kind = model.KindUnreachable
		e.Msg = fmt.Sprintf("cannot reach profile server at %s: %s", c.url, cause(err))
	case code == connect.CodeUnauthenticated || code == connect.CodePermissionDenied:
		e.Kind = model.KindAuth
		e.Msg = fmt.Sprintf("profile server at %s refused the credentials (%s): %s; check the authentication and tenant settings", c.url, op, message(err))
	case code == connect.CodeInvalidArgument:
		e.Kind = model.KindBadRequest
		e.Msg = message(err)
	case code == connect.CodeUnimplemented || code == connect.CodeNotFound:
		e.Kind = model.KindNotFound
		e.Msg = fmt.Sprintf("profile server at %s does not answer the querier API (%s): %s; is the URL a Pyroscope server?", c.url, op, message(err))
	case code == connect.CodeUnavailable:
		e.Kind = model.KindUnreachable
		e.Msg = fmt.Sprintf("profile server at %s is unavailable (%s): %s", c.url, op, message(err))
	default:
		e.Kind = model.KindServer
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
