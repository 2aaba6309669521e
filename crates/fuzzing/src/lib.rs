//! What each fuzz target does with one input. The AFL++ binaries in
//! `fuzz/` call these on every input AFL++ makes; `tests/replay.rs` calls
//! them on the committed corpus and on every crash found, as regression
//! tests. None may panic, whatever the bytes.
#![deny(missing_docs)]

use errdex_explain::Explainer;
use errdex_model::Lang;
use errdex_store::{TraceRow, TraceSite};

/// What a target does with one input.
pub type Target = fn(&[u8]);

/// The targets by name, as `fuzz/` and the replay test know them.
pub const TARGETS: &[(&str, Target)] = &[
    ("formats", formats),
    ("prefix", prefix),
    ("stack", stack),
    ("matcher", matcher),
    ("mcp", mcp),
];

fn lines(data: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(data)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Every language's message-format parser on the input as a pattern.
pub fn formats(data: &[u8]) {
    let pattern = String::from_utf8_lossy(data);
    let args = ["err".to_string(), "name".to_string(), "count".to_string()];
    for l in errdex_lang::LANGUAGES {
        for callee in ["fmt.Errorf", "errors.Wrap", "log.Printf", "raise", ""] {
            let _ = l.template(&pattern, &args, callee);
        }
    }
}

/// The log-header reader on each line.
pub fn prefix(data: &[u8]) {
    for line in lines(data) {
        let _ = errdex_match::prefix::prepare(&line);
    }
}

/// The stack-trace readers over the input's lines.
pub fn stack(data: &[u8]) {
    let lines = lines(data);
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let _ = errdex_match::stack::read(&refs);
}

fn row(id: &str, pattern: &str, language: Lang, callee: &str) -> TraceRow {
    TraceRow {
        id: id.into(),
        repo: "fuzz/atlas".into(),
        slug: id.into(),
        message_pattern: pattern.into(),
        language,
        documentation: None,
        sites: vec![TraceSite {
            file_path: format!("{id}.src"),
            line_number: 1,
            function: None,
            callee: callee.into(),
            args: vec!["err".into(), "name".into()],
            github_url: None,
            guards: Vec::new(),
            fills: None,
            fields: Vec::new(),
            closed_holes: Vec::new(),
        }],
        presence: None,
    }
}

/// The matcher: the first line is one more message pattern of the atlas
/// (beside a few of every form), the other lines are explained with it.
pub fn matcher(data: &[u8]) {
    let lines = lines(data);
    let Some((pattern, log)) = lines.split_first() else {
        return;
    };
    let ex = Explainer::new(vec![
        row("a", "serving readiness probe: %w", Lang::Go, "fmt.Errorf"),
        row("b", "listening on %s: %w", Lang::Go, "fmt.Errorf"),
        row("c", "invalid value %r for %s", Lang::Python, "raise"),
        row("d", "cannot open {}: {}", Lang::Rust, "anyhow!"),
        row("e", "Connection to %s refused", Lang::Java, "throw"),
        row("fuzzed", pattern, Lang::Go, "fmt.Errorf"),
    ]);
    for line in log {
        let _ = ex.explain(line);
    }
    let refs: Vec<&str> = log.iter().map(String::as_str).collect();
    let stacks = errdex_match::stack::read(&refs);
    let mut explained: Vec<_> = refs
        .iter()
        .zip(&stacks)
        .map(|(l, s)| ex.explain_line(l, s))
        .collect();
    ex.read_across_lines(&mut explained, &stacks);
    let mut json = Vec::new();
    for e in &explained {
        ex.write_json(e, &mut json);
    }
}

/// The MCP gate on each line as a client's message, the session's phase
/// carried from line to line.
pub fn mcp(data: &[u8]) {
    use errdex_mcp::gate;
    let mut phase = gate::Phase::default();
    for line in lines(data) {
        let _ = gate::judge(&line, &mut phase);
        let _ = gate::bounded_answer(line);
    }
}
