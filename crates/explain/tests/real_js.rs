//! Real error output of real Node.js programs, traced through the JS
//! corpus (`corpora.sh js`: express 4.21.2 and axios 1.7.9, the npm
//! tarballs), run from exactly those sources with Node 20. Captured by
//! `fixtures/real-js.sh` into `fixtures/real-js.log`:
//! - express set-up mistakes thrown uncaught (Node's `file.js:217`, source
//!   and caret lines above the error, frames under it): `app.use()`
//!   without a function, a route without a handler, a bad etag setting, a
//!   bundled-middleware getter, a bad `app.param`;
//! - express errors while serving, as its final handler prints their
//!   stacks (`res.sendFile` with a relative path, `res.render` without an
//!   engine or view, a bad Content-Type, signed cookies without a secret,
//!   `req.get()`), and depd deprecations (`<date> express deprecated … at
//!   file:line:col`);
//! - axios requests (imported as an ES module, so its frames are in
//!   `lib/`, not the bundles in `dist/`, which the corpus also holds): a
//!   404, maxContentLength, maxBodyLength, a bad timeout, an unsupported
//!   protocol, an unknown adapter, a bad option, a bad header name.
//!
//! Frames under `node_modules/axios/` hint `lib/…` in the axios corpus, so
//! the site in `lib/` is chosen over its copies in `dist/`. Text from
//! outside the corpus must stay unknown: Node's (`connect ECONNREFUSED`,
//! `Invalid URL`, V8's JSON `SyntaxError`, `Node.js v20…`), serve-static's
//! `root path required` and follow-redirects' `Maximum number of
//! redirects exceeded`. Absolute paths were normalised to `/app`.
//!
//! Skips with a notice when the corpus is missing; fails under CI=true.

mod common;

use common::Ties;

const PACKAGES: &[&str] = &["express", "axios"];

#[test]
fn real_node_errors_trace_to_their_sites() {
    let dir = common::corpora().join("js");
    let present = PACKAGES.iter().all(|p| dir.join(p).is_dir());
    if !common::corpus_present(present, &format!("{}/{PACKAGES:?}", dir.display()), "js") {
        return;
    }
    let ex = common::explainer(PACKAGES.iter().map(|p| dir.join(p)));
    let out = common::check_log(&ex, "js", Ties::Top);
    assert!(out.traced >= 10, "{} real Node.js lines traced", out.traced);
}
