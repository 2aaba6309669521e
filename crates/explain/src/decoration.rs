//! What a person or a terminal put around a line that no program
//! printed: Markdown marks, colour codes, doubled spaces. Each is read
//! away only where the line as printed does not trace.

/// Where the text of a line pasted as Markdown starts and ends: wrapped
/// whole in a code span (`` `ValueError: x` ``) or in bold
/// (`**ValueError: x**`), the marks no program printed.
pub(crate) fn markdown_inner(line: &str) -> Option<(usize, usize)> {
    let lead = line.len() - line.trim_start().len();
    let body = line[lead..].trim_end();
    ["`", "**"].iter().find_map(|m| {
        let inner = body.strip_prefix(m)?.strip_suffix(m)?;
        // `*** FATAL ERROR ***` is a banner, not bold.
        let edge = [' ', m.as_bytes()[0] as char];
        (inner.len() > 1
            && !inner.contains(m)
            && !inner.starts_with(edge)
            && !inner.ends_with(edge))
        .then(|| (lead + m.len(), lead + m.len() + inner.len()))
    })
}

/// The line without its ANSI escape sequences (`\x1b[33m`, `\x1b[0m`),
/// when it has any.
pub(crate) fn without_colours(line: &str) -> Option<String> {
    memchr::memchr(0x1b, line.as_bytes())?;
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find('\x1b') {
        out.push_str(&rest[..i]);
        let seq = &rest[i + 1..];
        // CSI: `[`, parameters and intermediates, one final byte.
        let skip = match seq.strip_prefix('[') {
            Some(csi) => csi
                .bytes()
                .position(|c| (0x40..=0x7e).contains(&c))
                .map_or(seq.len(), |p| p + 2),
            None => 0,
        };
        rest = &seq[skip..];
    }
    out.push_str(rest);
    Some(out)
}

/// The line with each run of spaces inside it (after its first word) as
/// one space, when it has such a run: a pasted or reflowed report doubles
/// spaces (`host '...'.  Adding certificate …`) that no format wrote.
/// Read only where the line as printed does not trace (a template may
/// hold two spaces itself), so its offsets are in this text.
pub(crate) fn single_spaced(line: &str) -> Option<String> {
    let lead = line.len() - line.trim_start_matches(' ').len();
    let body = line[lead..].trim_end_matches(' ');
    let b = body.as_bytes();
    // Looked for in every line that does not trace: a byte scan, not a
    // substring search and its setup.
    let doubled = memchr::memchr_iter(b' ', b).any(|i| b.get(i + 1) == Some(&b' '));
    doubled.then(|| {
        let mut out = String::with_capacity(line.len());
        out.push_str(&line[..lead]);
        let mut last_space = false;
        for c in body.chars() {
            if !(c == ' ' && last_space) {
                out.push(c);
            }
            last_space = c == ' ';
        }
        out
    })
}
