//! Real error output of a real Ruby program, traced through the Ruby
//! corpus: Debian's rack 2.2.22 and sinatra 3.0.5 gems (`corpora.sh
//! debsrc` installs them; their installed sources are what runs). Captured
//! by `fixtures/real-ruby.sh` into `fixtures/real-ruby.log`, each failure
//! printed as Ruby prints an uncaught error (`x.rb:12:in `m': msg (Class)`
//! and `\tfrom …` lines; the last one is uncaught):
//! - `parse_nested_query` with conflicting params, the key space, the
//!   parameter count and the depth limits;
//! - multipart bodies: empty, shorter than their Content-Length, without
//!   a boundary, with a bad boundary parameter;
//! - `Rack::Lint` on a bad env and a bad response, `Rack::Builder` with no
//!   `run`, `status_code(:bogus)`, a bad SameSite value, `MockRequest` on
//!   a bad URI;
//! - a Sinatra app with an unknown media type, a bad etag kind and an
//!   unknown template engine.
//!
//! Ruby's own messages (`bad URI(is not URI?)`) must stay unknown. A bare
//! `raise EOFError` prints its class as the message and traces to that
//! raise; `raise ParamsTooDeepError` (an alias Ruby prints as
//! `Rack::QueryParser::QueryLimitError`) stays unknown. The line Ruby
//! prints picks which of two equal raises it was (`bad content body`).
//!
//! Skips with a notice when the corpus is missing; fails under CI=true.

mod common;

use common::Ties;
use std::path::{Path, PathBuf};

const GEMS: &str = "/usr/share/rubygems-integration/all/gems";
const PACKAGES: &[&str] = &["rack-2.2.22", "sinatra-3.0.5"];

#[test]
fn real_ruby_errors_trace_to_their_sites() {
    let dirs: Vec<PathBuf> = PACKAGES.iter().map(|p| Path::new(GEMS).join(p)).collect();
    let present = dirs.iter().all(|d| d.join("lib").is_dir());
    if !common::corpus_present(present, &format!("{GEMS}/{PACKAGES:?}"), "debsrc") {
        return;
    }
    let ex = common::explainer(dirs);
    let out = common::check_log(&ex, "ruby", Ties::Top);
    assert!(out.traced >= 10, "{} real Ruby lines traced", out.traced);
}
