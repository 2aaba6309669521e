//! Never fabricate: an answer becomes a record's analysis only when every
//! field is present and sane, code parses in the record's language, the
//! enumerations hold allowed values, and every URL and file path it
//! mentions is one the facts contain.

use errdex_analyze::{Analysis, STRATEGIES};
use errdex_model::{Lang, Severity};
use serde_json::Value;

/// Longest prose field, in characters.
const MAX_PROSE: usize = 2_000;
/// Longest list item.
const MAX_ITEM: usize = 500;
/// Longest code field.
const MAX_CODE: usize = 3_000;

/// Whether `code` parses in `lang` without syntax errors.
pub fn parses(lang: Lang, code: &str) -> bool {
    let language = errdex_lang::language(lang).grammar();
    let mut p = tree_sitter::Parser::new();
    if p.set_language(&language).is_err() {
        return false;
    }
    // A snippet is a file of statements: it ends with a line end.
    let code = format!("{}\n", code.trim_end());
    p.parse(&code, None)
        .is_some_and(|t| !t.root_node().has_error())
}

fn text<'a>(v: &'a Value, field: &str, max: usize, problems: &mut Vec<String>) -> &'a str {
    match v[field].as_str().map(str::trim) {
        Some(s) if !s.is_empty() && s.chars().count() <= max => s,
        Some(s) if !s.is_empty() => {
            problems.push(format!("{field} is longer than {max} characters"));
            ""
        }
        _ => {
            problems.push(format!("{field} is missing or empty"));
            ""
        }
    }
}

fn list(v: &Value, field: &str, min: usize, max: usize, problems: &mut Vec<String>) -> Vec<String> {
    let Some(items) = v[field].as_array() else {
        problems.push(format!("{field} is not a list"));
        return Vec::new();
    };
    let out: Vec<String> = items
        .iter()
        .filter_map(|i| i.as_str().map(|s| s.trim().to_string()))
        .filter(|s| !s.is_empty())
        .collect();
    if out.len() != items.len() {
        problems.push(format!("{field} holds empty or non-text items"));
    }
    if !(min..=max).contains(&out.len()) {
        problems.push(format!("{field} has {} items, not {min}-{max}", out.len()));
    }
    if out.iter().any(|s| s.chars().count() > MAX_ITEM) {
        problems.push(format!(
            "{field} has an item longer than {MAX_ITEM} characters"
        ));
    }
    out
}

fn code(v: &Value, field: &str, lang: Lang, problems: &mut Vec<String>) -> Option<String> {
    match &v[field] {
        Value::Null => None,
        Value::String(s) if s.trim().is_empty() => None,
        Value::String(s) => {
            let s = strip_fence(s);
            if s.chars().count() > MAX_CODE {
                problems.push(format!("{field} is longer than {MAX_CODE} characters"));
            } else if !parses(lang, &s) {
                problems.push(format!("{field} does not parse as {}", lang.as_str()));
            }
            Some(s)
        }
        _ => {
            problems.push(format!("{field} is neither code nor null"));
            None
        }
    }
}

/// Code inside a Markdown fence, without the fence.
fn strip_fence(s: &str) -> String {
    let t = s.trim();
    if let Some(rest) = t.strip_prefix("```") {
        let body = rest.split_once('\n').map_or("", |(_, b)| b);
        return body
            .trim_end()
            .trim_end_matches("```")
            .trim_end()
            .to_string();
    }
    t.to_string()
}

fn is_kebab(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 40
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
        && !s.ends_with('-')
}

/// URLs and file paths (`dir/file.go`, `file.go:12`) mentioned in `s`.
fn references(s: &str) -> Vec<&str> {
    s.split(|c: char| c.is_whitespace() || "`'\"()[]<>,;".contains(c))
        .map(|w| w.trim_end_matches(['.', ':', '!', '?']))
        .filter(|w| {
            w.starts_with("http://")
                || w.starts_with("https://")
                || (w.contains('/')
                    && w.rsplit('/')
                        .next()
                        .is_some_and(|f| f.contains('.') && f.chars().any(|c| c.is_alphabetic())))
        })
        .collect()
}

/// Checks one record's answer; the analysis, or every problem found.
pub fn validate(v: &Value, lang: Lang, facts_text: &str) -> Result<Analysis, Vec<String>> {
    let mut p = Vec::new();
    if !v.is_object() {
        return Err(vec!["the answer for the record is not an object".into()]);
    }
    let documentation = text(v, "documentation", MAX_PROSE, &mut p).to_string();
    let trigger_scenarios = text(v, "triggerScenarios", MAX_PROSE, &mut p).to_string();
    let common_situations = text(v, "commonSituations", MAX_PROSE, &mut p).to_string();
    let solutions = list(v, "solutions", 1, 8, &mut p);
    let prevention_tips = list(v, "preventionTips", 1, 8, &mut p);
    let tags = list(v, "tags", 1, 12, &mut p);
    if tags.iter().any(|t| !is_kebab(t)) {
        p.push("tags must be lowercase-kebab-case".into());
    }
    let background_tag = text(v, "backgroundTag", 40, &mut p).to_string();
    if !background_tag.is_empty() && !is_kebab(&background_tag) {
        p.push("backgroundTag must be one lowercase-kebab-case slug".into());
    }
    let handling_strategy = text(v, "handlingStrategy", 20, &mut p).to_string();
    if !handling_strategy.is_empty() && !STRATEGIES.contains(&handling_strategy.as_str()) {
        p.push(format!(
            "handlingStrategy {handling_strategy:?} is not one of {STRATEGIES:?}"
        ));
    }
    let severity = match serde_json::from_value::<Severity>(v["severity"].clone()) {
        Ok(s) => s,
        Err(_) => {
            p.push(format!(
                "severity {} is not critical, error, warning, info or debug",
                v["severity"]
            ));
            Severity::Error
        }
    };
    let example_fix = code(v, "exampleFix", lang, &mut p);
    let validation_code = code(v, "validationCode", lang, &mut p);
    let type_guard = code(v, "typeGuard", lang, &mut p);
    let try_catch_pattern = code(v, "tryCatchPattern", lang, &mut p);

    let mut all: Vec<&str> = vec![&documentation, &trigger_scenarios, &common_situations];
    all.extend(solutions.iter().map(String::as_str));
    all.extend(prevention_tips.iter().map(String::as_str));
    for c in [
        &example_fix,
        &validation_code,
        &type_guard,
        &try_catch_pattern,
    ]
    .into_iter()
    .flatten()
    {
        all.push(c);
    }
    for s in all {
        for r in references(s) {
            let path = r.split(':').next().unwrap_or(r);
            let known = if r.starts_with("http") {
                facts_text.contains(r)
            } else {
                facts_text.contains(path)
            };
            if !known {
                p.push(format!("mentions {r:?}, which is not in the facts"));
            }
        }
    }
    if !p.is_empty() {
        p.sort();
        p.dedup();
        return Err(p);
    }
    Ok(Analysis {
        documentation,
        trigger_scenarios,
        common_situations,
        solutions,
        example_fix,
        handling_strategy,
        validation_code,
        type_guard,
        try_catch_pattern,
        prevention_tips,
        tags,
        background_tag,
        severity,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn good() -> Value {
        json!({
            "documentation": "runLoop returns this when serveReadiness fails.",
            "triggerScenarios": "serveReadiness returns an error.",
            "commonSituations": "At start-up.",
            "solutions": ["Read the wrapped error.", "See channels/pkg/cmd/apply_channel.go:130."],
            "exampleFix": null,
            "handlingStrategy": "try-catch",
            "validationCode": null,
            "typeGuard": "if errors.Is(err, ErrX) {\n\treturn nil\n}",
            "tryCatchPattern": "```go\nif err := run(); err != nil {\n\treturn err\n}\n```",
            "preventionTips": ["Watch the probe."],
            "tags": ["readiness-probe"],
            "backgroundTag": "operation-failed",
            "severity": "error"
        })
    }

    const FACTS: &str = r#"{"filePath":"channels/pkg/cmd/apply_channel.go"}"#;

    #[test]
    fn a_good_answer_passes_with_fences_removed() {
        let a = validate(&good(), Lang::Go, FACTS).unwrap();
        assert!(a.try_catch_pattern.unwrap().starts_with("if err := run()"));
        assert_eq!(a.severity, Severity::Error);
    }

    #[test]
    fn each_kind_of_fabrication_is_caught() {
        let cases: Vec<(&str, Value, &str)> = vec![
            ("documentation", json!(""), "documentation is missing"),
            ("severity", json!("fatal"), "severity"),
            ("handlingStrategy", json!("pray"), "handlingStrategy"),
            ("tags", json!(["Not Kebab"]), "kebab"),
            ("solutions", json!([]), "solutions has 0 items"),
            (
                "typeGuard",
                json!("if errors.Is(err, { {"),
                "typeGuard does not parse",
            ),
            (
                "documentation",
                json!("See https://example.com/fix for details."),
                "https://example.com/fix",
            ),
            (
                "commonSituations",
                json!("Edit deploy/values.yaml first."),
                "deploy/values.yaml",
            ),
        ];
        for (field, value, expect) in cases {
            let mut v = good();
            v[field] = value;
            let problems = validate(&v, Lang::Go, FACTS).unwrap_err().join("; ");
            assert!(problems.contains(expect), "{field}: {problems}");
        }
    }
}
