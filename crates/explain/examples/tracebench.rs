//! The trace benchmark's tools (see bench/trace.sh):
//!
//!   tracebench gen   DB N LINES TRUTH   generate N log lines from the atlas
//!   tracebench eval  DB LINES TRUTH     accuracy and in-process lines/s
//!   tracebench speed DB LINES           one core's steady-state lines/s (outline)
//!   tracebench regex DB LINES N         regex-per-template baseline on N lines
//!
//! Lines are random values formatted into the atlas's templates with Go's
//! rules (errdex_match::sample): 80% single messages, 10% chains of depth
//! 2-4, 10% text no template produces. TRUTH holds, per line, its kind, the
//! record ids of its layers, and whether its template is unique.

use errdex_explain::{Explainer, Verdict};
use errdex_lang::language;
use errdex_match::sample::{render, Rng};
use errdex_model::{HoleKind, Segment, Template};
use errdex_store::{SqliteStore, Store, TraceRow};
use std::collections::HashMap;
use std::io::{BufRead, BufWriter, Write};
use std::path::Path;
use std::time::Instant;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: tracebench gen DB N LINES TRUTH | eval DB LINES TRUTH | speed DB LINES | regex DB LINES N";
    let store = SqliteStore::open(Path::new(args.get(2).expect(usage))).expect("atlas opens");
    let rows = store.trace_rows(None).expect("rows load");
    match args.get(1).map(String::as_str) {
        Some("gen") => gen(&rows, args[3].parse().expect(usage), &args[4], &args[5]),
        Some("eval") => eval(rows, &args[3], &args[4]),
        Some("speed") => speed(rows, &args[3]),
        Some("regex") => regex_baseline(&rows, &args[3], args[4].parse().expect(usage)),
        _ => panic!("{usage}"),
    }
}

fn primary_template(row: &TraceRow) -> Template {
    let s = &row.sites[0];
    language(row.language).template(&row.message_pattern, &s.args, &s.callee)
}

/// Templates by shape (literals and hole kinds): lines of a shape shared by
/// several records cannot name one of them.
fn shape(t: &Template) -> String {
    t.segments
        .iter()
        .map(|s| match s {
            Segment::Lit(l) => l.clone(),
            Segment::Hole(h) => format!("\u{0}{:?}", h.kind),
        })
        .collect()
}

fn gen(rows: &[TraceRow], n: usize, lines: &str, truth: &str) {
    let templates: Vec<Template> = rows.iter().map(primary_template).collect();
    let mut shapes: HashMap<String, u32> = HashMap::new();
    for t in &templates {
        *shapes.entry(shape(t)).or_default() += 1;
    }
    // Templates that can match on their own (glue never does).
    let single: Vec<usize> = (0..rows.len())
        .filter(|&i| templates[i].literal_alnum() >= 4)
        .collect();
    // Templates ending in a chain hole: `prefix: %w`.
    let chains: Vec<usize> = single
        .iter()
        .copied()
        .filter(|&i| {
            let s = &templates[i].segments;
            s.len() >= 2
                && matches!(s.last(), Some(Segment::Hole(h)) if h.chain && h.kind == HoleKind::Any)
                && matches!(&s[s.len() - 2], Segment::Lit(l) if l.ends_with(": "))
        })
        .collect();
    eprintln!(
        "{} records, {} usable alone, {} chain templates",
        rows.len(),
        single.len(),
        chains.len()
    );
    let mut r = Rng(0x5eed_1234_abcd_ef01);
    let mut out = BufWriter::new(std::fs::File::create(lines).unwrap());
    let mut tru = BufWriter::new(std::fs::File::create(truth).unwrap());
    for _ in 0..n {
        let roll = r.below(10);
        if roll == 0 {
            // Text no Go template produces.
            writeln!(
                out,
                "zq{} vb{} xk{} {}",
                r.below(99999),
                r.below(99999),
                r.below(99999),
                r.below(99999)
            )
            .unwrap();
            writeln!(tru, "noise\t\t0").unwrap();
        } else if roll == 1 && !chains.is_empty() {
            let depth = 2 + r.below(3) as usize;
            let mut ids = Vec::new();
            let mut line = String::new();
            let mut unique = true;
            for _ in 0..depth - 1 {
                let i = chains[r.below(chains.len() as u64) as usize];
                let t = &templates[i];
                unique &= shapes[&shape(t)] == 1;
                let head = Template {
                    segments: t.segments[..t.segments.len() - 1].to_vec(),
                };
                line.push_str(&render(&head, &mut r));
                ids.push(rows[i].id.clone());
            }
            let i = single[r.below(single.len() as u64) as usize];
            unique &= shapes[&shape(&templates[i])] == 1;
            line.push_str(&render(&templates[i], &mut r));
            ids.push(rows[i].id.clone());
            writeln!(out, "{}", line.replace('\n', " ")).unwrap();
            writeln!(tru, "chain\t{}\t{}", ids.join(","), u8::from(unique)).unwrap();
        } else {
            let i = single[r.below(single.len() as u64) as usize];
            let line = render(&templates[i], &mut r);
            writeln!(out, "{}", line.replace('\n', " ")).unwrap();
            let unique = shapes[&shape(&templates[i])] == 1 && !line.contains('\n');
            writeln!(tru, "single\t{}\t{}", rows[i].id, u8::from(unique)).unwrap();
        }
    }
}

fn read_lines(p: &str) -> Vec<String> {
    std::io::BufReader::new(std::fs::File::open(p).unwrap())
        .lines()
        .map(Result::unwrap)
        .collect()
}

/// Steady-state throughput of one core: `outline` (what `explain
/// --summary` does per line) over lines already in memory, best of five
/// passes, so start-up, I/O and the machine's drift do not count.
fn speed(rows: Vec<TraceRow>, lines: &str) {
    let ex = Explainer::new(rows);
    let lines = read_lines(lines);
    let mut best = f64::MAX;
    let mut traced = 0;
    for _ in 0..5 {
        let t0 = Instant::now();
        traced = lines.iter().filter(|l| ex.outline(l).top.is_some()).count();
        best = best.min(t0.elapsed().as_secs_f64());
    }
    println!(
        "outline: {} lines ({traced} traced) in {best:.3} s = {:.0} lines/s on one core (best of 5)",
        lines.len(),
        lines.len() as f64 / best
    );
}

fn eval(rows: Vec<TraceRow>, lines: &str, truth: &str) {
    let t0 = Instant::now();
    let ex = Explainer::new(rows);
    eprintln!(
        "built {} templates in {:.2} s",
        ex.templates(),
        t0.elapsed().as_secs_f64()
    );
    let lines = read_lines(lines);
    let truth = read_lines(truth);
    let t0 = Instant::now();
    let explained: Vec<_> = lines.iter().map(|l| ex.explain(l)).collect();
    let secs = t0.elapsed().as_secs_f64();
    let (mut single, mut single_ok, mut chain, mut chain_ok, mut noise, mut noise_ok) =
        (0, 0, 0, 0, 0, 0);
    let mut misses = Vec::new();
    let all_misses = std::env::var_os("TRACEBENCH_ALL_MISSES").is_some();
    for ((line, t), e) in lines.iter().zip(&truth).zip(&explained) {
        let f: Vec<&str> = t.split('\t').collect();
        let ids: Vec<&str> = f[1].split(',').filter(|s| !s.is_empty()).collect();
        let unique = f[2] == "1";
        let top: Vec<&str> = e.frames.iter().map(|fr| fr.candidates[0].id).collect();
        match f[0] {
            "noise" => {
                noise += 1;
                noise_ok += usize::from(e.verdict == Verdict::Unknown);
            }
            "single" if unique => {
                single += 1;
                if top.first() == ids.first() {
                    single_ok += 1;
                } else if misses.len() < 15 || all_misses {
                    misses.push(format!("single {line:?} want {ids:?} got {top:?}"));
                }
            }
            "chain" if unique => {
                chain += 1;
                if top == ids {
                    chain_ok += 1;
                } else if misses.len() < 30 || all_misses {
                    misses.push(format!("chain {line:?} want {ids:?} got {top:?}"));
                }
            }
            _ => {}
        }
    }
    for m in &misses {
        eprintln!("miss: {m}");
    }
    println!(
        "in-process: {} lines in {secs:.2} s = {:.0} lines/s (1 thread)",
        lines.len(),
        lines.len() as f64 / secs
    );
    println!(
        "unique single lines: {single_ok}/{single} top-1 right ({:.2}%)",
        100.0 * single_ok as f64 / single.max(1) as f64
    );
    println!(
        "unique chained lines: {chain_ok}/{chain} whole chain right ({:.2}%)",
        100.0 * chain_ok as f64 / chain.max(1) as f64
    );
    println!(
        "noise lines: {noise_ok}/{noise} unknown ({:.2}%)",
        100.0 * noise_ok as f64 / noise.max(1) as f64
    );
}

/// The naive baseline: every template compiled to an anchored regex
/// (holes as `(.*?)`), tried in turn on each line.
fn regex_baseline(rows: &[TraceRow], lines: &str, n: usize) {
    let t0 = Instant::now();
    let res: Vec<regex::Regex> = rows
        .iter()
        .filter_map(|row| {
            let t = primary_template(row);
            let mut re = String::from("^");
            for s in &t.segments {
                match s {
                    Segment::Lit(l) => re.push_str(&regex::escape(l)),
                    Segment::Hole(_) => re.push_str("(.*?)"),
                }
            }
            re.push('$');
            regex::Regex::new(&re).ok()
        })
        .collect();
    eprintln!(
        "compiled {} regexes in {:.2} s",
        res.len(),
        t0.elapsed().as_secs_f64()
    );
    let lines: Vec<String> = read_lines(lines).into_iter().take(n).collect();
    let t0 = Instant::now();
    let mut matched = 0usize;
    for l in &lines {
        if res.iter().any(|re| re.is_match(l)) {
            matched += 1;
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    let out = std::io::stdout();
    let mut out = out.lock();
    writeln!(
        out,
        "regex-per-template: {} lines in {secs:.2} s = {:.0} lines/s ({matched} matched)",
        lines.len(),
        lines.len() as f64 / secs
    )
    .unwrap();
}
