//! Ties settled by a structured line's keys. A structured logger writes
//! every field its call sets (`SiteFacts::fields`): etcd's two `rejected
//! connection` warnings differ in `ip-addresses` and `dns-names`, so a
//! JSON line without those keys came from the call that does not set
//! them.

use super::{tied_count, CandidateOut, Explanation, FrameOut};

/// The tied candidate of `f` whose structured fields (`fields` gives a
/// site's keys, one a line) are all keys of the line and cover the most
/// of them, when the line is JSON or logfmt and one candidate alone does.
pub(super) fn keyed_by_line<'g>(
    e: &Explanation,
    f: &FrameOut,
    fields: &dyn Fn(u32) -> &'g str,
) -> Option<usize> {
    let keys = line_keys(e.input.trim())?;
    let tied = &f.candidates[..tied_count(f)];
    let fits = |c: &CandidateOut| {
        let set: Vec<&str> = fields(c.site).lines().collect();
        set.iter().all(|k| keys.contains(k)).then_some(set.len())
    };
    let mut scored: Vec<(usize, usize)> = tied
        .iter()
        .enumerate()
        .filter_map(|(i, c)| fits(c).map(|n| (n, i)))
        .collect();
    scored.sort_unstable_by(|a, b| b.cmp(a));
    match scored[..] {
        [(_, best)] => Some(best),
        [(n, best), (m, _), ..] if n > m => Some(best),
        _ => None,
    }
}

/// The keys of a JSON object line (`{"level":"warn","msg":…}`, top-level
/// keys only) or of a logfmt line (`level=warn msg="…" error=…`); `None`
/// for a line of neither shape.
fn line_keys(line: &str) -> Option<Vec<&str>> {
    if line.starts_with('{') {
        return Some(json_keys(line));
    }
    let keys = logfmt_keys(line);
    (keys.len() >= 2).then_some(keys)
}

/// The top-level keys of a JSON object, read without a parser: a string
/// followed by `:` at depth one.
fn json_keys(line: &str) -> Vec<&str> {
    let b = line.as_bytes();
    let (mut keys, mut depth, mut i) = (Vec::new(), 0usize, 0usize);
    while i < b.len() {
        match b[i] {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                let end = i.min(b.len());
                let colon = line[end..]
                    .trim_start_matches('"')
                    .trim_start()
                    .starts_with(':');
                if depth == 1 && colon {
                    keys.push(&line[start..end]);
                }
            }
            _ => {}
        }
        i += 1;
    }
    keys
}

/// The keys of `key=value` pairs outside quotes.
fn logfmt_keys(line: &str) -> Vec<&str> {
    let mut keys = Vec::new();
    let mut quoted = false;
    let mut word_start = 0;
    let b = line.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'"' if i == 0 || b[i - 1] != b'\\' => quoted = !quoted,
            b' ' if !quoted => word_start = i + 1,
            b'=' if !quoted && i > word_start => {
                let key = &line[word_start..i];
                if key
                    .bytes()
                    .all(|k| k.is_ascii_alphanumeric() || b"_-.".contains(&k))
                {
                    keys.push(key);
                }
            }
            _ => {}
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_json_and_logfmt_lines() {
        assert_eq!(
            json_keys(r#"{"level":"warn","msg":"a \"b\": c","n":{"x":1},"error":"e"}"#),
            ["level", "msg", "n", "error"]
        );
        assert_eq!(
            logfmt_keys(r#"time="t" level=info msg="a b=c" error="x""#),
            ["time", "level", "msg", "error"]
        );
        assert_eq!(line_keys("W | etcdserver: a=b went wrong"), None);
    }
}
