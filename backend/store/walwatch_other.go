//go:build !unix

package store

// walHeader and walWatch have no implementation here: Versions then
// queries SQLite on every call.
type walHeader struct{}

type walWatch struct{}

func openWALWatch(string) *walWatch { return nil }

func (w *walWatch) header() walHeader { return walHeader{} }

func (w *walWatch) close() error { return nil }
