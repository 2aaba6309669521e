package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"flag"
	"io"
	"log"
	"math"
	"math/big"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing/fstest"
	"time"
)

// printStd makes the standard library's errors happen and prints them
// under their data/go.toml keys. Everything runs on the loopback
// interface and in a temporary directory: the printer needs no network.
func printStd() {
	dir, err := os.MkdirTemp("", "errdex-kb-")
	must(err)
	defer os.RemoveAll(dir)

	printNet()
	printDNS()
	printOS(dir)
	printExec(dir)
	printIO()
	printContext()
	printTLS()
	printX509()
	printHTTP()
	printURL()
	printJSON()
	printFlag()
	printStrconv()
	printTime()
	printFileLimit()
}

// must stops the printer on a setup step that failed: the error to print
// could not be staged.
func must(err error) {
	if err != nil {
		panic(err)
	}
}

// cause is the error an *net.OpError, *os.PathError, *os.SyscallError,
// *url.Error or *exec.Error wraps.
func cause(err error) error {
	if u := errors.Unwrap(err); u != nil {
		return u
	}
	panic("nothing wrapped in " + err.Error())
}

// listen gives a TCP listener on a free loopback port.
func listen() net.Listener {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(err)
	return l
}

// closedPort gives a loopback address nothing listens on.
func closedPort() string {
	l := listen()
	addr := l.Addr().String()
	l.Close()
	return addr
}

// pair gives both ends of a loopback TCP connection.
func pair() (client, server *net.TCPConn) {
	l := listen()
	defer l.Close()
	c, err := net.Dial("tcp", l.Addr().String())
	must(err)
	s, err := l.Accept()
	must(err)
	return c.(*net.TCPConn), s.(*net.TCPConn)
}

func printNet() {
	// listen: the port is taken.
	l := listen()
	_, err := net.Listen("tcp", l.Addr().String())
	show("go/net.OpError.listen", err)
	show("go/os.SyscallError.bind", cause(err))
	l.Close()

	// dial: nothing listens.
	_, err = net.Dial("tcp", closedPort())
	show("go/net.OpError.dial", err)
	show("go/os.SyscallError.connect", cause(err))

	// Addresses that do not parse.
	_, err = net.Dial("tcp", "localhost")
	show("go/net.OpError.dial", err)
	show("go/net.AddrError.missing-port", cause(err))
	_, err = net.Dial("tcp", "::1:8080")
	show("go/net.AddrError.too-many-colons", cause(err))
	_, err = net.Dial("tcp", "127.0.0.1:99999")
	show("go/net.AddrError.invalid-port", cause(err))
	_, err = net.Dial("tcp", "")
	show("go/net.errMissingAddress", cause(err))
	_, err = net.Dial("tpc", "127.0.0.1:80")
	show("go/net.UnknownNetworkError", cause(err))
	_, _, err = net.ParseCIDR("10.0.0.0/33")
	show("go/net.ParseError.cidr", err)

	// read: the peer reset the connection (closed with SO_LINGER 0).
	c, s := pair()
	must(s.SetLinger(0))
	s.Close()
	time.Sleep(50 * time.Millisecond)
	_, err = c.Read(make([]byte, 1))
	show("go/net.OpError.read", err)
	show("go/os.SyscallError.read", cause(err))
	c.Close()

	// write: the peer is gone; the first write is answered by a reset,
	// a later one fails with EPIPE.
	c, s = pair()
	s.Close()
	var werr error
	for i := 0; i < 100; i++ {
		if _, err = c.Write([]byte("x")); err != nil {
			werr = err
			if errors.Is(err, syscall.EPIPE) {
				break
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	show("go/net.OpError.write", werr)
	if !errors.Is(werr, syscall.EPIPE) {
		panic("no EPIPE: " + werr.Error())
	}
	show("go/os.SyscallError.write", cause(werr))
	c.Close()

	// A read deadline that passed; the peer's end then reads EOF.
	c, s = pair()
	must(c.SetReadDeadline(time.Now().Add(20 * time.Millisecond)))
	_, err = c.Read(make([]byte, 1))
	show("go/net.OpError.read", err)
	show("go/os.ErrDeadlineExceeded", cause(err))
	c.Close()
	_, err = s.Read(make([]byte, 1))
	show("go/io.EOF", err)
	s.Close()

	// set: a keep-alive period the kernel refuses, then a closed socket.
	c, s = pair()
	err = c.SetKeepAlivePeriod(0)
	show("go/net.OpError.set", err)
	show("go/os.SyscallError.setsockopt", cause(err))
	c.Close()
	show("go/net.OpError.set", c.SetDeadline(time.Now()))
	// close: closed twice.
	err = c.Close()
	show("go/net.OpError.close", err)
	show("go/net.ErrClosed", cause(err))
	s.Close()

	// accept: the listener was closed (another goroutine's Close).
	l = listen()
	l.Close()
	_, err = l.Accept()
	show("go/net.OpError.accept", err)

	// A Unix socket path that does not exist.
	_, err = net.Dial("unix", "/nonexistent/errdex.sock")
	show("go/net.OpError.dial", err)
}

// fakeDNS answers queries on a loopback UDP port: names starting "fail."
// with SERVFAIL, "slow." never, everything else with NXDOMAIN.
func fakeDNS() string {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	must(err)
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			q := append([]byte(nil), buf[:n]...)
			if n < 12 {
				continue
			}
			name := q[12:]
			if len(name) > 5 && string(name[1:5]) == "slow" {
				continue
			}
			rcode := byte(3)
			if len(name) > 5 && string(name[1:5]) == "fail" {
				rcode = 2
			}
			q[2] |= 0x80 // a response
			q[3] = 0x80 | rcode
			pc.WriteTo(q, from)
		}
	}()
	return pc.LocalAddr().String()
}

func printDNS() {
	server := fakeDNS()
	r := &net.Resolver{
		PreferGo: true,
		Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			// Not bound to ctx: a lookup that ran out of time fails on
			// its read, as it does against a server that is far away.
			return net.Dial("udp", server)
		},
	}
	ctx := context.Background()
	_, err := r.LookupHost(ctx, "missing.errdex.test")
	show("go/net.DNSError.no-such-host", err)
	show("go/net.DNSError", err)
	_, err = r.LookupHost(ctx, "bad..name")
	show("go/net.DNSError.no-such-host", err)
	_, err = r.LookupHost(ctx, "fail.errdex.test")
	show("go/net.DNSError.server-misbehaving", err)
	tctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	_, err = r.LookupHost(tctx, "slow.errdex.test")
	cancel()
	show("go/net.DNSError", err)
	_, err = r.LookupPort(ctx, "tcp", "errdex-no-such-service")
	show("go/net.AddrError.unknown-port", err)

	d := net.Dialer{Resolver: r}
	_, err = d.Dial("tcp", "missing.errdex.test:443")
	show("go/net.OpError.dial", err)
}

func printOS(dir string) {
	missing := filepath.Join(dir, "missing", "file.txt")
	_, err := os.Open(missing)
	show("go/os.PathError.open", err)
	_, err = os.Stat(missing)
	show("go/os.PathError.stat", err)
	_, err = os.Lstat(missing)
	show("go/os.PathError.lstat", err)
	err = os.Remove(missing)
	show("go/os.PathError.remove", err)
	err = os.Mkdir(dir, 0o755)
	show("go/os.PathError.mkdir", err)
	err = os.Rename(missing, filepath.Join(dir, "new.txt"))
	show("go/os.LinkError.rename", err)
	err = os.Symlink(missing, dir)
	show("go/os.LinkError.symlink", err)

	file := filepath.Join(dir, "file.txt")
	must(os.WriteFile(file, []byte("x"), 0o644))
	_, err = os.ReadDir(file)
	show("go/os.PathError.readdirent", err)
	_, err = os.ReadFile(dir)
	show("go/os.PathError.read", err)
	f, err := os.Open(file)
	must(err)
	f.Close()
	err = f.Close()
	show("go/os.PathError.close", err)
	show("go/os.ErrClosed", cause(err))

	// write: the pipe's reader is gone.
	pr, pw, err := os.Pipe()
	must(err)
	pr.Close()
	_, err = pw.Write([]byte("x"))
	show("go/os.PathError.write", err)
	pw.Close()

	// io/fs's own errors, from an fs.FS that is not the disk.
	_, err = fstest.MapFS{}.Open("config.yaml")
	show("go/os.PathError.open", err)
	show("go/os.ErrNotExist", cause(err))
	// The standard library never returns fs.ErrExist itself; packages
	// built on io/fs do, as the sentinel or wrapped.
	show("go/os.ErrExist", os.ErrExist)
}

func printExec(dir string) {
	err := exec.Command("errdex-no-such-command").Run()
	show("go/exec.Error", err)
	show("go/exec.ErrNotFound", cause(err))

	// A program found through "." in $PATH.
	prog := filepath.Join(dir, "errdex-dot")
	must(os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755))
	wd, err := os.Getwd()
	must(err)
	path := os.Getenv("PATH")
	must(os.Chdir(dir))
	must(os.Setenv("PATH", "."))
	_, err = exec.LookPath("errdex-dot")
	must(os.Setenv("PATH", path))
	must(os.Chdir(wd))
	show("go/exec.Error", err)
	show("go/exec.ErrDot", cause(err))

	// Executable but not a program the kernel can run.
	junk := filepath.Join(dir, "not-a-program")
	must(os.WriteFile(junk, []byte("hello\n"), 0o755))
	err = exec.Command(junk).Run()
	show("go/os.PathError.fork-exec", err)

	err = exec.Command("/bin/sh", "-c", "exit 3").Run()
	show("go/exec.ExitError.status", err)
	cmd := exec.Command("/bin/sh", "-c", "sleep 10")
	must(cmd.Start())
	must(cmd.Process.Kill())
	err = cmd.Wait()
	show("go/exec.ExitError.signal", err)
	err = exec.Command("/bin/sh", "-c", "kill -TERM $$").Run()
	show("go/exec.ExitError.signal", err)
	show("go/os.ErrProcessDone", cmd.Process.Signal(os.Interrupt))
}

// shortWriter takes one byte of every write and reports no error.
type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return 1, nil }

func printIO() {
	_, err := io.ReadFull(strings.NewReader("ab"), make([]byte, 4))
	show("go/io.ErrUnexpectedEOF", err)
	_, err = io.Copy(shortWriter{}, strings.NewReader("hello"))
	show("go/io.ErrShortWrite", err)
	pr, pw := io.Pipe()
	pr.Close()
	_, err = pw.Write([]byte("x"))
	show("go/io.ErrClosedPipe", err)

	sc := bufio.NewScanner(strings.NewReader(strings.Repeat("x", 70000) + "\n"))
	for sc.Scan() {
	}
	show("go/bufio.ErrTooLong", sc.Err())
}

func printContext() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	<-ctx.Done()
	show("go/context.DeadlineExceeded", ctx.Err())
	cancel()
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	show("go/context.Canceled", ctx.Err())
}

// certs are a test CA and certificates it signed, made in process.
type certs struct {
	caKey   *ecdsa.PrivateKey
	ca      *x509.Certificate
	pool    *x509.CertPool
	leafKey *ecdsa.PrivateKey
}

func newKey() *ecdsa.PrivateKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	must(err)
	return k
}

var serial int64

// sign makes a certificate from tmpl for key, signed by parent's key (a
// self-signed one when parent is nil).
func sign(tmpl *x509.Certificate, key *ecdsa.PrivateKey, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) *x509.Certificate {
	serial++
	tmpl.SerialNumber = big.NewInt(serial)
	if tmpl.NotBefore.IsZero() {
		tmpl.NotBefore = time.Now().Add(-time.Hour)
		tmpl.NotAfter = time.Now().Add(24 * time.Hour)
	}
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	must(err)
	c, err := x509.ParseCertificate(der)
	must(err)
	return c
}

func newCA(name string) (*x509.Certificate, *ecdsa.PrivateKey) {
	key := newKey()
	return sign(&x509.Certificate{
		Subject:               pkix.Name{CommonName: name},
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}, key, nil, nil), key
}

// leaf is a server certificate for names (DNS names or IP addresses).
func (c *certs) leaf(tmpl *x509.Certificate, names ...string) *x509.Certificate {
	for _, n := range names {
		if ip := net.ParseIP(n); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, n)
		}
	}
	if tmpl.ExtKeyUsage == nil {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}
	}
	tmpl.KeyUsage = x509.KeyUsageDigitalSignature
	return sign(tmpl, c.leafKey, c.ca, c.caKey)
}

func (c *certs) pair(leaf *x509.Certificate) tls.Certificate {
	return tls.Certificate{Certificate: [][]byte{leaf.Raw}, PrivateKey: c.leafKey, Leaf: leaf}
}

var testCerts = func() *certs {
	ca, key := newCA("errdex test CA")
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	return &certs{caKey: key, ca: ca, pool: pool, leafKey: newKey()}
}()

// handshake runs a TLS handshake over loopback TCP and gives the client's
// and the server's error. After a client handshake that succeeded, the
// client reads once: in TLS 1.3 the server's verdict on the client's
// certificate arrives then.
func handshake(client, server *tls.Config) (cerr, serr error) {
	l := listen()
	defer l.Close()
	done := make(chan error, 1)
	go func() {
		c, err := l.Accept()
		if err != nil {
			done <- err
			return
		}
		defer c.Close()
		s := tls.Server(c, server)
		err = s.Handshake()
		if err == nil {
			_, err = s.Write([]byte("x"))
		}
		done <- err
	}()
	conn, err := net.Dial("tcp", l.Addr().String())
	must(err)
	defer conn.Close()
	tc := tls.Client(conn, client)
	cerr = tc.Handshake()
	if cerr == nil {
		_, cerr = tc.Read(make([]byte, 1))
	}
	if cerr != nil {
		conn.Close()
	}
	return cerr, <-done
}

// rawServer accepts one connection, reads what the client sends first
// and answers with reply; a stand-in for a peer that is not Go's.
func rawServer(reply []byte) string {
	l := listen()
	go func() {
		defer l.Close()
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		c.Read(make([]byte, 4096))
		c.Write(reply)
		time.Sleep(100 * time.Millisecond)
	}()
	return l.Addr().String()
}

func printTLS() {
	tc := testCerts
	leaf := tc.leaf(&x509.Certificate{Subject: pkix.Name{CommonName: "errdex.test"}}, "errdex.test")
	serverCfg := func() *tls.Config {
		return &tls.Config{Certificates: []tls.Certificate{tc.pair(leaf)}}
	}
	trusting := func() *tls.Config { return &tls.Config{ServerName: "errdex.test", RootCAs: tc.pool} }

	// A client that does not trust the CA: it refuses, the server reads
	// the alert it sent.
	cerr, serr := handshake(&tls.Config{ServerName: "errdex.test", RootCAs: x509.NewCertPool()}, serverCfg())
	show("go/x509.UnknownAuthorityError", cerr)
	show("go/tls.alert.bad-certificate", serr)
	// Through net/http's server, the refusal is logged.
	logged := make(logLines, 10)
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	ts.Config.ErrorLog = log.New(logged, "", 0)
	ts.StartTLS()
	_, err := http.Get(ts.URL)
	show("go/url.Error", err)
	show("go/x509.UnknownAuthorityError", cause(err))
	show("go/http.Server.tls-handshake-error", logged.next())
	ts.Close()

	// The server's name is not in the certificate.
	cfg := trusting()
	cfg.ServerName = "other.test"
	cerr, _ = handshake(cfg, serverCfg())
	show("go/x509.HostnameError", cerr)

	// A server that requires a client certificate and gets none.
	scfg := serverCfg()
	scfg.ClientAuth = tls.RequireAndVerifyClientCert
	scfg.ClientCAs = tc.pool
	cerr, serr = handshake(trusting(), scfg)
	show("go/tls.alert.bad-certificate", cerr)
	show("go/tls.client-no-certificate", serr)
	// ... or one from a CA it does not trust.
	otherCA, otherKey := newCA("errdex other CA")
	other := &certs{caKey: otherKey, ca: otherCA, leafKey: newKey()}
	ccfg := trusting()
	clientCert := other.pair(other.leaf(&x509.Certificate{Subject: pkix.Name{CommonName: "client"}}, "client.errdex.test"))
	ccfg.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return &clientCert, nil }
	_, serr = handshake(ccfg, scfg)
	show("go/tls.client-verify-failed", serr)

	// No cipher suite in common (TLS 1.2, where they are configurable).
	scfg = serverCfg()
	scfg.MaxVersion = tls.VersionTLS12
	scfg.CipherSuites = []uint16{tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256}
	ccfg = trusting()
	ccfg.MaxVersion = tls.VersionTLS12
	ccfg.CipherSuites = []uint16{tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305}
	cerr, serr = handshake(ccfg, scfg)
	show("go/tls.alert.handshake-failure", cerr)
	show("go/tls.no-cipher-suite", serr)

	// No protocol version in common.
	scfg = serverCfg()
	scfg.MinVersion = tls.VersionTLS13
	ccfg = trusting()
	ccfg.MaxVersion = tls.VersionTLS12
	cerr, serr = handshake(ccfg, scfg)
	show("go/tls.alert.protocol-version", cerr)
	show("go/tls.unsupported-versions", serr)

	// A server without a certificate for the name; one whose
	// GetCertificate fails.
	cerr, _ = handshake(trusting(), &tls.Config{})
	show("go/tls.alert", cerr)
	cerr, _ = handshake(trusting(), &tls.Config{GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
		return nil, errors.New("no certificate for this name")
	}})
	show("go/tls.alert", cerr)

	// Alerts a Go peer does not send, as other peers (OpenSSL) send
	// them: a TLS 1.2 alert record, fatal.
	for _, a := range []byte{48, 42, 46} {
		conn, err := net.Dial("tcp", rawServer([]byte{21, 3, 3, 0, 2, 2, a}))
		must(err)
		err = tls.Client(conn, trusting()).Handshake()
		conn.Close()
		switch a {
		case 48:
			show("go/tls.alert.unknown-ca", err)
		case 42:
			show("go/tls.alert.bad-certificate", err)
		default:
			show("go/tls.alert", err)
		}
	}

	// Not TLS on the other end.
	conn, err := net.Dial("tcp", rawServer([]byte("HTTP/1.1 400 Bad Request\r\n\r\n")))
	must(err)
	show("go/tls.RecordHeaderError", tls.Client(conn, trusting()).Handshake())
	conn.Close()

	// A client config with no name to verify.
	conn, err = net.Dial("tcp", rawServer(nil))
	must(err)
	show("go/tls.missing-server-name", tls.Client(conn, &tls.Config{}).Handshake())
	conn.Close()

	// Key pairs that do not load.
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: leaf.Raw})
	der, err := x509.MarshalECPrivateKey(newKey())
	must(err)
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der})
	_, err = tls.X509KeyPair(certPEM, keyPEM)
	show("go/tls.key-mismatch", err)
	_, err = tls.X509KeyPair([]byte("not a certificate"), keyPEM)
	show("go/tls.no-pem-certificate", err)
	_, err = tls.X509KeyPair(keyPEM, certPEM)
	show("go/tls.no-pem-certificate", err)
}

func printX509() {
	tc := testCerts
	verify := func(c *x509.Certificate, name string) error {
		_, err := c.Verify(x509.VerifyOptions{Roots: tc.pool, DNSName: name})
		return err
	}
	leaf := tc.leaf(&x509.Certificate{}, "errdex.test", "www.errdex.test")
	show("go/x509.HostnameError", verify(leaf, "api.errdex.test"))
	show("go/x509.HostnameError.no-ip-sans", verify(leaf, "127.0.0.1"))
	show("go/x509.HostnameError", verify(tc.leaf(&x509.Certificate{}, "10.0.0.1"), "127.0.0.1"))
	show("go/x509.HostnameError", verify(tc.leaf(&x509.Certificate{}), "errdex.test"))
	show("go/x509.HostnameError.legacy-cn", verify(tc.leaf(&x509.Certificate{Subject: pkix.Name{CommonName: "legacy.errdex.test"}}), "legacy.errdex.test"))

	expired := tc.leaf(&x509.Certificate{NotBefore: time.Now().Add(-48 * time.Hour), NotAfter: time.Now().Add(-24 * time.Hour)}, "errdex.test")
	show("go/x509.CertificateInvalidError.expired", verify(expired, "errdex.test"))
	future := tc.leaf(&x509.Certificate{NotBefore: time.Now().Add(24 * time.Hour), NotAfter: time.Now().Add(48 * time.Hour)}, "errdex.test")
	show("go/x509.CertificateInvalidError.expired", verify(future, "errdex.test"))

	clientOnly := tc.leaf(&x509.Certificate{ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}, "errdex.test")
	show("go/x509.CertificateInvalidError.key-usage", verify(clientOnly, "errdex.test"))

	// Roots that are not the issuer: none, then one with the issuer's name
	// and another key (a CA that was re-issued).
	_, err := leaf.Verify(x509.VerifyOptions{Roots: x509.NewCertPool(), DNSName: "errdex.test"})
	show("go/x509.UnknownAuthorityError", err)
	sameName, _ := newCA("errdex test CA")
	pool := x509.NewCertPool()
	pool.AddCert(sameName)
	_, err = leaf.Verify(x509.VerifyOptions{Roots: pool, DNSName: "errdex.test"})
	show("go/x509.UnknownAuthorityError", err)
	// An intermediate that is not a CA (a server certificate used to sign).
	notCAKey := newKey()
	notCA := sign(&x509.Certificate{Subject: pkix.Name{CommonName: "errdex not a CA"}, BasicConstraintsValid: true}, notCAKey, tc.ca, tc.caKey)
	under := sign(&x509.Certificate{DNSNames: []string{"errdex.test"}}, newKey(), notCA, notCAKey)
	inter := x509.NewCertPool()
	inter.AddCert(notCA)
	_, err = under.Verify(x509.VerifyOptions{Roots: tc.pool, Intermediates: inter, DNSName: "errdex.test"})
	show("go/x509.UnknownAuthorityError", err)

	_, err = x509.ParseCertificate([]byte("not DER"))
	show("go/x509.malformed-certificate", err)
}

// logLines is a server's error log, a line at a time.
type logLines chan string

func (l logLines) Write(p []byte) (int, error) {
	l <- strings.TrimSuffix(string(p), "\n")
	return len(p), nil
}

// next is the next line logged, as the error it reports.
func (l logLines) next() error {
	select {
	case line := <-l:
		return errors.New(line)
	case <-time.After(5 * time.Second):
		panic("the server logged nothing")
	}
}

func printHTTP() {
	// Requests to a port nothing listens on, one per method.
	base := "http://" + closedPort() + "/api/items"
	_, err := http.Get(base)
	show("go/url.Error", err)
	_, err = http.Post(base, "application/json", strings.NewReader("{}"))
	show("go/url.Error", err)
	_, err = http.Head(base)
	show("go/url.Error", err)
	for _, m := range []string{"PUT", "DELETE", "PATCH"} {
		req, _ := http.NewRequest(m, base, nil)
		_, err = http.DefaultClient.Do(req)
		show("go/url.Error", err)
	}

	// A server that answers late.
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/body" {
			w.Write([]byte("x"))
			w.(http.Flusher).Flush()
		}
		select {
		case <-r.Context().Done():
		case <-time.After(2 * time.Second):
		}
	}))
	client := &http.Client{Timeout: 100 * time.Millisecond}
	_, err = client.Get(slow.URL)
	show("go/url.Error", err)
	show("go/http.Client.Timeout", cause(err))
	resp, err := client.Get(slow.URL + "/body")
	must(err)
	_, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	show("go/http.Client.Timeout", err)
	tr := &http.Transport{ResponseHeaderTimeout: 100 * time.Millisecond}
	_, err = (&http.Client{Transport: tr}).Get(slow.URL)
	show("go/http.errTimeout", cause(err))
	tr.CloseIdleConnections()
	req, _ := http.NewRequest("GET", slow.URL, nil)
	cancel := make(chan struct{})
	req.Cancel = cancel
	time.AfterFunc(50*time.Millisecond, func() { close(cancel) })
	_, err = http.DefaultClient.Do(req)
	show("go/http.errRequestCanceled", cause(err))
	// HTTPS to a plain HTTP server.
	_, err = http.Get(strings.Replace(slow.URL, "http:", "https:", 1))
	show("go/http.https-to-http", cause(err))
	slow.Close()

	// Not HTTP on the other end.
	ssh := "SSH-2.0-OpenSSH_9.2p1\r\n"
	_, err = http.Get("http://" + rawServer([]byte(ssh)) + "/")
	show("go/http.transport-connection-broken", cause(err))
	_, err = http.ReadResponse(bufio.NewReader(strings.NewReader(ssh)), nil)
	show("go/http.malformed-response", err)
	// The server closed the connection without an answer.
	_, err = http.Get("http://" + rawServer(nil) + "/")
	show("go/io.EOF", cause(err))

	// A server that was shut down.
	srv := &http.Server{}
	srv.Close()
	show("go/http.ErrServerClosed", srv.Serve(listen()))

	// Handler mistakes: a second WriteHeader, logged by the server.
	logged := make(logLines, 10)
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		w.WriteHeader(http.StatusInternalServerError)
	}))
	ts.Config.ErrorLog = log.New(logged, "", 0)
	ts.Start()
	resp, err = http.Get(ts.URL)
	must(err)
	resp.Body.Close()
	show("go/http.superfluous-writeheader", logged.next())
	ts.Close()

	// Request parsing in a handler.
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	must(mw.WriteField("name", "x"))
	must(mw.Close())
	r := httptest.NewRequest("POST", "/upload", &body)
	r.Header.Set("Content-Type", mw.FormDataContentType())
	_, _, err = r.FormFile("file")
	show("go/http.ErrMissingFile", err)
	_, err = r.Cookie("session")
	show("go/http.ErrNoCookie", err)
	r = httptest.NewRequest("POST", "/", strings.NewReader(strings.Repeat("x", 100)))
	_, err = io.ReadAll(http.MaxBytesReader(httptest.NewRecorder(), r.Body, 10))
	show("go/http.MaxBytesError", err)
}

func printURL() {
	for key, raw := range map[string]string{
		"go/url.EscapeError":      "http://example.com/100%",
		"go/url.missing-scheme":   "://example.com",
		"go/url.colon-in-path":    "127.0.0.1:8080",
		"go/url.InvalidHostError": "http://exa mple.com/",
		"go/url.invalid-port":     "http://example.com:80a/",
		"go/url.control-char":     "http://example.com/\n",
	} {
		_, err := url.Parse(raw)
		show("go/url.Error.parse", err)
		show(key, cause(err))
	}
	_, err := url.Parse("http://example.com/%zz")
	show("go/url.EscapeError", cause(err))
}

type config struct {
	Port    int      `json:"port"`
	Name    string   `json:"name"`
	Servers []server `json:"servers"`
}

type server struct {
	Weight int `json:"weight"`
}

func printJSON() {
	var c config
	show("go/json.SyntaxError.value", json.Unmarshal([]byte("<html><body>Bad Gateway</body></html>"), &c))
	show("go/json.SyntaxError.value", json.Unmarshal([]byte(`{"name": 'x'}`), &c))
	show("go/json.SyntaxError", json.Unmarshal([]byte("{'port': 1}"), &c))
	show("go/json.SyntaxError", json.Unmarshal([]byte(`{"port": 1,}`), &c))
	show("go/json.SyntaxError", json.Unmarshal([]byte(`{"port": 1 "name": "x"}`), &c))
	show("go/json.SyntaxError", json.Unmarshal([]byte(`{"port": 1}}`), &c))
	show("go/json.SyntaxError", json.Unmarshal([]byte(`{"port" 1}`), &c))
	show("go/json.SyntaxError", json.Unmarshal([]byte(`{"servers": [{"weight": 1} {"weight": 2}]}`), &c))
	show("go/json.SyntaxError", json.Unmarshal([]byte("{\"name\": \"a\tb\"}"), &c))
	show("go/json.unexpected-end", json.Unmarshal([]byte(`{"port": 1`), &c))
	show("go/json.unexpected-end", json.Unmarshal([]byte(``), &c))
	show("go/json.UnmarshalTypeError", json.Unmarshal([]byte(`{"port": "8080"}`), &c))
	show("go/json.UnmarshalTypeError", json.Unmarshal([]byte(`{"servers": [{"weight": 1.5}]}`), &c))
	show("go/json.UnmarshalTypeError", json.Unmarshal([]byte(`[1, 2]`), &c))
	var n int
	show("go/json.UnmarshalTypeError", json.Unmarshal([]byte(`"7"`), &n))
	d := json.NewDecoder(strings.NewReader(`{"port": 1, "host": "x"}`))
	d.DisallowUnknownFields()
	show("go/json.unknown-field", d.Decode(&c))
	// A struct passed by value, and nil, as they arrive through an
	// interface{} parameter.
	for _, v := range []interface{}{c, nil} {
		show("go/json.InvalidUnmarshalError", json.Unmarshal([]byte(`{}`), v))
	}
	show("go/json.InvalidUnmarshalError", json.Unmarshal([]byte(`{}`), (*config)(nil)))
	_, err := json.Marshal(map[string]interface{}{"done": make(chan int)})
	show("go/json.UnsupportedTypeError", err)
	_, err = json.Marshal(math.NaN())
	show("go/json.UnsupportedValueError", err)
}

// printFlag parses bad command lines with the flag package, its usage
// output discarded.
func printFlag() {
	parse := func(key string, args ...string) {
		fs := flag.NewFlagSet("prog", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.Int("port", 0, "")
		fs.Bool("verbose", false, "")
		show(key, fs.Parse(args))
	}
	parse("go/flag.undefined", "-bogus")
	parse("go/flag.needs_argument", "-port")
	parse("go/flag.invalid_value", "-port=abc")
	parse("go/flag.invalid_value", "-port=99999999999999999999")
	parse("go/flag.invalid_value", "-verbose=maybe")
	parse("go/flag.bad_syntax", "---x")
}

func printStrconv() {
	_, err := strconv.Atoi("")
	show("go/strconv.ErrSyntax", err)
	_, err = strconv.Atoi("8080\n")
	show("go/strconv.ErrSyntax", err)
	_, err = strconv.ParseInt("0x1f", 10, 64)
	show("go/strconv.ErrSyntax", err)
	_, err = strconv.ParseUint("-1", 10, 64)
	show("go/strconv.ErrSyntax", err)
	_, err = strconv.ParseFloat("1,5", 64)
	show("go/strconv.ErrSyntax", err)
	_, err = strconv.ParseBool("yes")
	show("go/strconv.ErrSyntax", err)
	_, err = strconv.Atoi("99999999999999999999")
	show("go/strconv.ErrRange", err)
	_, err = strconv.ParseInt("300", 10, 8)
	show("go/strconv.ErrRange", err)
	_, err = strconv.ParseUint("70000", 10, 16)
	show("go/strconv.ErrRange", err)
	_, err = strconv.ParseFloat("1e400", 64)
	show("go/strconv.ErrRange", err)
}

func printTime() {
	_, err := time.ParseDuration("5")
	show("go/time.ParseDuration", err)
	_, err = time.ParseDuration("5 s")
	show("go/time.ParseDuration", err)
	_, err = time.ParseDuration("10d")
	show("go/time.ParseDuration", err)
	_, err = time.ParseDuration("soon")
	show("go/time.ParseDuration", err)
	_, err = time.Parse(time.RFC3339, "2024-03-01 10:00:00")
	show("go/time.ParseError", err)
	_, err = time.Parse(time.RFC3339, "2024-03-01")
	show("go/time.ParseError", err)
	_, err = time.Parse("2006-01-02", "2024-03-01T10:00:00Z")
	show("go/time.ParseError", err)
	_, err = time.Parse("2006-01-02", "2024-13-01")
	show("go/time.ParseError", err)
	_, err = time.Parse("2006-01-02", "2024-02-30")
	show("go/time.ParseError", err)
	_, err = time.LoadLocation("Europe/Atlantis")
	show("go/time.unknown-time-zone", err)
}

// printFileLimit runs out of file descriptors (a soft limit lowered to
// the next free one) and restores the limit.
func printFileLimit() {
	l := listen()
	defer l.Close()
	waiting, err := net.Dial("tcp", l.Addr().String())
	must(err)
	defer waiting.Close()
	target := closedPort()

	var lim syscall.Rlimit
	must(syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim))
	probe, err := os.Open(os.DevNull)
	must(err)
	next := probe.Fd()
	probe.Close()
	low := lim
	low.Cur = uint64(next)
	must(syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low))
	_, derr := net.Dial("tcp", target)
	_, aerr := l.Accept()
	_, oerr := os.Open(os.DevNull)
	must(syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim))

	show("go/net.OpError.dial", derr)
	show("go/os.SyscallError.socket", cause(derr))
	show("go/net.OpError.accept", aerr)
	show("go/os.SyscallError.accept4", cause(aerr))
	show("go/os.PathError.open", oerr)
}
