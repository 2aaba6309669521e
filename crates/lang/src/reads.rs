//! What a guard's text reads: the names and field paths in it, without
//! the calls it makes or the text it quotes.

/// The names and field paths a guard reads (`c.MaxInflightMsgs`, `port`),
/// not the calls it makes.
pub fn guard_names(guard: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = guard.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let starts = (b[i].is_ascii_alphabetic() || b[i] == b'_')
            && (i == 0
                || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'.'));
        if !starts {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
            i += 1;
        }
        let quoted = start > 0 && matches!(b[start - 1], b'"' | b'\'');
        let called = b.get(i) == Some(&b'(');
        if !quoted && !called {
            out.push(guard[start..i].trim_end_matches('.'));
        }
    }
    out
}
