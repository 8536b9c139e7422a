//go:build !unix

package service

// oNoFollow: no such flag here; OpenReport's Lstat and SameFile checks
// refuse links on their own.
const oNoFollow = 0
