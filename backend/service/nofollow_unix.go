//go:build unix

package service

import "syscall"

// oNoFollow makes an open fail on a link.
const oNoFollow = syscall.O_NOFOLLOW
