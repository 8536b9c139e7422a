package server

import (
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestStaticHandlers: the UI's page needs a session (a token or no
// credentials go to the login page, keeping where they were going); the
// app's client routes serve the same page; the login style sheet is
// public and cached.
func TestStaticHandlers(t *testing.T) {
	se := newScenarioEnv(t, nil)
	viewer := model.RoleViewer
	se.run(t, []scenario{
		{name: "the page", path: "/", role: viewer, wantStatus: 200,
			wantHeader: map[string]string{"Content-Type": "text/html", "Cache-Control": "no-cache"}, wantText: []string{"<html", "costpilot"}},
		{name: "a client route is the same page", path: "/explore/by-service", role: viewer, wantStatus: 200,
			wantHeader: map[string]string{"Content-Type": "text/html"}, wantText: []string{"<html"}},
		{name: "no session: the login page, then back", path: "/explore?days=7", wantStatus: 303,
			wantLocation: "/login?next=%2Fexplore%3Fdays%3D7"},
		{name: "a token is not a session", path: "/", role: viewer, token: true, wantStatus: 303,
			wantLocation: "/login"},
		{name: "the login style sheet", path: "/login.css", wantStatus: 200,
			wantHeader: map[string]string{"Content-Type": "text/css", "Cache-Control": "public, max-age=3600"}, wantText: []string{"{"}},
	})
}
