package server

import (
	"context"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestShutdownCancelsAndWaitsPastTheGrace: a request still running when
// the grace ends is cancelled, and Serve returns only once it has ended,
// so the caller never closes the store under a request.
func TestShutdownCancelsAndWaitsPastTheGrace(t *testing.T) {
	e := newEnv(t, nil)
	s := e.srv
	s.grace = 300 * time.Millisecond
	started, finished := make(chan struct{}), make(chan time.Time, 1)
	s.handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-r.Context().Done() // a long analysis that honours its context
		time.Sleep(200 * time.Millisecond)
		finished <- time.Now()
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/api/costs")
		if err == nil {
			resp.Body.Close()
		}
	}()
	<-started
	stop()
	err = <-served
	returned := time.Now()
	if err == nil {
		t.Fatal("a shutdown past its grace reported no error")
	}
	select {
	case at := <-finished:
		if returned.Before(at) {
			t.Fatalf("Serve returned %v before the request ended", at.Sub(returned))
		}
	default:
		t.Fatal("Serve returned while the request was still running")
	}
}
