package main

import "net"

// printStd makes the standard library's errors happen and prints them.
func printStd() {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer l.Close()
	_, err = net.Listen("tcp", l.Addr().String())
	show("go/net.OpError", err)
	dl, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := dl.Addr().String()
	dl.Close()
	_, err = net.Dial("tcp", addr)
	show("go/net.OpError", err)
}
