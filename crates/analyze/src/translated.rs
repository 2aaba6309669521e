//! What the analysis says of a sentinel that a map of errors translates
//! another error into (`causes[].translatedAt`): which error it stands
//! for, where that one is returned and under what condition, and what
//! the code's comment says of it.

use crate::prose::code;
use errdex_model::Cause;

/// Returning places named, at most.
const MAX_PLACES: usize = 3;

/// The causes that are translated errors.
fn translated(causes: &[Cause]) -> Vec<&Cause> {
    causes
        .iter()
        .filter(|c| c.translated_at.is_some())
        .collect()
}

/// The cause that names the translated error's declaration: its path is
/// the name the map's entry writes (`auth.ErrAuthOldRevision`), where a
/// returning place's is its function.
fn is_declaration(c: &Cause) -> bool {
    c.path.first().is_some_and(|p| {
        let last = p.rsplit('.').next().unwrap_or(p);
        last.strip_prefix("Err")
            .or_else(|| last.strip_prefix("err"))
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
    })
}

/// A sentence for "What it means": the error it stands for.
pub(crate) fn meaning(causes: &[Cause]) -> Option<String> {
    let found = translated(causes);
    let first = found.first()?;
    let mut out = format!(
        "It stands for {}: the map of errors at {} turns that error into this one",
        code(&first.message_pattern),
        first.translated_at.as_deref().unwrap_or_default()
    );
    if let Some(from) = first.path.first().filter(|_| is_declaration(first)) {
        out.push_str(&format!(" (it maps {})", code(from)));
    }
    out.push('.');
    if let Some(comment) = first.comment.as_deref() {
        out.push_str(&format!(
            " The code says of {}: “{}.”",
            code(&first.message_pattern),
            comment.trim_end_matches('.')
        ));
    }
    Some(out)
}

/// A sentence for "When it happens": where the translated error is
/// returned, with the condition above each return.
pub(crate) fn trigger(causes: &[Cause]) -> Option<String> {
    let found = translated(causes);
    let first = found.first()?;
    let places: Vec<String> = found
        .iter()
        .filter(|c| !is_declaration(c))
        .take(MAX_PLACES)
        .map(|c| {
            let when = c
                .when
                .as_deref()
                .map_or(String::new(), |w| format!(", when {}", code(w)));
            let func = c
                .path
                .first()
                .map_or(String::new(), |f| format!(" in {}", code(f)));
            format!("{}:{}{func}{when}", c.file_path, c.line_number)
        })
        .collect();
    if places.is_empty() {
        return Some(format!(
            "It is answered wherever {} is returned.",
            code(&first.message_pattern)
        ));
    }
    Some(format!(
        "It is answered where {} is returned: {}.",
        code(&first.message_pattern),
        places.join("; ")
    ))
}

/// A step that looks into the translated error where it is returned.
pub(crate) fn solution(causes: &[Cause]) -> Option<String> {
    let found = translated(causes);
    let first = found.first()?;
    Some(format!(
        "Look up {} (the error this one stands for) and fix what makes the code return it{}.",
        code(&first.message_pattern),
        match found
            .iter()
            .filter(|c| !is_declaration(c))
            .find_map(|c| c.when.as_deref())
        {
            Some(w) => format!(", for example {}", code(w)),
            None => String::new(),
        }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cause(path: &str, line: u32, when: Option<&str>, comment: Option<&str>) -> Cause {
        Cause {
            message_pattern: "store: no such key".into(),
            record_id: Some("0123456789abcdef".into()),
            knowledge: None,
            file_path: "store/store.go".into(),
            line_number: line,
            path: vec![path.into()],
            values: vec![],
            when: when.map(str::to_string),
            comment: comment.map(str::to_string),
            translated_at: Some("rpc/errors.go:16".into()),
        }
    }

    #[test]
    fn a_translated_error_is_named_with_where_it_is_returned() {
        let causes = vec![
            cause(
                "store.ErrMissing",
                6,
                None,
                Some("ErrMissing is returned when a key is not stored."),
            ),
            cause("Get", 10, Some("key == \"\""), None),
        ];
        assert_eq!(
            meaning(&causes).unwrap(),
            "It stands for `store: no such key`: the map of errors at rpc/errors.go:16 turns that error into this one (it maps `store.ErrMissing`). The code says of `store: no such key`: “ErrMissing is returned when a key is not stored.”"
        );
        assert_eq!(
            trigger(&causes).unwrap(),
            "It is answered where `store: no such key` is returned: store/store.go:10 in `Get`, when `key == \"\"`."
        );
        assert!(solution(&causes)
            .unwrap()
            .contains("for example `key == \"\"`"));
        // Causes of another kind say nothing here.
        let mut plain = causes[1].clone();
        plain.translated_at = None;
        assert_eq!(meaning(&[plain]), None);
    }
}
