//! Real error output of Debian bookworm's OpenSSH client 9.2p1
//! (openssh-client: `ssh`, `scp`, `ssh-keygen`, `ssh-add`) and nginx
//! 1.22.1, both built from exactly the sources `corpora.sh debsrc`
//! unpacks, captured by `fixtures/real-c.sh` into `fixtures/real-c.log`:
//! - `ssh` against a closed local port, an unresolvable name, a blackhole
//!   address, with bad options (`-p`, `-c`, `-m`, `-L`/`-R`/`-D`/`-W`,
//!   `-e`, `-J`, `-Q`, `-o …`), a missing identity file, a bad `-b`
//!   address and a broken `-F` config file; `scp` to a closed port;
//!   `ssh-keygen` with missing files and bad key types; `ssh-add` with no
//!   agent;
//! - `nginx -t` with broken configurations (unknown directive, bad values,
//!   a missing `;`, a stray `}`, an unknown variable, a duplicate block, a
//!   bad listen port, an unresolvable upstream, a missing include) and bad
//!   options, both as nginx prints them on stderr (`nginx: [emerg] …`) and
//!   as its error log has them (`… [emerg] pid#tid: …`).
//!
//! Each expected line names, besides the top candidate of each frame, the
//! site read by hand from the sources as the one that printed it
//! (`sites`): it must be among the frame's candidates. Where the same text
//! sits at several sites (`Bad port '%s'` in ssh and ssh-keyscan, nginx's
//! two `unexpected "}"`, its `%s in upstream "%V"` in several modules) the
//! verdict is `ambiguous` and the top candidate may be another one; at
//! least ten lines must have the right site on top. Text from outside the
//! sources (strerror, getaddrinfo) stays unmatched, and messages without
//! literal text (ssh-keygen's `fatal("%s: %s", path, strerror(errno))`)
//! stay unknown.
//!
//! Skips with a notice when the corpus is missing; fails under CI=true.

mod common;

use common::Ties;

const PACKAGES: &[&str] = &["openssh", "nginx"];

#[test]
fn real_c_lines_trace_to_their_sites() {
    let dir = common::corpora().join("debsrc");
    let present = PACKAGES.iter().all(|p| dir.join(p).is_dir());
    if !common::corpus_present(
        present,
        &format!("{}/{PACKAGES:?}", dir.display()),
        "debsrc",
    ) {
        return;
    }
    let ex = common::explainer(PACKAGES.iter().map(|p| dir.join(p)));
    let out = common::check_log(&ex, "c", Ties::Top);
    assert!(out.traced >= 10, "{} real C lines traced", out.traced);
    assert!(
        out.right_on_top >= 10,
        "{} real C lines with the right site on top",
        out.right_on_top
    );
}
