// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"fmt"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/grafana/grafana-plugin-sdk-go/live"
)

// Live mode. A query with "live": true is answered over its last liveWindow
// and every frame of the answer carries meta.channel
// "ds/<uid>/live/<key>/<part>", where key names the query in the instance's
// stream registry and part the frame (stream_parts.go). When the frontend
// subscribes, Grafana calls SubscribeStream, then RunStream per channel,
// which re-runs the query every liveInterval (one run shared by all the
// parts of a query, see liveFrames) and sends its frame whenever it changed.

// announceStream registers a live query answered by QueryData and names the
// channel of every frame in its meta; an answer without frames gets an empty
// frame so that the frontend still learns a channel.
func (d *Datasource) announceStream(pCtx backend.PluginContext, kind string, q backend.DataQuery, resp *backend.DataResponse) {
	uid := d.uid
	if s := pCtx.DataSourceInstanceSettings; s != nil && s.UID != "" {
		uid = s.UID
	}
	spec := &streamSpec{Kind: kind, RefID: q.RefID, JSON: q.JSON, MaxDataPoints: q.MaxDataPoints, Interval: q.Interval}
	key := d.streams.register(spec)
	if len(resp.Frames) == 0 {
		resp.Frames = data.Frames{data.NewFrame("")}
		resp.Frames[0].RefID = q.RefID
	}
	if _, err := live.ParseChannel(channelID(uid, key, "frame-0")); err != nil {
		resp.Frames[0].AppendNotices(data.Notice{
			Severity: data.NoticeSeverityWarning,
			Text:     fmt.Sprintf("Live mode is off: the datasource uid %q cannot name a Grafana Live channel (letters, digits, - and _ only).", uid),
		})
		return
	}
	for i, part := range frameParts(resp.Frames) {
		f := resp.Frames[i]
		if f.Meta == nil {
			f.Meta = &data.FrameMeta{}
		}
		f.Meta.Channel = channelID(uid, key, part)
	}
}

// SubscribeStream lets a client watch a channel of a live query QueryData
// answered. A malformed path or an unknown key is refused with NotFound.
func (d *Datasource) SubscribeStream(_ context.Context, req *backend.SubscribeStreamRequest) (*backend.SubscribeStreamResponse, error) {
	key, _, err := parseStreamPath(req.Path)
	if err != nil {
		d.logger.Warn("refused a stream subscription", "path", req.Path, "reason", err.Error())
		return &backend.SubscribeStreamResponse{Status: backend.SubscribeStreamStatusNotFound}, nil
	}
	if _, ok := d.streams.lookup(key); !ok {
		d.logger.Warn("refused a stream subscription", "path", req.Path,
			"reason", "no live query with this key: it expired or the plugin restarted; run the query again")
		return &backend.SubscribeStreamResponse{Status: backend.SubscribeStreamStatusNotFound}, nil
	}
	return &backend.SubscribeStreamResponse{Status: backend.SubscribeStreamStatusOK}, nil
}

// PublishStream refuses every publication: only the plugin writes to its
// channels.
func (d *Datasource) PublishStream(context.Context, *backend.PublishStreamRequest) (*backend.PublishStreamResponse, error) {
	return &backend.PublishStreamResponse{Status: backend.PublishStreamStatusPermissionDenied}, nil
}

// RunStream re-runs the channel's query every liveInterval (on multiples of
// it since the epoch) over the last
// liveWindow and sends the channel's frame whenever it differs from the last
// one sent (see dataFingerprint); the first run always sends. It returns nil
// when ctx is done, that is when the last subscriber left.
func (d *Datasource) RunStream(ctx context.Context, req *backend.RunStreamRequest, sender *backend.StreamSender) error {
	key, part, err := parseStreamPath(req.Path)
	if err != nil {
		return err
	}
	spec, ok := d.streams.lookup(key)
	if !ok {
		return fmt.Errorf("stream %s: no live query with this key: run the query again", req.Path)
	}
	fn, ok := d.queryFuncs()[spec.Kind]
	if !ok {
		return fmt.Errorf("stream %s: unknown query type %q", req.Path, spec.Kind)
	}
	var last, lastErr string
	for {
		frames, interval, err := d.liveFrames(ctx, key, spec, fn)
		sent := false
		if err == nil {
			f := pickPart(frames, part, spec.RefID)
			if fp := dataFingerprint(data.Frames{f}); fp != last {
				if err := sender.SendFrame(f, data.IncludeAll); err != nil {
					return fmt.Errorf("stream %s: send: %w", req.Path, err)
				}
				last, sent = fp, true
			}
		}
		switch {
		case err == nil:
			lastErr = ""
		case ctx.Err() != nil:
			return nil
		case err.Error() != lastErr: // log a failure once, not at every run
			lastErr = err.Error()
			d.logger.Warn("live query failed; retrying at the next interval", "path", req.Path, "error", err)
		}
		if d.streamTicked != nil {
			d.streamTicked(req.Path, sent, err)
		}
		d.streams.lookup(key) // renew the lease while someone watches
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(untilNextTick(time.Now(), interval)):
		}
	}
}

// untilNextTick is the wait until the next multiple of interval since the
// Unix epoch. The streams of all the parts of a query wake up together, so
// one run serves them all (see liveFrames).
func untilNextTick(now time.Time, interval time.Duration) time.Duration {
	return interval - time.Duration(now.UnixNano()%int64(interval))
}

// liveFrames runs the live query of key, or returns the frames of a run
// younger than half its interval: the streams of the parts of one query
// share one run. Concurrent callers wait for the same run, which is not
// cancelled when the first of them leaves.
func (d *Datasource) liveFrames(ctx context.Context, key string, spec *streamSpec, fn queryFunc) (data.Frames, time.Duration, error) {
	if r, ok := d.liveRuns.GetIfPresent(key); ok {
		return r.frames, r.interval, nil
	}
	ch := d.liveGroup.DoChan(key, func() (any, error) {
		now := time.Now()
		resp, r := d.runOne(context.WithoutCancel(ctx), spec.Kind, spec.dataQuery(backend.TimeRange{From: now.Add(-time.Hour), To: now}), fn)
		run := &liveRun{frames: resp.Frames, interval: DefaultLiveInterval}
		if r != nil && r.Live != nil {
			run.interval = r.Live.Interval
		}
		if resp.Error != nil {
			return run, resp.Error
		}
		d.liveRuns.Set(key, run)
		return run, nil
	})
	select {
	case <-ctx.Done():
		return nil, DefaultLiveInterval, ctx.Err()
	case res := <-ch:
		run := res.Val.(*liveRun)
		return run.frames, run.interval, res.Err
	}
}

// liveRun is one run of a live query.
type liveRun struct {
	frames   data.Frames
	interval time.Duration
}
