package main

import "syscall"

// printErrno prints syscall.Errno's own text of every errno name in
// data/errno.toml.
func printErrno() {
	for name, e := range map[string]syscall.Errno{
		"EADDRINUSE": syscall.EADDRINUSE,
	} {
		show("errno/"+name, e)
	}
}
