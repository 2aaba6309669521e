//! Real error output of real Python programs, traced through the Python
//! corpus (`corpora.sh python`: requests 2.32.3, urllib3 2.2.3, click
//! 8.1.7, flask 3.1.0), run from exactly those sources. Captured in
//! `fixtures/real-python.log`:
//! - `requests.get` on a closed local port: the chained traceback
//!   (ConnectionRefusedError → urllib3 NewConnectionError → MaxRetryError
//!   → requests ConnectionError), traced layer by layer, with the repr of
//!   the wrapped error (`Caused by NewConnectionError('…')`) unwrapped;
//! - requests with bad URLs, a bad timeout tuple and a bad timeout value;
//! - urllib3's URL parser on a broken IPv6 host;
//! - a click command with a missing argument, a bad integer, a missing
//!   path, a bad choice and an unknown option (click's `self.fail(…)` is
//!   found as a message function; `Invalid value for …: …` wraps it).
//!
//! Python's own messages (`too many values to unpack`, `[Errno 111]
//! Connection refused`) must stay unknown, never pinned to a `raise
//! ValueError` that merely shares the class. Memory addresses and the
//! corpus path were normalised when captured.
//!
//! Skips with a notice when the corpus is missing; fails under CI=true.

mod common;

use common::Ties;

const PACKAGES: &[&str] = &[
    "requests-2.32.3",
    "urllib3-2.2.3",
    "click-8.1.7",
    "flask-3.1.0",
];

#[test]
fn real_python_tracebacks_trace_to_their_sites() {
    let dir = common::corpora().join("python");
    let present = PACKAGES.iter().all(|p| dir.join(p).is_dir());
    if !common::corpus_present(
        present,
        &format!("{}/{PACKAGES:?}", dir.display()),
        "python",
    ) {
        return;
    }
    let ex = common::explainer(PACKAGES.iter().map(|p| dir.join(p)));
    let out = common::check_log(&ex, "python", Ties::Top);
    assert!(out.traced >= 10, "{} real Python lines traced", out.traced);
}
