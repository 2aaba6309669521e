//! `errdex explain`'s answers for a person: each frame's site, its
//! record's meaning, the versions that print it, and the knowledge base's
//! remedy for a runtime's text, with the values the line gives put in.

use super::{Mark, MAX_LINE};
use errdex_explain::{CandidateOut, Explanation, Knowledge, Verdict};
use std::io::Write;

/// Which versions print a candidate, for a repository indexed over
/// history: a message the newest version no longer prints says so.
fn versions_line(c: &errdex_explain::CandidateOut<'_>) -> String {
    match (c.first_seen, c.last_seen, c.removed_in) {
        (Some(first), Some(last), Some(removed)) => {
            format!("       printed by {first} – {last}; removed in {removed}\n")
        }
        (Some(first), Some(_), None) => format!("       printed since {first}\n"),
        _ => String::new(),
    }
}

pub(super) fn print_human(out: &mut dyn Write, e: &Explanation, m: Mark) -> std::io::Result<()> {
    writeln!(out, "{}", e.input)?;
    if m.cut {
        writeln!(
            out,
            "  (line {} is longer than {} KiB: only its start was read)",
            m.line,
            MAX_LINE / 1024
        )?;
    }
    if e.stack.is_some() {
        // A frame or link of a stack trace: shown as context, so the
        // trace reads as pasted with explanations under its messages.
        return Ok(());
    }
    if !e.prefix.trim().is_empty() {
        writeln!(out, "  prefix: {}", e.prefix.trim_end())?;
    }
    let mut items: Vec<(usize, String)> = Vec::new();
    for (i, f) in e.frames.iter().enumerate() {
        let mut s = format!("  {}. {}\n", i + 1, f.text);
        for (ci, c) in f.candidates.iter().enumerate() {
            if ci == 4 {
                s.push_str(&format!(
                    "       … and {} more sites\n",
                    f.candidates.len() - 4
                ));
                break;
            }
            if let Some(k) = &c.knowledge {
                // The message, without its log prefix (`file.go:80]`).
                let message = e.input.get(e.frames[0].start..).unwrap_or_default();
                push_knowledge(&mut s, c, k, message);
                continue;
            }
            s.push_str(&format!(
                "     {} {}:{}{}  [{}] {}\n",
                if c.hinted { "*" } else { "→" },
                c.file_path,
                c.line_number,
                c.function.map(|f| format!(" in {f}")).unwrap_or_default(),
                c.repo,
                c.message_pattern
            ));
            if c.built_at_run_time {
                s.push_str("       raised here, as the stack trace says; the code builds this message at run time\n");
            }
            if let Some(u) = &c.github_url {
                s.push_str(&format!("       {u}\n"));
            }
            if let Some(d) = &c.documentation {
                let first = d.split(". ").next().unwrap_or(d);
                s.push_str(&format!("       {first}\n"));
            }
            s.push_str(&versions_line(c));
        }
        items.push((f.start, s));
    }
    for u in &e.unmatched {
        items.push((
            u.start,
            format!(
                "  ?  {}\n     not in the atlas (a standard-library, remote or removed message)\n",
                u.text
            ),
        ));
    }
    items.sort_by_key(|(s, _)| *s);
    for (_, s) in items {
        out.write_all(s.as_bytes())?;
    }
    let v = match e.verdict {
        Verdict::Traced => "traced",
        Verdict::Partial => "partial: some layers are not in the atlas",
        Verdict::Ambiguous => "ambiguous: several sites print this",
        Verdict::Unknown => "unknown: nothing in the atlas prints this",
    };
    writeln!(out, "  verdict: {v}\n")
}

/// The values a line names that fill a remedy's command: its first
/// `host:port` and its first absolute path.
fn line_values(line: &str) -> Vec<String> {
    let tokens = line.split(|c: char| c.is_whitespace() || "\"'`,;()[]".contains(c));
    let mut out = Vec::new();
    let clean = |t: &str| t.trim_end_matches([':', '.']).to_string();
    if let Some(addr) = tokens.clone().map(clean).find(|t| {
        t.rsplit_once(':').is_some_and(|(h, p)| {
            !h.is_empty() && !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())
        })
    }) {
        out.push(addr);
    }
    if let Some(path) = tokens
        .map(clean)
        .find(|t| t.starts_with('/') && t.len() > 1)
    {
        out.push(path);
    }
    out
}

/// A layer the runtime prints: its knowledge-base entry, what it means,
/// the first thing to do (its command filled with the line's address or
/// path) and the documentation.
fn push_knowledge(s: &mut String, c: &CandidateOut, k: &Knowledge, line: &str) {
    s.push_str(&format!(
        "     → runtime: {}  {}\n",
        k.key, c.message_pattern
    ));
    if let Some(d) = &c.documentation {
        s.push_str(&format!("       {d}\n"));
    }
    match k.run {
        Some(run) => {
            let run = errdex_kb::fill(run, &line_values(line));
            s.push_str(&format!("       do: {}\n         $ {run}\n", k.remedy))
        }
        None => s.push_str(&format!("       do: {}\n", k.remedy)),
    }
    s.push_str(&format!("       {}\n", k.docs));
}
