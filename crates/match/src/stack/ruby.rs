//! Ruby: `/gems/rack/lib/rack/utils.rb:633:in `status_code': msg
//! (ArgumentError)` (Ruby 3.4 quotes `'Rack::Utils.status_code'`): the
//! message without its class, the line's own location as its first
//! hint, then the `\tfrom x.rb:12:in `m'` lines below it, and `\t ...
//! 92 levels...`.

use super::{find_byte, first_space, suffix_path, Block, Line, Role, StackLine, StackReader};

/// Ruby's lines need no state: a message names its own location, and
/// its frames follow it.
#[derive(Default)]
pub(super) struct Ruby;

impl StackReader for Ruby {
    #[inline]
    fn open(&self) -> bool {
        false
    }

    fn read(&mut self, line: &Line<'_>, block: &mut Block<'_, '_>) -> bool {
        if let Some(s) = ruby_message(line.text) {
            block.message(s);
            return true;
        }
        let t = line.trimmed;
        if !line.marked {
            return false;
        }
        if t.starts_with("... ") && t.ends_with(" levels...") {
            block.other(Role::Frame);
            return true;
        }
        if let Some(frame) = ruby_frame(t) {
            block.frame_after(frame);
            return true;
        }
        false
    }
}

/// `path.rb:12:in `meth'` (or `in 'meth'`, Ruby 3.4): the location and
/// the rest of the line after the method's closing quote.
fn ruby_location(t: &str) -> Option<(String, u32, &str)> {
    // The first `:in `` if the line has one, else the first `:in '`. The
    // location before it has no space, so it is looked for before the
    // line's first space only: every line of a log is asked.
    let b = t.as_bytes();
    let head = &b[..first_space(b).map_or(b.len(), |sp| sp + 1)];
    // Most lines' first word has no colon at all.
    find_byte(head, b':')?;
    let (mut tick, mut quote) = (None, None);
    for i in (0..head.len()).filter(|&i| head[i] == b':') {
        if b[i + 1..].starts_with(b"in ") {
            match b.get(i + 4) {
                Some(b'`') => {
                    tick = Some(i);
                    break;
                }
                Some(b'\'') if quote.is_none() => quote = Some(i),
                _ => {}
            }
        }
    }
    let i = match (tick, quote) {
        (Some(i), _) => i,
        // A `:in `` further on would have been the one taken, and failed.
        (None, Some(i)) if memchr::memmem::find(&b[head.len()..], b":in `").is_none() => i,
        _ => return None,
    };
    let (loc, rest) = (&t[..i], &t[i + 5..]);
    let (path, line) = loc.rsplit_once(':')?;
    if path.is_empty() || path.contains(' ') || !line.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let line: u32 = line.parse().ok()?;
    let close = rest.find('\'')?;
    Some((suffix_path(path), line, &rest[close + 1..]))
}

/// Ruby's uncaught error: `path.rb:12:in `meth': msg (Class)`.
pub(super) fn ruby_message(line: &str) -> Option<StackLine> {
    let (path, n, rest) = ruby_location(line)?;
    let msg = rest.strip_prefix(": ")?;
    let start = line.len() - msg.len();
    let mut s = StackLine::message(start, None);
    // ` (Rack::Lint::LintError)` after the (first line of the) message.
    if let Some(open) = msg.strip_suffix(')').and_then(|m| m.rfind(" (")) {
        let class = &msg[open + 2..msg.len() - 1];
        let plausible = class.starts_with(|c: char| c.is_ascii_uppercase())
            && class
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b':' || c == b'_');
        if plausible {
            s.class = Some(class.to_string());
            s.end = Some(start + open);
        }
    }
    s.hints.files.push(path);
    s.hints.line = Some(n);
    Some(s)
}

/// `from path.rb:12:in `meth'`.
fn ruby_frame(t: &str) -> Option<(String, u32)> {
    let (path, line, rest) = ruby_location(t.strip_prefix("from ")?)?;
    rest.is_empty().then_some((path, line))
}
