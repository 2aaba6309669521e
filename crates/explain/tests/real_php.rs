//! Real errors of real PHP code, traced through Debian's PHP libraries
//! (`corpora.sh debsrc`: php-guzzlehttp-psr7 2.4.5 in
//! /usr/share/php/GuzzleHttp, php-monolog 2.9.1 in /usr/share/php/Monolog),
//! run by PHP 8.2's CLI from exactly those files (`fixtures/real-php.sh`,
//! `fixtures/real-php/main.php`). Captured in `fixtures/real-php.log`:
//! - caught and printed as `Class: message`: PSR-7 URIs with a bad port, an
//!   unparsable URI, a colon in a relative path, a bad status code, an
//!   empty method, a bad header name, bad stream resources, seeking
//!   unseekable streams, a garbage response, a multipart element without
//!   contents, fopen failures; Monolog with an unwritable stream, an
//!   unknown level, an empty handler stack, bad rotating-file formats, a
//!   bad uid length, a negative socket timeout, a closed socket port, a
//!   missing registry logger, an unknown syslog facility;
//! - left uncaught, as PHP prints them: `PHP Fatal error:  Uncaught X: msg
//!   in /path/F.php:12`, `Stack trace:`, `#0 …` frames, and `Next X: msg`
//!   for an exception raised from the one above (Uri::fromParts wrapping
//!   filterPort's error, HttpFactory wrapping Utils::tryFopen's); Monolog's
//!   message runs over two lines.
//!
//! PHP's own text (`fopen(…): Failed to open stream: …`, a TypeError, the
//! OS's `Connection refused`) must stay unknown or unmatched, never pinned
//! to a site that merely shares words. The fixture's folder was normalised
//! to /app when captured.
//!
//! Skips with a notice when the corpus is missing; fails under CI=true.

mod common;

use common::Ties;

const PACKAGES: &[&str] = &["GuzzleHttp", "Monolog"];

#[test]
fn real_php_errors_trace_to_their_sites() {
    let dir = std::path::PathBuf::from("/usr/share/php");
    let present = PACKAGES.iter().all(|p| dir.join(p).is_dir());
    if !common::corpus_present(
        present,
        &format!("{}/{PACKAGES:?}", dir.display()),
        "debsrc",
    ) {
        return;
    }
    let ex = common::explainer(PACKAGES.iter().map(|p| dir.join(p)));
    let out = common::check_log(&ex, "php", Ties::All);
    assert!(out.traced >= 10, "{} real PHP lines traced", out.traced);
}
