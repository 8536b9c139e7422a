package service

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

func TestRunBackgroundSendsAlertsAndFlushesMetrics(t *testing.T) {
	var posts atomic.Int32
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		posts.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	defer hook.Close()
	cfg := onlyProviders(t, model.OCI)
	cfg.Budgets = []config.Budget{{Name: "tiny", Amount: 1, Period: "monthly"}}
	cfg.Dashboard.Features.Notifications = true
	cfg.Alerts.WebhookURL = hook.URL + "/hook"
	s := openDemo(t, cfg)
	s.RecordRequest(20*time.Millisecond, false)
	ctx, cancel := context.WithCancel(adminCtx())
	done := make(chan struct{})
	go func() { s.RunBackground(ctx); close(done) }()
	deadline := time.Now().Add(2 * time.Minute)
	for posts.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	<-done
	if posts.Load() == 0 {
		t.Fatal("the background loop delivered no alert")
	}
	total, err := s.store.RequestMetricsTotal(adminCtx())
	if err != nil || total.Requests != 1 {
		t.Fatalf("flushed counters %+v %v", total, err)
	}
}
