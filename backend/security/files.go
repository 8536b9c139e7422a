package security

import (
	"errors"
	"io/fs"
	"os"
)

// Modes of what costpilot keeps on disk: billing data, sessions, keys and
// reports are for the user running it only.
const (
	PrivateDirMode  fs.FileMode = 0o700
	PrivateFileMode fs.FileMode = 0o600
)

// PrivateDir creates dir and its missing parents, and makes dir itself
// 0700 whatever the umask or the mode it had: a data dir that others can
// list shows them which files to try.
func PrivateDir(dir string) error {
	if err := os.MkdirAll(dir, PrivateDirMode); err != nil {
		return err
	}
	return os.Chmod(dir, PrivateDirMode)
}

// PrivateFile makes path 0600, creating it empty when create is true and
// it is missing; a missing file with create false is no error. Modes
// given at creation lose bits to the umask, and SQLite gives its files a
// fixed 0644, so the mode is set after the fact. An existing file is never
// opened: closing a descriptor drops every POSIX lock the process holds on
// the file, and SQLite in this process may hold some.
func PrivateFile(path string, create bool) error {
	if create {
		f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE|os.O_EXCL, PrivateFileMode)
		switch {
		case err == nil:
			if err := f.Close(); err != nil {
				return err
			}
		case !errors.Is(err, fs.ErrExist):
			return err
		}
	}
	err := os.Chmod(path, PrivateFileMode)
	if !create && errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// PrivateDB makes an SQLite database and its -wal and -shm files 0600,
// creating the database file first when missing. SQLite creates the -wal
// and -shm files later with the database file's mode, so they follow.
func PrivateDB(path string) error {
	if err := PrivateFile(path, true); err != nil {
		return err
	}
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		if err := PrivateFile(path+suffix, false); err != nil {
			return err
		}
	}
	return nil
}
