//! `style`: Go's ST1005 and Rust's conventions for error strings.

use super::*;

/// Proper nouns error strings may start with.
const PROPER_NOUNS: &[&str] = &[
    "Go",
    "Linux",
    "Windows",
    "Darwin",
    "Unix",
    "Docker",
    "Kubernetes",
    "Google",
    "Amazon",
    "Azure",
    "GitHub",
    "GitLab",
    "Git",
    "Mac",
    "Android",
    "Apple",
    "Microsoft",
    "Python",
    "Java",
    "Rust",
    "OpenSSL",
    "Postgres",
    "PostgreSQL",
    "MySQL",
    "Redis",
    "Etcd",
    "Raft",
    "Kafka",
    "Consul",
    "Vault",
    "Prometheus",
    "Helm",
    "Terraform",
    "I",
];

pub(super) fn style(
    r: &Record,
    sites: &[&Site],
    declared: &dyn Fn(&str, &str) -> bool,
    out: &mut Vec<Finding>,
) {
    for s in sites {
        let Some(why) = style_problem(r, s) else {
            continue;
        };
        let first = r
            .message_pattern
            .split([' ', ':', ',', '.'])
            .next()
            .unwrap_or("");
        if why.starts_with("starts") && declared(&s.file_path, first) {
            continue; // a name of the code, as written there
        }
        out.push(finding(
            "style",
            &s.file_path,
            s.line_number,
            format!("error string `{}` {why}", r.message_pattern),
        ));
    }
}

/// What breaks the convention, for the error values of Go (`errors.New`,
/// `fmt.Errorf`: staticcheck ST1005) and Rust.
fn style_problem(r: &Record, s: &Site) -> Option<&'static str> {
    let applies = match r.language {
        Lang::Go => matches!(s.callee.as_str(), "errors.New" | "fmt.Errorf"),
        Lang::Rust => s.error_type == ErrorType::Exception,
        _ => false,
    };
    if !applies {
        return None;
    }
    let t = template(r, s);
    let first = match t.segments.first() {
        Some(Segment::Lit(l)) => l.as_str(),
        _ => "",
    };
    let last = match t.segments.last() {
        Some(Segment::Lit(l)) => l.as_str(),
        _ => "",
    };
    if capitalised(first) {
        return Some("starts with a capital letter; error strings are composed into longer messages, so start in lower case (unless with a proper noun or an acronym)");
    }
    if last.ends_with(['.', ':', '!', '\n']) && !last.ends_with("...") {
        return Some("ends with punctuation or a newline; error strings are composed into longer messages, so end without");
    }
    None
}

/// A first word in capitals that is not an acronym, an identifier or a
/// proper noun.
fn capitalised(text: &str) -> bool {
    let word = text.split_whitespace().next().unwrap_or("");
    let word = word.trim_end_matches([':', ',', ';']);
    let mut chars = word.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    first.is_uppercase()
        && chars.clone().count() > 0
        && chars.all(|c| c.is_lowercase())
        && !PROPER_NOUNS.contains(&word)
}
