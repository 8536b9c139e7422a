//go:build race

package service

// raceEnabled: the race detector slows SQLite and the importer many times.
const raceEnabled = true
