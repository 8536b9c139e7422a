package app

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// windowState is the window's size and place, remembered across runs in
// <data dir>/window.json.
type windowState struct {
	Width     int  `json:"width"`
	Height    int  `json:"height"`
	X         int  `json:"x"`
	Y         int  `json:"y"`
	Placed    bool `json:"placed"` // X and Y are known (not on Wayland)
	Maximised bool `json:"maximised"`
}

// Window size limits: the UI needs about 900x600; anything beyond 16K is
// a corrupt file.
const (
	defaultWidth  = 1280
	defaultHeight = 820
	minWidth      = 900
	minHeight     = 600
	maxSide       = 16384
)

const windowFile = "window.json"

// loadWindowState reads the remembered state; anything missing or absurd
// gives the defaults, so a bad file never keeps the window from opening.
func loadWindowState(dataDir string) windowState {
	def := windowState{Width: defaultWidth, Height: defaultHeight}
	b, err := os.ReadFile(filepath.Join(dataDir, windowFile))
	if err != nil {
		return def
	}
	var st windowState
	if json.Unmarshal(b, &st) != nil || st.Width < minWidth || st.Height < minHeight || st.Width > maxSide || st.Height > maxSide {
		return def
	}
	if st.X < -maxSide || st.X > maxSide || st.Y < -maxSide || st.Y > maxSide {
		st.Placed = false
	}
	return st
}

// saveWindowState writes the state atomically.
func saveWindowState(dataDir string, st windowState) error {
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	path := filepath.Join(dataDir, windowFile)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
