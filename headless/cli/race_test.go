//go:build race

package cli

// raceEnabled: the race detector multiplies a process's memory (its
// shadow memory), so memory bounds measured on child processes scale.
const raceEnabled = true
