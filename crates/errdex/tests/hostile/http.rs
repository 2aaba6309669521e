//! Slow and abusive clients against a real `errdex serve`: connections
//! that say nothing, trickle headers or a body, or pile up past the limit
//! are closed on time, and the server goes on answering.

use super::{seed_db, Server};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Seconds after which the server under test closes a slow client.
const TIMEOUT: u64 = 2;

/// Whether the server closed `s` within `within` (reading until EOF or a
/// reset; an answer before the close is fine).
fn closed_within(s: &mut TcpStream, within: Duration) -> bool {
    s.set_read_timeout(Some(within)).unwrap();
    let started = Instant::now();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return started.elapsed() <= within,
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
    }
}

#[test]
fn slow_idle_and_surplus_connections_are_closed_and_the_server_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = seed_db(dir.path());
    let t = TIMEOUT.to_string();
    let server = Server::start(
        &db,
        &[
            "--header-timeout",
            &t,
            "--body-timeout",
            &t,
            "--max-connections",
            "40",
        ],
    );
    let addr = server.addr.clone();
    let connect = || TcpStream::connect(&addr).unwrap();
    let margin = Duration::from_secs(TIMEOUT + 3);

    let mut silent: Vec<TcpStream> = (0..10).map(|_| connect()).collect();
    let mut slow_headers: Vec<TcpStream> = (0..10)
        .map(|_| {
            let mut s = connect();
            s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n")
                .unwrap();
            s
        })
        .collect();
    let mut slow_bodies: Vec<TcpStream> = (0..10)
        .map(|_| {
            let mut s = connect();
            s.write_all(
                b"POST /api/explain HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nabc",
            )
            .unwrap();
            s
        })
        .collect();
    let mut idle = connect();
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    // 31 held: 9 more fit, the rest are closed at once.
    std::thread::sleep(Duration::from_millis(300));
    let mut surplus: Vec<TcpStream> = (0..20).map(|_| connect()).collect();
    let closed_at_once = surplus
        .iter_mut()
        .map(|s| closed_within(s, Duration::from_millis(500)))
        .filter(|&closed| closed)
        .count();
    assert!(
        closed_at_once >= 11,
        "{closed_at_once} of 20 past the limit closed at once"
    );

    for (what, group) in [
        ("silent", &mut silent),
        ("slow headers", &mut slow_headers),
        ("slow bodies", &mut slow_bodies),
    ] {
        let held = group
            .iter_mut()
            .map(|s| closed_within(s, margin))
            .filter(|&closed| !closed)
            .count();
        assert_eq!(held, 0, "{what}: {held} of 10 still open after {margin:?}");
    }
    assert!(
        closed_within(&mut idle, margin),
        "an idle keep-alive connection is closed"
    );

    // Still serving, and a fresh client is answered.
    drop(surplus);
    let (status, _) = server.get("/healthz");
    assert_eq!(status, 200);
}
