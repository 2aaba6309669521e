//! What the model is shown and asked. The prompt carries the facts the
//! static analyser used (message, sites, their facts, the snippet) and the
//! static draft, batches several records, and asks for the record's fields
//! as JSON. Changing the wording changes [`PROMPT_VERSION`], which changes
//! every cache key.

use errdex_model::Record;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// Part of every cache key: bump when the prompt or the fields change.
pub const PROMPT_VERSION: u32 = 1;
/// Sites shown per record.
const SITES_SHOWN: usize = 3;
/// Snippet lines shown each side of the primary site.
const SNIPPET_LINES: u32 = 14;

/// The system message for analysis.
pub const SYSTEM: &str = "You document error messages of a source repository for the operators and developers who meet them. \
Use only the facts given: the message, its sites, the facts read from the code around each site, the causes (the sites and runtime texts the wrapped call reaches, with the runtime knowledge base's meaning and remedies), and the snippet. \
Never invent file paths, URLs, function names, flags or configuration keys that are not in the facts. \
Say plainly when the facts do not show a cause. Answer with one JSON object and nothing else.";

/// The system message for the verify pass.
pub const VERIFY_SYSTEM: &str =
    "You review documentation of error messages against the code facts it was written from. \
Correct statements the facts do not support, vague advice, and code that would not compile. \
Answer with one JSON object and nothing else.";

const FIELDS: &str = r#"Fields, for each record:
- "id": the record's id, unchanged
- "documentation": what the error means, 2-5 sentences, naming the function and the condition
- "triggerScenarios": what makes the code produce it, from the guards and the wrapped call
- "commonSituations": where operators meet it in practice
- "solutions": 2-6 steps, best first
- "exampleFix": a before/after code change in the repository's language, or null
- "handlingStrategy": one of "try-catch", "type-guard", "validation", "retry", "fallback"
- "validationCode": code that checks inputs before the call, or null
- "typeGuard": code that recognises this error in a caller, or null
- "tryCatchPattern": code that handles it where the function is called, or null
- "preventionTips": 1-5 tips
- "tags": 2-8 lowercase-kebab-case tags
- "backgroundTag": one family slug such as "port-already-in-use", "dns-resolution", "timeout", "permission-denied", "not-found", "context-canceled", "graceful-shutdown"
- "severity": one of "critical", "error", "warning", "info", "debug" (a clean-shutdown signal is "info")
Code fields hold only code (comments allowed) that compiles as statements or declarations."#;

/// The record's causes as the static analyser has them: each site or
/// runtime text, the calls that lead there, the values the code fixes,
/// and for a runtime text its meaning and first remedies from the
/// knowledge base.
fn causes(r: &Record) -> Vec<Value> {
    r.causes
        .iter()
        .map(|c| {
            let entry = c.knowledge.as_deref().and_then(errdex_kb::get);
            json!({
                "messagePattern": c.message_pattern,
                "recordId": c.record_id,
                "knowledge": c.knowledge,
                "filePath": c.file_path,
                "lineNumber": c.line_number,
                "path": c.path,
                "values": c.values,
                "meaning": entry.map(|e| &e.meaning),
                "remedies": entry.map(|e| e.remedies.iter().take(2).map(|m| json!({"do": m.action, "run": m.run})).collect::<Vec<_>>()),
                "docs": entry.map(|e| &e.docs),
            })
        })
        .collect()
}

/// What the model may know about one record, as JSON. Everything a
/// sentence may rest on is in here; the validator rejects paths and URLs
/// that are not.
pub fn facts(r: &Record) -> Value {
    let sites: Vec<Value> = r
        .sites
        .iter()
        .take(SITES_SHOWN)
        .map(|s| {
            json!({
                "filePath": s.file_path,
                "lineNumber": s.line_number,
                "function": s.function,
                "callee": s.callee,
                "args": s.args,
                "facts": s.facts,
            })
        })
        .collect();
    json!({
        "id": r.id,
        "repo": r.repo,
        "language": r.language,
        "messagePattern": r.message_pattern,
        "errorType": r.error_type,
        "errorClass": r.error_class,
        "errorCode": r.error_code,
        "httpStatus": r.http_status,
        "sites": sites,
        "moreSites": r.sites.len().saturating_sub(SITES_SHOWN),
        "causes": causes(r),
        "snippet": snippet(r),
        "githubUrl": r.github_url,
    })
}

/// The lines of the snippet around the primary site, numbered.
fn snippet(r: &Record) -> String {
    let from = r
        .line_number
        .saturating_sub(SNIPPET_LINES)
        .max(r.source_code_start);
    let to = r.line_number + SNIPPET_LINES;
    r.source_code
        .lines()
        .zip(r.source_code_start..)
        .filter(|(_, n)| (from..=to).contains(n))
        .map(|(l, n)| format!("{n:>5}{} {l}", if n == r.line_number { ">" } else { " " }))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The static analyser's fields, as a draft for the model.
pub fn draft(r: &Record) -> Value {
    json!({
        "documentation": r.documentation,
        "triggerScenarios": r.trigger_scenarios,
        "commonSituations": r.common_situations,
        "solutions": r.solutions,
        "exampleFix": r.example_fix,
        "handlingStrategy": r.handling_strategy,
        "validationCode": r.validation_code,
        "typeGuard": r.type_guard,
        "tryCatchPattern": r.try_catch_pattern,
        "preventionTips": r.prevention_tips,
        "tags": r.tags,
        "backgroundTag": r.background_tag,
        "severity": r.severity,
    })
}

/// The cache key of a record's answer from one provider and model.
pub fn cache_key(kind: &str, facts: &Value, provider: &str, model: &str) -> String {
    let mut h = Sha256::new();
    h.update(kind.as_bytes());
    h.update([0]);
    h.update(PROMPT_VERSION.to_le_bytes());
    h.update(provider.as_bytes());
    h.update([0]);
    h.update(model.as_bytes());
    h.update([0]);
    h.update(facts.to_string().as_bytes());
    h.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The prompt for a batch of records.
pub fn analysis_prompt(records: &[&Record]) -> String {
    let items: Vec<Value> = records
        .iter()
        .map(|r| json!({"facts": facts(r), "staticDraft": draft(r)}))
        .collect();
    format!(
        "Write the documentation of these {} error records. Each comes with the facts read from the code and a draft a static analyser wrote from the same facts; improve on the draft, keep what is right, and stay within the facts.\n\n{FIELDS}\n\nAnswer as {{\"records\": [ ... ]}}, one object per record, in order.\n\nRecords:\n{}",
        records.len(),
        serde_json::to_string_pretty(&items).expect("JSON values serialise")
    )
}

/// The prompt for reviewing a batch of analysed records.
pub fn verify_prompt(records: &[&Record]) -> String {
    let items: Vec<Value> = records
        .iter()
        .map(|r| json!({"facts": facts(r), "current": draft(r)}))
        .collect();
    format!(
        "Review the documentation of these {} error records against their facts. For each record return only the fields that must change, with their new values; return an empty object when nothing must change.\n\n{FIELDS}\n\nAnswer as {{\"records\": [{{\"id\": \"...\", \"patches\": {{\"field\": new value}}}}]}}.\n\nRecords:\n{}",
        records.len(),
        serde_json::to_string_pretty(&items).expect("JSON values serialise")
    )
}
