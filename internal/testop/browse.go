package testop

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Login does what a browser does at the provider, for Go tests: it opens
// authURL (the relying party's authorization request), submits username
// and password on the login form, and returns the URL the provider sends
// the browser back to, the relying party's callback with code and state
// (or an error), without opening it.
func Login(ctx context.Context, authURL, username, password string) (*url.URL, error) {
	start, err := url.Parse(authURL)
	if err != nil {
		return nil, fmt.Errorf("testop: %w", err)
	}
	var back *url.URL
	hc := &http.Client{CheckRedirect: func(req *http.Request, _ []*http.Request) error {
		if req.URL.Host != start.Host {
			back = req.URL
			return http.ErrUseLastResponse
		}
		return nil
	}}
	res, err := get(ctx, hc, authURL)
	if err != nil {
		return nil, err
	}
	if back != nil {
		return back, nil // refused before the form: the error goes back
	}
	id := res.Request.URL.Query().Get("authRequestID")
	if res.StatusCode != http.StatusOK || id == "" {
		return nil, fmt.Errorf("testop: no login form at %s (HTTP %d)", res.Request.URL, res.StatusCode)
	}
	form := url.Values{"authRequestID": {id}, "username": {username}, "password": {password}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, start.Scheme+"://"+start.Host+loginPath, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, fmt.Errorf("testop: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err = hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("testop: log in: %w", err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if back == nil {
		return nil, fmt.Errorf("testop: the login did not go back to the relying party (HTTP %d)", res.StatusCode)
	}
	return back, nil
}

func get(ctx context.Context, hc *http.Client, u string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("testop: %w", err)
	}
	res, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("testop: %w", err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res, nil
}
