//go:build race

package store

// raceDetector: the race detector slows SQLite some 30-fold.
const raceDetector = true
