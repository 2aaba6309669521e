//! What text each hole kind accepts: what a formatter prints for the verb.

use errdex_model::HoleKind;

/// Whether `s` is something the formatter could print for a hole of `kind`.
pub fn accepts(kind: HoleKind, s: &str) -> bool {
    let b = s.as_bytes();
    match kind {
        HoleKind::Any => true,
        HoleKind::Int => int_or_list(b),
        HoleKind::Hex => {
            let t = trim_pad(b);
            let t = t
                .strip_prefix(b"0x")
                .or_else(|| t.strip_prefix(b"0X"))
                .unwrap_or(t);
            let t = t.strip_prefix(b"-").unwrap_or(t);
            !t.is_empty() && t.iter().all(|c| c.is_ascii_hexdigit() || *c == b' ')
        }
        HoleKind::Octal => digits_in(trim_pad(b), b"01234567", true),
        HoleKind::Binary => digits_in(trim_pad(b), b"01", true),
        HoleKind::Float => float(trim_pad(b)) || int_or_list(b),
        HoleKind::Bool => {
            let t = trim_pad(b);
            t == b"true" || t == b"false"
        }
        HoleKind::Quoted => quoted(b),
        HoleKind::Char => s.chars().count() == 1,
        HoleKind::Unicode => {
            let t = trim_pad(b);
            t.len() > 2
                && t.starts_with(b"U+")
                && t[2..].iter().take_while(|c| c.is_ascii_hexdigit()).count() >= 4
        }
        HoleKind::Pointer => {
            let t = trim_pad(b);
            t == b"<nil>"
                || (t.len() > 2
                    && t.starts_with(b"0x")
                    && t[2..].iter().all(|c| c.is_ascii_hexdigit()))
        }
        HoleKind::Type => {
            !b.is_empty() && !b.contains(&b' ')
                || b.starts_with(b"struct {")
                || b.starts_with(b"func(")
        }
    }
}

/// Whether a hole of this kind can only ever be short text without spaces,
/// so a match can stop at the first space.
pub fn is_bounded(kind: HoleKind) -> bool {
    !matches!(
        kind,
        HoleKind::Any | HoleKind::Quoted | HoleKind::Int | HoleKind::Type
    )
}

/// Width padding: `%5d` prints leading spaces, `%-5d` trailing ones.
fn trim_pad(b: &[u8]) -> &[u8] {
    let start = b.iter().position(|c| *c != b' ').unwrap_or(b.len());
    let end = b.iter().rposition(|c| *c != b' ').map_or(start, |p| p + 1);
    &b[start..end]
}

fn digits_in(b: &[u8], set: &[u8], signed: bool) -> bool {
    let b = if signed {
        b.strip_prefix(b"-")
            .or_else(|| b.strip_prefix(b"+"))
            .unwrap_or(b)
    } else {
        b
    };
    !b.is_empty() && b.iter().all(|c| set.contains(c))
}

/// `42`, `-7`, `  42`, or a printed slice `[1 2 3]`.
fn int_or_list(b: &[u8]) -> bool {
    let t = trim_pad(b);
    if t.len() >= 2 && t[0] == b'[' && t[t.len() - 1] == b']' {
        let inner = &t[1..t.len() - 1];
        return inner.is_empty()
            || inner
                .split(|c| *c == b' ')
                .all(|p| digits_in(p, b"0123456789", true));
    }
    digits_in(t, b"0123456789", true)
}

fn float(b: &[u8]) -> bool {
    let b = b
        .strip_prefix(b"-")
        .or_else(|| b.strip_prefix(b"+"))
        .unwrap_or(b);
    if matches!(b, b"Inf" | b"NaN" | b"inf" | b"nan") {
        return true;
    }
    let mut i = 0;
    let mut digits = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
        digits += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let s = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == s {
            return false;
        }
    }
    i == b.len()
}

/// A Go-quoted string (`"a\"b"`), a back-quoted one, or a quoted rune.
fn quoted(b: &[u8]) -> bool {
    let b = trim_pad(b);
    if b.len() < 2 {
        return false;
    }
    let (open, close) = (b[0], b[b.len() - 1]);
    if open != close || !matches!(open, b'"' | b'\'' | b'`') {
        return false;
    }
    let inner = &b[1..b.len() - 1];
    if open == b'`' {
        return !inner.contains(&b'`');
    }
    // Every quote inside must be escaped.
    let mut i = 0;
    while i < inner.len() {
        match inner[i] {
            b'\\' => i += 2,
            c if c == open => return false,
            _ => i += 1,
        }
    }
    i == inner.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use HoleKind::*;

    #[test]
    fn each_kind_accepts_what_go_prints() {
        let yes: &[(HoleKind, &str)] = &[
            (Any, ""),
            (Any, "anything: at all"),
            (Int, "42"),
            (Int, "-7"),
            (Int, "   42"),
            (Int, "42   "),
            (Int, "[1 2 3]"),
            (Hex, "ff00"),
            (Hex, "0xDEAD"),
            (Octal, "0755"),
            (Binary, "1010"),
            (Float, "3.14"),
            (Float, " 3.14"),
            (Float, "1e+06"),
            (Float, "2.5E-3"),
            (Float, "+Inf"),
            (Float, "NaN"),
            (Float, "7"),
            (Bool, "true"),
            (Bool, "false"),
            (Quoted, r#""a \"b\" c""#),
            (Quoted, "'x'"),
            (Quoted, "`raw`"),
            (Quoted, r#""""#),
            (Char, "é"),
            (Unicode, "U+1F600"),
            (Pointer, "0xc000012345"),
            (Pointer, "<nil>"),
            (Type, "*errors.errorString"),
            (Type, "map[string]int"),
        ];
        for (k, s) in yes {
            assert!(accepts(*k, s), "{k:?} should accept {s:?}");
        }
        let no: &[(HoleKind, &str)] = &[
            (Int, ""),
            (Int, "4a"),
            (Int, "1.5"),
            (Hex, "xyz"),
            (Octal, "9"),
            (Binary, "102"),
            (Float, "."),
            (Float, "1e"),
            (Bool, "yes"),
            (Quoted, "abc"),
            (Quoted, r#""a"b""#),
            (Char, "ab"),
            (Unicode, "U+1"),
            (Pointer, "0xzz"),
            (Type, "two words"),
        ];
        for (k, s) in no {
            assert!(!accepts(*k, s), "{k:?} should refuse {s:?}");
        }
    }
}
