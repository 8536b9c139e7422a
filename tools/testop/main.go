// Command testop is a TEST TOOL, not part of costpilot: an OpenID Provider
// on loopback for the browser end-to-end test of single sign-on
// (frontend/e2e/run.mjs, started by make test-e2e). It serves
// internal/testop with the users and clients of a JSON file and prints its
// issuer URL on the first line of stdout once it answers.
//
//	testop --config op.json [--addr 127.0.0.1:0]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/costpilot/costpilot/internal/testop"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "testop:", err)
		os.Exit(1)
	}
}

func run() error {
	fs := flag.NewFlagSet("testop", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "testop is a test tool: an OpenID Provider for costpilot's end-to-end tests, never for real logins.\n\nUsage: testop --config FILE [--addr HOST:PORT]")
		fs.PrintDefaults()
	}
	cfgPath := fs.String("config", "", `JSON file: {"users": [...], "clients": [...]} (fields of internal/testop's User and Client)`)
	addr := fs.String("addr", "127.0.0.1:0", "loopback address to listen on; port 0 picks a free one")
	if err := fs.Parse(os.Args[1:]); err != nil {
		return err
	}
	if *cfgPath == "" {
		fs.Usage()
		return errors.New("--config is required")
	}
	b, err := os.ReadFile(*cfgPath)
	if err != nil {
		return err
	}
	var cfg testop.Config
	if err := json.Unmarshal(b, &cfg); err != nil {
		return fmt.Errorf("%s: %w", *cfgPath, err)
	}
	host, _, err := net.SplitHostPort(*addr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("--addr %s: a test provider listens on a loopback address only", *addr)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	cfg.Issuer = "http://" + ln.Addr().String()
	cfg.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	h, err := testop.New(cfg)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	fmt.Println(cfg.Issuer)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}
