//! Go's functional options: `func WithMinModRev(rev int64) OpOption {
//! return func(op *Op) { op.minModRev = rev } }` sets the field
//! `minModRev`. A guard that refuses or needs that field
//! (`ret.minModRev != 0`) is about the option a caller passes. Read from
//! the text, like struct tags: option functions hold no error site, so
//! the prefilter skips them.

/// A field an option function sets: `(field, option)`.
pub type OptionSetter = (String, String);

/// The fields each option function of `source` sets. An option function
/// returns a type whose name holds `Option` (`OpOption`, `grpc.DialOption`)
/// and, in its body, a closure over a pointer (`func(op *Op)`) that
/// assigns the pointer's fields.
pub(crate) fn option_setters(source: &str) -> Vec<OptionSetter> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = next_func(source, from) {
        from = at + 5;
        let Some((name, body)) = option_function(&source[at..]) else {
            continue;
        };
        for field in closure_fields(body) {
            let setter = (field.to_string(), name.to_string());
            if !out.contains(&setter) {
                out.push(setter);
            }
        }
    }
    out
}

/// The next `func ` that starts a line, at or after `from`.
fn next_func(source: &str, from: usize) -> Option<usize> {
    let mut at = from;
    loop {
        let found = at + source.get(at..)?.find("func ")?;
        if found == 0 || source.as_bytes()[found - 1] == b'\n' {
            return Some(found);
        }
        at = found + 5;
    }
}

/// The name and body of the function `text` starts with, when its result
/// type is an option.
fn option_function(text: &str) -> Option<(&str, &str)> {
    let head_end = text.find('{')?;
    let head = &text[5..head_end];
    // A method's receiver comes first.
    let head = match head.strip_prefix('(') {
        Some(rest) => rest.split_once(')')?.1.trim_start(),
        None => head,
    };
    let name_end = head.find('(')?;
    let name = head[..name_end].trim();
    let params_end = matching(&head[name_end..], '(', ')')? + name_end;
    let result = head[params_end + 1..].trim();
    if !result.contains("Option") || name.is_empty() {
        return None;
    }
    let body_len = matching(&text[head_end..], '{', '}')?;
    Some((name, &text[head_end..head_end + body_len]))
}

/// The offset of the bracket that closes the one `text` starts with.
fn matching(text: &str, open: char, close: char) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth = depth.checked_sub(1)?;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// The fields a closure over a pointer (`func(op *Op) {`) assigns in
/// `body`: `op.minModRev = rev`, `op.key, op.end = …`.
fn closure_fields(body: &str) -> Vec<&str> {
    let Some(at) = body.find("func(") else {
        return Vec::new();
    };
    let param = body[at + 5..]
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .next()
        .unwrap_or_default();
    if param.is_empty() || !body[at + 5 + param.len()..].trim_start().starts_with('*') {
        return Vec::new();
    }
    let prefix = format!("{param}.");
    let mut out = Vec::new();
    for line in body[at..].lines() {
        let Some((lhs, _)) = assignment(line) else {
            continue;
        };
        for target in lhs.split(',') {
            if let Some(field) = target.trim().strip_prefix(prefix.as_str()) {
                if !field.is_empty() && field.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    out.push(field);
                }
            }
        }
    }
    out
}

/// The two sides of an assignment statement on `line` (`=`, `+=`, not
/// `==`, `!=`, `<=`, `>=`, `:=`).
fn assignment(line: &str) -> Option<(&str, &str)> {
    let b = line.as_bytes();
    let at = (0..b.len()).find(|&i| {
        b[i] == b'='
            && b.get(i + 1) != Some(&b'=')
            && (i == 0 || !matches!(b[i - 1], b'=' | b'!' | b'<' | b'>' | b':'))
    })?;
    let lhs = line[..at].trim_end_matches(['+', '-', '|', '&', '*', '/']);
    // The last statement on the line (`{ op.x = v }`).
    let lhs = lhs.rsplit(['{', ';']).next()?.trim();
    Some((lhs, &line[at + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owned(pairs: &[(&str, &str)]) -> Vec<OptionSetter> {
        pairs
            .iter()
            .map(|(f, o)| (f.to_string(), o.to_string()))
            .collect()
    }

    #[test]
    fn option_functions_say_which_fields_they_set() {
        let source = r#"package kv

type Op struct {
	rev       int64
	key, end  []byte
	minModRev int64
}

type OpOption func(*Op)

// WithRev reads at a revision.
func WithRev(rev int64) OpOption { return func(op *Op) { op.rev = rev } }

// WithPrefix reads every key with the prefix.
func WithPrefix() OpOption {
	return func(op *Op) {
		if len(op.key) == 0 {
			op.key, op.end = []byte{0}, []byte{0}
			return
		}
		op.end = prefixEnd(op.key)
	}
}

func (s *Server) WithLimit(n int) ServerOption {
	return func(o *options) { o.limit += n }
}

// Not an option: its result is no option type.
func clamp(op *Op) int64 { op.rev = 0; return op.rev }

func prefixEnd(key []byte) []byte { return key }
"#;
        assert_eq!(
            option_setters(source),
            owned(&[
                ("rev", "WithRev"),
                ("key", "WithPrefix"),
                ("end", "WithPrefix"),
                ("limit", "WithLimit"),
            ])
        );
    }
}
