package plugin

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/data"
	"github.com/grafana/grafana-plugin-sdk-go/live"
)

// Live mode. A query with "live": true is answered over its last liveWindow
// and every frame of the answer carries meta.channel
// "ds/<uid>/live/<key>", where key names the query in the instance's stream
// registry. When the frontend subscribes, Grafana calls SubscribeStream, then
// RunStream, which re-runs the query every liveInterval and sends its frames
// whenever the data changed.

// announceStream registers a live query answered by QueryData and names its
// channel in the meta of every frame; an answer without frames gets an empty
// frame so that the frontend still learns the channel.
func (d *Datasource) announceStream(pCtx backend.PluginContext, kind string, q backend.DataQuery, resp *backend.DataResponse) {
	uid := d.uid
	if s := pCtx.DataSourceInstanceSettings; s != nil && s.UID != "" {
		uid = s.UID
	}
	spec := &streamSpec{Kind: kind, RefID: q.RefID, JSON: q.JSON, MaxDataPoints: q.MaxDataPoints, Interval: q.Interval}
	ch := channelID(uid, d.streams.register(spec))
	if len(resp.Frames) == 0 {
		resp.Frames = data.Frames{data.NewFrame(q.RefID)}
		resp.Frames[0].RefID = q.RefID
	}
	if _, err := live.ParseChannel(ch); err != nil {
		resp.Frames[0].AppendNotices(data.Notice{
			Severity: data.NoticeSeverityWarning,
			Text:     fmt.Sprintf("Live mode is off: the datasource uid %q cannot name a Grafana Live channel (letters, digits, - and _ only).", uid),
		})
		return
	}
	for _, f := range resp.Frames {
		if f.Meta == nil {
			f.Meta = &data.FrameMeta{}
		}
		f.Meta.Channel = ch
	}
}

// SubscribeStream lets a client watch the channel of a live query QueryData
// answered. A malformed path or an unknown key is refused with NotFound.
func (d *Datasource) SubscribeStream(_ context.Context, req *backend.SubscribeStreamRequest) (*backend.SubscribeStreamResponse, error) {
	key, err := streamKey(req.Path)
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

// RunStream re-runs the channel's query every liveInterval over the last
// liveWindow and sends its frames whenever they differ from the last ones
// sent (see dataFingerprint); the first run always sends. It returns nil
// when ctx is done, that is when the last subscriber left.
func (d *Datasource) RunStream(ctx context.Context, req *backend.RunStreamRequest, sender *backend.StreamSender) error {
	key, err := streamKey(req.Path)
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
	var (
		last    string
		lastErr string
	)
	for {
		sent, interval, err := d.streamOnce(ctx, spec, fn, sender, &last)
		switch {
		case err == nil:
			lastErr = ""
		case ctx.Err() != nil:
			return nil
		case errors.Is(err, errStreamSend):
			return err
		case err.Error() != lastErr: // log a failure once, not at every run
			lastErr = err.Error()
			d.logger.Warn("live query failed; retrying at the next interval", "path", req.Path, "error", err)
		}
		if d.streamTicked != nil {
			d.streamTicked(key, sent, err)
		}
		d.streams.lookup(key) // renew the lease while someone watches
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(interval):
		}
	}
}

// errStreamSend marks a failure to send to Grafana, which ends the stream.
var errStreamSend = errors.New("send to the stream")

// streamOnce runs the live query once and sends its frames if their
// fingerprint differs from *last. It returns whether it sent and the
// interval until the next run.
func (d *Datasource) streamOnce(ctx context.Context, spec *streamSpec, fn queryFunc, sender *backend.StreamSender, last *string) (bool, time.Duration, error) {
	now := time.Now()
	resp, r := d.runOne(ctx, spec.Kind, spec.dataQuery(backend.TimeRange{From: now.Add(-time.Hour), To: now}), fn)
	interval := DefaultLiveInterval
	if r != nil && r.Live != nil {
		interval = r.Live.Interval
	}
	if resp.Error != nil {
		return false, interval, resp.Error
	}
	fp := dataFingerprint(resp.Frames)
	if fp == *last {
		return false, interval, nil
	}
	for _, f := range resp.Frames {
		if err := sender.SendFrame(f, data.IncludeAll); err != nil {
			return false, interval, fmt.Errorf("%w: %v", errStreamSend, err)
		}
	}
	*last = fp
	return true, interval, nil
}
