//! The cause graph on a small module written for it: a wrapped call
//! resolved in the site's package, through an import of the module, as a
//! method of the site's receiver; calls handed up as they are; a
//! standard-library call at the end with its address worked out from a
//! constant of another package; and calls it must not resolve by name.

use super::{by_pattern, index_files};
use errdex_model::Record;

const FILES: &[(&str, &str)] = &[
    ("go.mod", "module example.com/shop\n\ngo 1.22\n"),
    (
        "ports/ports.go",
        "package ports\n\nconst (\n\tBase = 8000\n\tHealth = Base + 80\n)\n",
    ),
    (
        "server/server.go",
        r#"package server

import (
	"fmt"
	"net"
	"strconv"

	"example.com/shop/ports"
)

type Server struct{ l net.Listener }

func Listen() (*Server, error) {
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(ports.Health))
	return listenOn(addr)
}

func listenOn(addr string) (*Server, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", addr, err)
	}
	return &Server{l}, nil
}

func (s *Server) Close() error {
	if err := s.l.Close(); err != nil {
		return fmt.Errorf("closing listener: %w", err)
	}
	return nil
}

func (s *Server) Stop() error {
	return s.Close()
}

func Port(text string) (int64, error) {
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("bad port %q: %w", text, err)
	}
	return n, nil
}

func Check(addr string) error {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return fmt.Errorf("address %q needs a port", addr)
	}
	return nil
}

func (s *Server) Restart() error {
	if err := s.Stop(); err != nil {
		return fmt.Errorf("restarting: %w", err)
	}
	return nil
}
"#,
    ),
    (
        "store/store.go",
        r#"package store

import (
	"errors"
	"fmt"
)

var ErrCompacted = errors.New("requested index is compacted")

var ErrMissing = errors.New("no such entry")

type Log struct{ first uint64 }

func (l *Log) check(lo uint64) error {
	if lo < l.first {
		return ErrCompacted
	}
	return nil
}

func (l *Log) slice(lo uint64) ([]byte, error) {
	if err := l.check(lo); err != nil {
		return nil, err
	}
	return nil, nil
}

func (l *Log) Next(lo uint64) []byte {
	b, err := l.slice(lo)
	if err != nil {
		panic(fmt.Sprintf("unexpected error reading entries (%v)", err))
	}
	return b
}

type Backend interface {
	Load(key string) (string, error)
}

type disk struct{}

func (d *disk) Load(key string) (string, error) {
	if key == "" {
		return "", ErrMissing
	}
	return key, nil
}

type Storage interface {
	Entries(lo uint64) ([]byte, error)
}

type mem struct{ first uint64 }

func (m *mem) Entries(lo uint64) ([]byte, error) {
	if lo < m.first {
		return nil, ErrCompacted
	}
	if lo > 100 {
		return nil, ErrMissing
	}
	return nil, nil
}

type Ring struct{ storage Storage }

func (r *Ring) read(lo uint64) ([]byte, error) {
	b, err := r.storage.Entries(lo)
	if err == ErrCompacted {
		return nil, err
	} else if err != nil {
		panic(err)
	}
	return b, nil
}

func (r *Ring) Read(lo uint64) []byte {
	b, err := r.read(lo)
	if err != nil {
		panic(fmt.Sprintf("unexpected error reading ring (%v)", err))
	}
	return b
}

type base struct{ be Backend }

type Cache struct {
	base
	size int
}

func (c *Cache) Fetch(key string) error {
	if _, err := c.be.Load(key); err != nil {
		return fmt.Errorf("fetching %q: %w", key, err)
	}
	return nil
}

func Find(key string) (string, error) {
	if key == "" {
		return "", ErrMissing
	}
	return key, nil
}
"#,
    ),
    (
        "lookup/lookup.go",
        r#"package lookup

import (
	"fmt"

	"example.com/shop/store"
)

func Scan(keys []string) error {
	for _, k := range keys {
		if _, err := store.Find(k); err != nil {
			return fmt.Errorf("key %q is not stored", k)
		}
	}
	return nil
}

func Get(key string) error {
	if _, err := store.Find(key); err != nil {
		return fmt.Errorf("looking up %q: %w", key, err)
	}
	return nil
}
"#,
    ),
    (
        "cmd/main.go",
        r#"package main

import (
	"fmt"
	"log"

	"example.com/shop/server"
)

type app struct{ srv *server.Server }

func (a *app) stop() error {
	if err := a.srv.Stop(); err != nil {
		return fmt.Errorf("stopping server: %w", err)
	}
	return nil
}

func main() {
	srv, err := server.Listen()
	if err != nil {
		log.Fatalf("starting: %v", err)
	}
	if err := server.Check("db"); err != nil {
		log.Fatalf("checking: %v", err)
	}
	a := &app{srv}
	if err := a.stop(); err != nil {
		log.Fatalf("shutdown: %v", err)
	}
	_ = fmt.Sprint()
}
"#,
    ),
];

fn records() -> Vec<Record> {
    index_files(FILES)
}

#[test]
fn wrapped_calls_are_followed_to_sites_and_the_standard_library() {
    let records = records();
    let starting = by_pattern(&records, "starting: %v");
    let site = &starting.causes[0];
    assert_eq!(site.message_pattern, "listening on %s: %w");
    assert_eq!(site.file_path, "server/server.go");
    // `server.Listen` through the module's import path, then the call it
    // hands up as it is.
    assert_eq!(site.path, ["server.Listen", "listenOn"]);
    let in_use = starting
        .causes
        .iter()
        .find(|c| c.knowledge.as_deref() == Some("errno/EADDRINUSE"))
        .expect("net.Listen's causes");
    assert_eq!(in_use.path, ["server.Listen", "listenOn", "net.Listen"]);
    // The address from a constant of another package, itself a sum.
    assert_eq!(in_use.values, ["addr = 127.0.0.1:8080"]);
    // Nearest first.
    assert!(starting
        .causes
        .windows(2)
        .all(|w| w[0].path.len() <= w[1].path.len()));

    // A runtime entry shows the text the failing function prints.
    let port = by_pattern(&records, "bad port %q: %w");
    assert_eq!(
        port.causes[0].message_pattern,
        "strconv.ParseInt: parsing {input}: invalid syntax"
    );

    // A method of the site's own receiver type is followed, and the method
    // it hands up; a method of a field (`a.srv.Stop`) through the field's
    // type; a method of a standard-library type (`s.l.Close` on a
    // `net.Listener`) not at all.
    let restarting = by_pattern(&records, "restarting: %w");
    assert_eq!(restarting.causes[0].message_pattern, "closing listener: %w");
    assert_eq!(restarting.causes[0].path, ["s.Stop", "s.Close"]);
    let shutdown = by_pattern(&records, "stopping server: %w");
    assert_eq!(shutdown.causes[0].message_pattern, "closing listener: %w");
    assert_eq!(shutdown.causes[0].path, ["a.srv.Stop", "s.Close"]);
    let closing = by_pattern(&records, "closing listener: %w");
    assert!(closing.causes.is_empty(), "s.l.Close is a field's method");
}

#[test]
fn a_call_whose_error_the_message_drops_leads_to_no_runtime_text() {
    let records = records();
    // `SplitHostPort`'s text never reaches the log: the site prints its own.
    assert!(by_pattern(&records, "address %q needs a port")
        .causes
        .is_empty());
    // A repository function's own error is still why the call failed.
    let skipped = by_pattern(&records, "key %q is not stored");
    let missing = by_pattern(&records, "no such entry");
    assert_eq!(skipped.causes.len(), 1, "{:?}", skipped.causes);
    assert_eq!(
        skipped.causes[0].record_id.as_deref(),
        Some(missing.id.as_str())
    );
    let checking = by_pattern(&records, "checking: %v");
    assert_eq!(checking.causes.len(), 1, "{:?}", checking.causes);
    assert_eq!(
        checking.causes[0].message_pattern,
        "address %q needs a port"
    );
}

#[test]
fn a_returned_sentinel_is_a_cause_of_the_calls_that_hand_it_up() {
    let records = records();
    // `return ErrCompacted` in a method of the receiver, handed up by the
    // wrapped call.
    let next = by_pattern(&records, "unexpected error reading entries (%v)");
    let compacted = by_pattern(&records, "requested index is compacted");
    assert_eq!(next.causes.len(), 1, "{:?}", next.causes);
    let c = &next.causes[0];
    assert_eq!(c.record_id.as_deref(), Some(compacted.id.as_str()));
    assert_eq!(c.path, ["l.slice", "l.check"]);
    // Where it is returned, not where it is declared.
    assert_eq!(
        (c.file_path.as_str(), c.line_number),
        ("store/store.go", 16)
    );
    // Through an import: `store.Find` returns `ErrMissing` itself.
    let looking = by_pattern(&records, "looking up %q: %w");
    let missing = by_pattern(&records, "no such entry");
    assert_eq!(
        looking.causes[0].record_id.as_deref(),
        Some(missing.id.as_str())
    );
    assert_eq!(looking.causes[0].path, ["store.Find"]);
}

#[test]
fn a_call_on_an_interface_field_reaches_the_implementations_of_its_package() {
    let records = records();
    // `c.be` is a field of the embedded `base`, of interface type
    // `Backend`; `disk` implements `Load` in the same package.
    let fetching = by_pattern(&records, "fetching %q: %w");
    let missing = by_pattern(&records, "no such entry");
    assert_eq!(fetching.causes.len(), 1, "{:?}", fetching.causes);
    assert_eq!(
        fetching.causes[0].record_id.as_deref(),
        Some(missing.id.as_str())
    );
    assert_eq!(fetching.causes[0].path, ["c.be.Load"]);
    assert_eq!(fetching.causes[0].when.as_deref(), Some(r#"key == """#));
}

#[test]
fn a_call_handed_up_for_one_sentinel_only_brings_that_sentinel_only() {
    let records = records();
    // `read` returns the error of `r.storage.Entries` only when it is
    // `ErrCompacted`; `ErrMissing` from the same call never gets out.
    let ring = by_pattern(&records, "unexpected error reading ring (%v)");
    let texts: Vec<&str> = ring
        .causes
        .iter()
        .map(|c| c.message_pattern.as_str())
        .collect();
    assert_eq!(texts, ["requested index is compacted"]);
    assert_eq!(ring.causes[0].path, ["r.read", "r.storage.Entries"]);
}

#[test]
fn a_record_is_not_its_own_cause() {
    for r in records() {
        assert!(r
            .causes
            .iter()
            .all(|c| c.record_id.as_deref() != Some(r.id.as_str())));
    }
}

/// A gRPC server's map of errors: the wire error stands for the store's.
const TRANSLATING: &[(&str, &str)] = &[
    ("go.mod", "module example.com/kv\n\ngo 1.22\n"),
    (
        "store/store.go",
        r#"package store

import "errors"

// ErrMissing is returned when a key is not stored.
var ErrMissing = errors.New("store: no such key")

var ErrSame = errors.New("store: same text")

func Get(key string) (string, error) {
	if key == "" {
		return "", ErrMissing
	}
	return key, nil
}
"#,
    ),
    (
        "rpc/errors.go",
        r#"package rpc

import (
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.com/kv/store"
)

var (
	ErrWireMissing = status.New(codes.NotFound, "rpc: key not found").Err()
	ErrWireOther   = status.New(codes.Internal, "rpc: internal").Err()
	ErrWireSame    = status.New(codes.Internal, "store: same text").Err()
)

var ErrClientMissing = Error(ErrWireMissing)

func Error(err error) error { return err }

var toWire = map[error]error{
	store.ErrMissing: ErrWireMissing,
	store.ErrSame:    ErrWireSame,
}
"#,
    ),
    (
        "store/open.go",
        r#"package store

import (
	"errors"
	"fmt"
)

var ErrIncompatible = errors.New("store: incompatible version")

func checkVersion(v string) (string, error) {
	if v == "" {
		return "", fmt.Errorf("store: version %q is too low", v)
	}
	return v, nil
}

func Open(v string) error {
	if _, err := checkVersion(v); err != nil {
		return ErrIncompatible
	}
	return nil
}
"#,
    ),
    (
        "client/client.go",
        r#"package client

import "example.com/kv/rpc"

func retry(err error) bool {
	return err == rpc.ErrClientMissing
}
"#,
    ),
];

#[test]
fn a_map_of_errors_makes_the_translated_error_a_cause_and_an_alias_brings_its_checks() {
    let records = index_files(TRANSLATING);
    let wire = by_pattern(&records, "rpc: key not found");
    // `status.New(…).Err()` declares the sentinel it is assigned to.
    assert_eq!(wire.error_class.as_deref(), Some("ErrWireMissing"));
    let missing = by_pattern(&records, "store: no such key");
    let ids: Vec<Option<&str>> = wire.causes.iter().map(|c| c.record_id.as_deref()).collect();
    assert_eq!(ids, [Some(missing.id.as_str()), Some(missing.id.as_str())]);
    // The declaration, with its comment, then where it is returned.
    let (decl, returned) = (&wire.causes[0], &wire.causes[1]);
    assert_eq!(decl.path, ["store.ErrMissing"]);
    assert_eq!(
        decl.comment.as_deref(),
        Some("ErrMissing is returned when a key is not stored.")
    );
    assert_eq!(
        (returned.file_path.as_str(), returned.line_number),
        ("store/store.go", 12)
    );
    assert_eq!(returned.when.as_deref(), Some("key == \"\""));
    assert_eq!(decl.translated_at.as_deref(), Some("rpc/errors.go:21"));
    // The client's form of the wire error is made from it: its checks
    // are the wire error's.
    assert_eq!(
        wire.sites[0].facts.checked_at,
        ["client/client.go:6 == (ErrClientMissing)"]
    );
    // One text on both sides is one record, not its own cause.
    assert!(by_pattern(&records, "store: same text").causes.is_empty());
    // Another wire error of the map's file is no translation's.
    assert!(by_pattern(&records, "rpc: internal").causes.is_empty());
}

#[test]
fn a_sentinel_returned_for_a_failed_call_has_that_call_s_errors_as_causes() {
    let records = index_files(TRANSLATING);
    let incompatible = by_pattern(&records, "store: incompatible version");
    let low = by_pattern(&records, "store: version %q is too low");
    assert_eq!(incompatible.causes.len(), 1, "{:?}", incompatible.causes);
    let c = &incompatible.causes[0];
    assert_eq!(c.record_id.as_deref(), Some(low.id.as_str()));
    assert_eq!(c.path, ["checkVersion"]);
    assert_eq!(c.when.as_deref(), Some("v == \"\""));
}

#[test]
fn a_pointer_passed_to_a_decoder_rules_out_the_non_pointer_error() {
    let files: &[(&str, &str)] = &[
        ("go.mod", "module example.com/cfg\n\ngo 1.22\n"),
        (
            "cfg/cfg.go",
            r#"package cfg

import (
	"encoding/json"
	"fmt"
)

type Config struct{ Name string }

func Parse(b []byte) (*Config, error) {
	var c Config
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("parsing the configuration: %w", err)
	}
	return &c, nil
}

func Into(b []byte, v any) error {
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("decoding into the value: %w", err)
	}
	return nil
}
"#,
        ),
    ];
    let records = index_files(files);
    let keys = |pattern: &str| -> Vec<String> {
        by_pattern(&records, pattern)
            .causes
            .iter()
            .filter_map(|c| c.knowledge.clone())
            .collect()
    };
    let parsed = keys("parsing the configuration: %w");
    assert!(parsed.contains(&"go/json.SyntaxError.value".to_string()));
    assert!(!parsed.contains(&"go/json.InvalidUnmarshalError".to_string()));
    let into = keys("decoding into the value: %w");
    assert!(into.contains(&"go/json.InvalidUnmarshalError".to_string()));
}
