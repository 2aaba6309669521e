//! Prints Rust's standard-library error texts for the knowledge base's
//! check (crates/kb/tests/runtimes.rs): each error is made to happen for
//! real and printed as `rust/KEY<TAB>TEXT`. Panics are caught with
//! `catch_unwind` under a silent hook and their messages printed; the
//! lines the default hook writes (`thread 'main' panicked at ...`) come
//! from a copy of this program run as a child.
//!
//! Built by the test with `rustc --edition 2021` and no optimisation, so
//! arithmetic overflow panics as in a debug build.

use std::any::Any;
use std::cell::RefCell;
use std::fmt::Display;
use std::hint::black_box;
use std::io::{self, ErrorKind, Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::panic::{self, AssertUnwindSafe};
use std::process::{Command, Stdio};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, SystemTime};

fn show(key: &str, text: impl Display) {
    println!("rust/{key}\t{text}");
}

fn debug(key: &str, value: impl std::fmt::Debug) {
    println!("rust/{key}\t{value:?}");
}

/// The message of a panic: what the default hook prints after
/// `panicked at FILE:LINE:COL:`.
fn message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        panic!("a panic payload that is not a string")
    }
}

/// Whether a panic now is one this program makes on purpose: the hook is
/// silent for those and reports any other (a printer that broke).
static EXPECTED: AtomicBool = AtomicBool::new(false);

/// Runs `f` with panics expected.
fn expecting<R>(f: impl FnOnce() -> R) -> R {
    EXPECTED.store(true, Ordering::SeqCst);
    let r = f();
    EXPECTED.store(false, Ordering::SeqCst);
    r
}

/// Runs `f`, which must panic, and prints its message under `key`.
fn panics<R>(key: &str, f: impl FnOnce() -> R) {
    match expecting(|| panic::catch_unwind(AssertUnwindSafe(f))) {
        Ok(_) => panic!("{key}: no panic happened"),
        Err(payload) => show(key, message(&*payload)),
    }
}

/// The `Err` of a result that must fail.
#[track_caller]
fn fails<T, E>(r: Result<T, E>) -> E {
    match r {
        Ok(_) => panic!("no error happened"),
        Err(e) => e,
    }
}

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("panic-main") => panic!("boom"),
        Some("panic-thread") => {
            let named = std::thread::Builder::new().name("worker".into());
            let _ = named.spawn(|| panic!("boom")).unwrap().join();
            let _ = std::thread::spawn(|| panic!("boom")).join();
            return;
        }
        _ => {}
    }
    // Silent for the panics made on purpose: their messages are printed
    // from the payloads.
    let default = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        if !EXPECTED.load(Ordering::SeqCst) {
            default(info)
        }
    }));
    error_kinds();
    io_errors();
    parse_errors();
    channel_and_sync_errors();
    panic_messages();
    panic_lines();
}

fn error_kinds() {
    // Kinds whose text is also an errno text Go prints (`permission
    // denied`, `broken pipe`, `not a directory`...) belong to
    // data/errno.toml's entries, and OutOfMemory's `out of memory` to
    // data/openssl.toml's: they are not listed here.
    let kinds = [
        ("NotFound", ErrorKind::NotFound),
        ("ConnectionReset", ErrorKind::ConnectionReset),
        ("HostUnreachable", ErrorKind::HostUnreachable),
        ("NetworkUnreachable", ErrorKind::NetworkUnreachable),
        ("ConnectionAborted", ErrorKind::ConnectionAborted),
        ("NotConnected", ErrorKind::NotConnected),
        ("AddrInUse", ErrorKind::AddrInUse),
        ("AddrNotAvailable", ErrorKind::AddrNotAvailable),
        ("NetworkDown", ErrorKind::NetworkDown),
        ("AlreadyExists", ErrorKind::AlreadyExists),
        ("WouldBlock", ErrorKind::WouldBlock),
        ("ReadOnlyFilesystem", ErrorKind::ReadOnlyFilesystem),
        ("StaleNetworkFileHandle", ErrorKind::StaleNetworkFileHandle),
        ("InvalidInput", ErrorKind::InvalidInput),
        ("InvalidData", ErrorKind::InvalidData),
        ("TimedOut", ErrorKind::TimedOut),
        ("WriteZero", ErrorKind::WriteZero),
        ("StorageFull", ErrorKind::StorageFull),
        ("NotSeekable", ErrorKind::NotSeekable),
        ("QuotaExceeded", ErrorKind::QuotaExceeded),
        ("ResourceBusy", ErrorKind::ResourceBusy),
        ("ExecutableFileBusy", ErrorKind::ExecutableFileBusy),
        ("Deadlock", ErrorKind::Deadlock),
        ("CrossesDevices", ErrorKind::CrossesDevices),
        ("InvalidFilename", ErrorKind::InvalidFilename),
        ("Interrupted", ErrorKind::Interrupted),
        ("Unsupported", ErrorKind::Unsupported),
        ("UnexpectedEof", ErrorKind::UnexpectedEof),
        ("Other", ErrorKind::Other),
    ];
    for (name, kind) in kinds {
        let e = io::Error::from(kind);
        show(&format!("io.ErrorKind.{name}"), &e);
        debug("io.Error.kind-debug", &e);
    }
}

fn io_errors() {
    let dir = std::env::temp_dir().join(format!("errdex-kb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();

    // Errors from the operating system: the C library's text and errno.
    let e = fails(std::fs::File::open(dir.join("missing.txt")));
    show("io.Error.os", &e);
    debug("io.Error.os-debug", &e);
    let e = fails(std::fs::read_to_string(&dir));
    show("io.Error.os", &e);
    debug("io.Error.os-debug", &e);
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    let e = fails(TcpListener::bind(addr));
    show("io.Error.os", &e);
    drop(l);
    let e = fails(TcpStream::connect(addr));
    show("io.Error.os", &e);
    debug("io.Error.os-debug", &e);
    let e = fails(Command::new("errdex-no-such-command").spawn());
    show("io.Error.os", &e);

    // Errors std makes itself, with a message.
    let e = fails((&b"ab"[..]).read_exact(&mut [0; 4]));
    show("io.Error.read-exact", &e);
    debug("io.Error.simple-debug", &e);
    let e = fails((&mut [0u8; 2][..]).write_all(b"abcd"));
    show("io.Error.write-all", &e);
    let mut s = String::new();
    let e = fails((&b"\xff\xfe"[..]).read_to_string(&mut s));
    show("io.Error.invalid-utf8", &e);
    let e = fails(std::fs::File::open("config\0.toml"));
    show("io.Error.nul", &e);
    let none: &[SocketAddr] = &[];
    let e = fails(TcpStream::connect(none));
    show("io.Error.no-addresses", &e);
    debug("io.Error.simple-debug", &e);
    let e = fails(("bad..name", 443).to_socket_addrs());
    show("io.Error.lookup", &e);
    // A library's own error wrapped in io::Error::other.
    let e = io::Error::other("config file is empty");
    debug("io.Error.custom-debug", &e);

    std::fs::remove_dir_all(&dir).unwrap();
}

fn parse_errors() {
    show("num.ParseIntError.empty", fails("".parse::<u16>()));
    debug("num.ParseIntError.empty", fails("".parse::<u16>()));
    show(
        "num.ParseIntError.invalid-digit",
        fails("8080\n".parse::<u16>()),
    );
    show(
        "num.ParseIntError.invalid-digit",
        fails("-1".parse::<u32>()),
    );
    debug(
        "num.ParseIntError.invalid-digit",
        fails("1.5".parse::<i64>()),
    );
    show("num.ParseIntError.overflow", fails("70000".parse::<u16>()));
    show("num.ParseIntError.overflow", fails("-129".parse::<i8>()));
    debug("num.ParseIntError.overflow", fails("70000".parse::<u16>()));
    debug("num.ParseIntError.overflow", fails("-129".parse::<i8>()));
    show(
        "num.ParseIntError.zero",
        fails(std::num::NonZeroU32::from_str("0")),
    );
    debug(
        "num.ParseIntError.zero",
        fails(std::num::NonZeroU32::from_str("0")),
    );

    show("num.ParseFloatError", fails("".parse::<f64>()));
    show("num.ParseFloatError", fails("1,5".parse::<f64>()));
    debug("num.ParseFloatError", fails("".parse::<f64>()));
    debug("num.ParseFloatError", fails("1,5".parse::<f64>()));

    show("str.ParseBoolError", fails("yes".parse::<bool>()));
    debug("str.ParseBoolError", fails("1".parse::<bool>()));
    show("char.ParseCharError", fails("ab".parse::<char>()));
    show("char.ParseCharError", fails("".parse::<char>()));

    let bad = black_box(vec![b'o', b'k', 0xe2, 0x28, 0xa1]);
    let e = fails(std::str::from_utf8(&bad));
    show("str.Utf8Error", e);
    debug("str.Utf8Error", e);
    let cut = black_box(vec![b'o', b'k', 0xe2, 0x82]);
    show("str.Utf8Error", fails(std::str::from_utf8(&cut)));
    let e = fails(String::from_utf8(bad.clone()));
    show("str.Utf8Error", &e);
    debug("str.Utf8Error", &e);
    show(
        "string.FromUtf16Error",
        fails(String::from_utf16(&[0xd800])),
    );

    show("net.AddrParseError", fails("localhost".parse::<IpAddr>()));
    show(
        "net.AddrParseError",
        fails("10.0.0.256".parse::<Ipv4Addr>()),
    );
    show(
        "net.AddrParseError",
        fails("fe80::1::2".parse::<Ipv6Addr>()),
    );
    show(
        "net.AddrParseError",
        fails("localhost:8080".parse::<SocketAddr>()),
    );
    show(
        "net.AddrParseError",
        fails("127.0.0.1".parse::<SocketAddr>()),
    );
    show(
        "net.AddrParseError",
        fails("1.2.3.4:99999".parse::<std::net::SocketAddrV4>()),
    );
    show(
        "net.AddrParseError",
        fails("::1:80".parse::<std::net::SocketAddrV6>()),
    );
    debug(
        "net.AddrParseError",
        fails("localhost:8080".parse::<SocketAddr>()),
    );

    show(
        "num.TryFromIntError",
        fails(u8::try_from(black_box(300i32))),
    );
    debug("num.TryFromIntError", fails(u8::try_from(black_box(-1i32))));
    let v = black_box(vec![1u8, 2, 3]);
    show(
        "array.TryFromSliceError",
        fails(<[u8; 4]>::try_from(&v[..])),
    );
    show(
        "char.CharTryFromError",
        fails(char::try_from(black_box(0xd800u32))),
    );

    show(
        "env.VarError",
        fails(std::env::var("ERRDEX_KB_UNSET_VARIABLE")),
    );
    {
        use std::os::unix::ffi::OsStrExt;
        let bad = std::ffi::OsStr::from_bytes(b"caf\xe9");
        std::env::set_var("ERRDEX_KB_LATIN1_VARIABLE", bad);
        show(
            "env.VarError",
            fails(std::env::var("ERRDEX_KB_LATIN1_VARIABLE")),
        );
        std::env::remove_var("ERRDEX_KB_LATIN1_VARIABLE");
    }
    debug(
        "env.VarError",
        fails(std::env::var("ERRDEX_KB_UNSET_VARIABLE")),
    );

    let later = SystemTime::now() + Duration::from_secs(60);
    show(
        "time.SystemTimeError",
        fails(SystemTime::now().duration_since(later)),
    );
}

fn channel_and_sync_errors() {
    let (tx, rx) = mpsc::channel::<u32>();
    drop(tx);
    show("mpsc.RecvError", fails(rx.recv()));
    debug("mpsc.RecvError", fails(rx.recv()));
    show(
        "mpsc.RecvTimeoutError",
        fails(rx.recv_timeout(Duration::from_millis(1))),
    );
    let (tx, rx) = mpsc::channel::<u32>();
    show("mpsc.TryRecvError", fails(rx.try_recv()));
    show(
        "mpsc.RecvTimeoutError",
        fails(rx.recv_timeout(Duration::from_millis(1))),
    );
    drop(rx);
    show("mpsc.SendError", fails(tx.send(1)));
    debug("mpsc.SendError", fails(tx.send(1)));

    let m = Arc::new(Mutex::new(0));
    let m2 = Arc::clone(&m);
    let _ = expecting(|| {
        std::thread::spawn(move || {
            let _g = m2.lock().unwrap();
            panic!("poison");
        })
        .join()
    });
    show("sync.PoisonError", fails(m.lock()));
    debug("sync.PoisonError", fails(m.lock()));

    let e = fails(expecting(|| {
        std::thread::spawn(|| panic!("worker failed")).join()
    }));
    debug("thread.JoinHandle.join", e);
}

fn panic_messages() {
    panics("panic.Option.unwrap", || black_box(None::<u32>).unwrap());
    panics("panic.Result.unwrap", || "x".parse::<u32>().unwrap());
    panics("panic.Result.unwrap", || {
        std::fs::read("/nonexistent/errdex.toml").unwrap()
    });
    panics("panic.Result.unwrap", || {
        std::env::var("ERRDEX_KB_UNSET_VARIABLE").unwrap()
    });
    panics("panic.Result.unwrap", || {
        std::thread::spawn(|| panic!("worker failed"))
            .join()
            .unwrap()
    });

    let v = black_box(vec![1, 2, 3]);
    panics("panic.index-out-of-bounds", || v[black_box(5)]);
    panics("panic.slice-range", || v[..black_box(10)].len());
    panics("panic.slice-range", || v[black_box(4)..].len());
    panics("panic.slice-range", || v[black_box(2)..black_box(1)].len());
    let s = black_box(String::from("é"));
    panics("panic.char-boundary", || s[..black_box(1)].len());
    panics("panic.char-boundary", || s[black_box(1)..].len());
    panics("panic.str-out-of-bounds", || s[..black_box(10)].len());
    panics("panic.HashMap.index", || {
        let m = std::collections::HashMap::<&str, u32>::new();
        m[black_box("port")]
    });

    panics("panic.overflow", || black_box(u8::MAX) + black_box(1));
    panics("panic.overflow", || black_box(0u32) - black_box(1));
    panics("panic.overflow", || black_box(u32::MAX) * black_box(2));
    panics("panic.divide-by-zero", || black_box(1) / black_box(0));
    panics("panic.divide-by-zero", || black_box(1) % black_box(0));

    let c = RefCell::new(0);
    panics("panic.RefCell.already-borrowed", || {
        let _a = c.borrow();
        let _b = c.borrow_mut();
    });
    panics("panic.RefCell.already-mutably-borrowed", || {
        let _a = c.borrow_mut();
        let _b = c.borrow();
    });

    panics("panic.unreachable", || -> u32 { unreachable!() });
    panics("panic.unreachable", || -> u32 {
        unreachable!("state {}", black_box(3))
    });
    panics("panic.todo", || -> u32 { todo!() });
    panics("panic.todo", || -> u32 { todo!("retry with backoff") });
    panics("panic.unimplemented", || -> u32 { unimplemented!() });
    panics("panic.unimplemented", || -> u32 {
        unimplemented!("IPv6 sources")
    });
}

/// The lines the default panic hook writes to standard error, from this
/// program run again as a child that panics.
fn panic_lines() {
    let me = std::env::current_exe().unwrap();
    for arg in ["panic-main", "panic-thread"] {
        let out = Command::new(&me)
            .arg(arg)
            .env_remove("RUST_BACKTRACE")
            .stdout(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        for line in stderr.lines() {
            if line.starts_with("thread '") {
                show("panic.thread-panicked", line);
            } else if line.starts_with("note: ") {
                show("panic.thread-panicked", line);
            }
        }
    }
}
