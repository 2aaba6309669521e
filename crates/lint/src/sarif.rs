//! Findings as SARIF 2.1.0, the format code-scanning tools read (GitHub,
//! GitLab, VS Code's SARIF viewer): the rules with their help, each result
//! with its file region, related sites and a fingerprint that survives
//! moved lines.

use crate::rules::{Rule, RULES};
use crate::Finding;
use serde_json::{json, Value};

/// The schema SARIF files name.
pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The key of errdex's fingerprint among a result's `partialFingerprints`.
pub const FINGERPRINT_KEY: &str = "errdexFingerprint/v1";

/// What the log says of the run.
pub struct RunInfo<'a> {
    /// errdex's version.
    pub version: &'a str,
    /// The linted folder, absolute: result URIs are relative to it.
    pub root: &'a std::path::Path,
    /// Where the rule pages are served (`errdex serve`), for `helpUri`.
    pub atlas_url: &'a str,
}

/// The whole SARIF log of one run.
pub fn log(findings: &[Finding], run: &RunInfo<'_>) -> Value {
    let results: Vec<Value> = findings.iter().map(result).collect();
    json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "errdex",
                "semanticVersion": run.version,
                "informationUri": format!("{}/rules/", run.atlas_url.trim_end_matches('/')),
                "rules": RULES.iter().map(|r| rule(r, run.atlas_url)).collect::<Vec<_>>(),
            }},
            "originalUriBaseIds": {"SRCROOT": {"uri": dir_uri(run.root)}},
            "columnKind": "utf16CodeUnits",
            "results": results,
        }],
    })
}

fn rule(r: &Rule, atlas_url: &str) -> Value {
    json!({
        "id": r.id,
        "name": r.name,
        "shortDescription": {"text": r.summary},
        "fullDescription": {"text": r.explanation},
        "help": {"text": help_text(r), "markdown": help_markdown(r)},
        "helpUri": format!("{}/rules/{}/", atlas_url.trim_end_matches('/'), r.id),
        "defaultConfiguration": {"level": r.level.as_str()},
        "properties": {"tags": ["errors", "maintainability"], "languages": r.languages},
    })
}

/// The rule's help in plain text: the paragraph, then each example.
pub fn help_text(r: &Rule) -> String {
    let mut s = format!("{}\n", r.explanation);
    for e in r.examples {
        s.push_str(&format!(
            "\n{}, reported:\n{}\ninstead:\n{}\n",
            e.lang, e.bad, e.good
        ));
    }
    s
}

/// The rule's help in Markdown.
pub fn help_markdown(r: &Rule) -> String {
    let mut s = format!("{}\n", r.explanation);
    for e in r.examples {
        let fence = e
            .lang
            .to_lowercase()
            .replace('#', "sharp")
            .replace("++", "pp");
        s.push_str(&format!(
            "\n**{}**, reported:\n```{fence}\n{}\n```\ninstead:\n```{fence}\n{}\n```\n",
            e.lang, e.bad, e.good
        ));
    }
    s
}

fn result(f: &Finding) -> Value {
    let index = RULES.iter().position(|r| r.id == f.rule).unwrap_or(0);
    let related: Vec<Value> = f
        .related
        .iter()
        .enumerate()
        .map(|(i, p)| {
            json!({
                "id": i + 1,
                "physicalLocation": location(&p.file, p.line),
                "message": {"text": p.note.clone().unwrap_or_default()},
            })
        })
        .collect();
    let mut v = json!({
        "ruleId": f.rule,
        "ruleIndex": index,
        "level": f.level.as_str(),
        "message": {"text": f.message},
        "locations": [{"physicalLocation": location(&f.file, f.line)}],
        "partialFingerprints": {FINGERPRINT_KEY: f.fingerprint},
    });
    if !related.is_empty() {
        v["relatedLocations"] = Value::Array(related);
    }
    v
}

fn location(file: &str, line: u32) -> Value {
    json!({
        "artifactLocation": {"uri": encode_path(file), "uriBaseId": "SRCROOT"},
        "region": {"startLine": line.max(1)},
    })
}

/// A folder as a `file://` URI ending in `/`.
fn dir_uri(root: &std::path::Path) -> String {
    let p = root.to_string_lossy().replace('\\', "/");
    let p = p.trim_end_matches('/');
    let lead = if p.starts_with('/') { "" } else { "/" };
    format!("file://{lead}{}/", encode_path(p))
}

/// A relative path as a URI reference: unreserved characters and `/`
/// kept, the rest percent-encoded.
fn encode_path(path: &str) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
