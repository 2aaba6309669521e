//! `errdex explain`.

use crate::cli::ExplainArgs;
use crate::{not_found, Failure};
use errdex_explain::stack;
use errdex_explain::{Explainer, Explanation, Outline, Verdict};
use errdex_store::Store;
use rayon::prelude::*;
use std::io::{BufRead, BufWriter, Write};

/// Longest line read from a stream; the rest of a longer line is skipped,
/// so one runaway line cannot exhaust memory.
const MAX_LINE: usize = 64 * 1024;
/// Distinct unknown lines remembered by `--summary`; further ones are
/// counted together.
const MAX_UNKNOWN_GROUPS: usize = 1000;
/// Lines explained together (and, with --threads, in parallel).
const BATCH: usize = 4096;

pub(crate) fn run(store: &dyn Store, a: ExplainArgs) -> Result<(), Failure> {
    let rows = store.trace_rows(a.repo.as_deref())?;
    if rows.is_empty() {
        return Err(anyhow::anyhow!(
            "the atlas has no records{}; run `errdex index PATH` first",
            a.repo
                .as_deref()
                .map(|r| format!(" for {r}"))
                .unwrap_or_default()
        )
        .into());
    }
    let ex = Explainer::new(rows);
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    let mut summary = Summary::default();
    let mut traced_any = false;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads)
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start {} threads: {e}", a.threads))?;
    // Lines are explained in batches (in parallel with --threads) and
    // written in input order; memory stays one batch.
    let mut emit = |batch: &[String], out: &mut dyn Write| -> Result<(), Failure> {
        // Stack traces are read across the batch: frames become hints for
        // their message, and frame lines are not errors of their own.
        let lines: Vec<&str> = batch.iter().map(String::as_str).collect();
        let read = stack::read(&lines);
        if a.summary {
            // Grouping needs only each line's verdict and outermost site.
            let outlines: Vec<Option<Outline>> = if a.threads == 1 {
                lines
                    .iter()
                    .zip(&read)
                    .map(|(l, s)| ex.outline_line(l, s))
                    .collect()
            } else {
                pool.install(|| {
                    lines
                        .par_iter()
                        .zip(&read)
                        .map(|(l, s)| ex.outline_line(l, s))
                        .collect()
                })
            };
            for (line, o) in lines.iter().zip(outlines) {
                if let Some(o) = o {
                    traced_any |= o.top.is_some();
                    summary.add(&ex, line, o);
                }
            }
            return Ok(());
        }
        let explained: Vec<Explanation> = if a.threads == 1 {
            lines
                .iter()
                .zip(&read)
                .map(|(l, s)| ex.explain_line(l, s))
                .collect()
        } else {
            pool.install(|| {
                lines
                    .par_iter()
                    .zip(&read)
                    .map(|(l, s)| ex.explain_line(l, s))
                    .collect()
            })
        };
        for e in &explained {
            traced_any |= !e.frames.is_empty();
            if a.json {
                serde_json::to_writer(&mut *out, e)?;
                out.write_all(b"\n")?;
            } else {
                print_human(out, e)?;
            }
        }
        Ok(())
    };
    let mut batch: Vec<String> = Vec::new();
    if a.text == "-" {
        let mut input = std::io::stdin().lock();
        while read_batch(&mut input, &mut batch)? {
            emit(&batch, &mut out)?;
            out.flush()?;
            batch.clear();
        }
    } else {
        batch.extend(
            a.text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(String::from),
        );
    }
    emit(&batch, &mut out)?;
    if a.summary {
        summary.print(&mut out)?;
    }
    out.flush()?;
    if traced_any {
        Ok(())
    } else {
        Err(not_found("nothing in the atlas produces this text"))
    }
}

/// Reads one line into `buf` (without the newline), keeping at most
/// [`MAX_LINE`] bytes. Returns the bytes consumed (0 at the end).
/// Reads the next non-blank lines of stdin into `batch`: [`BATCH`] lines
/// from a pipe or file, one from a terminal so each answer comes at once.
/// False at the end of input.
fn read_batch(input: &mut impl BufRead, batch: &mut Vec<String>) -> std::io::Result<bool> {
    use std::io::IsTerminal;
    let size = if std::io::stdin().is_terminal() {
        1
    } else {
        BATCH
    };
    let mut buf = Vec::new();
    while batch.len() < size {
        buf.clear();
        if read_line_bounded(input, &mut buf)? == 0 {
            break;
        }
        let line = String::from_utf8_lossy(&buf);
        if !line.trim().is_empty() {
            batch.push(line.into_owned());
        }
    }
    Ok(!batch.is_empty())
}

fn read_line_bounded(r: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut consumed = 0;
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            return Ok(consumed);
        }
        let (take, done) = match memchr_newline(chunk) {
            Some(p) => (p + 1, true),
            None => (chunk.len(), false),
        };
        let room = MAX_LINE.saturating_sub(buf.len());
        let keep = if done { take - 1 } else { take };
        buf.extend_from_slice(&chunk[..keep.min(room)]);
        r.consume(take);
        consumed += take;
        if done {
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(consumed);
        }
    }
}

fn memchr_newline(b: &[u8]) -> Option<usize> {
    memchr::memchr(b'\n', b)
}

fn print_human(out: &mut dyn Write, e: &Explanation) -> std::io::Result<()> {
    writeln!(out, "{}", e.input)?;
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
            s.push_str(&format!(
                "     {} {}:{}{}  [{}] {}\n",
                if c.hinted { "*" } else { "→" },
                c.file_path,
                c.line_number,
                c.function
                    .as_deref()
                    .map(|f| format!(" in {f}"))
                    .unwrap_or_default(),
                c.repo,
                c.message_pattern
            ));
            if let Some(u) = &c.github_url {
                s.push_str(&format!("       {u}\n"));
            }
            if let Some(d) = &c.documentation {
                let first = d.split(". ").next().unwrap_or(d);
                s.push_str(&format!("       {first}\n"));
            }
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

/// `--summary`: lines grouped by their outermost error.
#[derive(Default)]
struct Summary {
    groups: foldhash::HashMap<String, Group>,
    lines: u64,
    other_unknown: u64,
}

struct Group {
    count: u64,
    verdict: Verdict,
    label: String,
    site: String,
}

impl Summary {
    fn add(&mut self, ex: &Explainer, line: &str, o: Outline) {
        self.lines += 1;
        let key = match o.top {
            Some(top) => ex.site(top).0.id.as_str(),
            // Unknown lines group by their message, without the prefix.
            None => line.get(o.prefix_len..).unwrap_or(line).trim(),
        };
        if let Some(g) = self.groups.get_mut(key) {
            g.count += 1;
            return;
        }
        let (label, site) = match o.top {
            Some(top) => {
                let (row, site) = ex.site(top);
                (
                    row.message_pattern.clone(),
                    format!("{}:{} [{}]", site.file_path, site.line_number, row.repo),
                )
            }
            None => {
                if self.groups.len() >= MAX_UNKNOWN_GROUPS {
                    self.other_unknown += 1;
                    return;
                }
                (key.to_string(), "-".to_string())
            }
        };
        self.groups.insert(
            key.to_string(),
            Group {
                count: 1,
                verdict: o.verdict,
                label,
                site,
            },
        );
    }

    fn print(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let mut g: Vec<&Group> = self.groups.values().collect();
        g.sort_by(|a, b| b.count.cmp(&a.count).then(a.label.cmp(&b.label)));
        writeln!(
            out,
            "{:>8}  {:<9}  {:<50}  SITE",
            "COUNT", "VERDICT", "ERROR"
        )?;
        for x in g {
            let v = serde_json::to_value(x.verdict)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default();
            writeln!(
                out,
                "{:>8}  {:<9}  {:<50}  {}",
                x.count,
                v,
                super::list::one_line(&x.label, 50),
                x.site
            )?;
        }
        if self.other_unknown > 0 {
            writeln!(
                out,
                "{:>8}  unknown    (other distinct unknown lines)",
                self.other_unknown
            )?;
        }
        writeln!(
            out,
            "{} lines, {} distinct errors",
            self.lines,
            self.groups.len()
        )
    }
}
