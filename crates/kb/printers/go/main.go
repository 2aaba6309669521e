// Prints Go's standard-library error texts for the knowledge base's check
// (crates/kb/tests/runtimes.rs): each error is made to happen for real and
// printed as KEY<TAB>TEXT. errno.go prints syscall.Errno's table, std.go
// the packages' errors.
package main

import "fmt"

// show prints one error under its knowledge-base key; an error that did
// not happen is a broken printer, not a text to check.
func show(key string, err error) {
	if err == nil {
		panic(key + ": no error happened")
	}
	fmt.Printf("%s\t%s\n", key, err.Error())
}

func main() {
	printErrno()
	printStd()
}
