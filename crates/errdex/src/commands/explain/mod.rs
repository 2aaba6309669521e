//! `errdex explain`.

mod human;

use crate::cli::ExplainArgs;
use crate::printable::Printable;
use crate::{not_found, Failure};
use errdex_explain::stack;
use errdex_explain::{Explainer, Explanation, Outline, Verdict};
use errdex_store::Store;
use human::print_human;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;

/// Longest line read from a stream; the rest of a longer line is skipped,
/// so one runaway line cannot exhaust memory.
const MAX_LINE: usize = 64 * 1024;
/// Distinct unknown lines remembered by `--summary`; further ones are
/// counted together.
const MAX_UNKNOWN_GROUPS: usize = 1000;
/// Lines explained together (and, with --threads, in parallel).
const BATCH: usize = 4096;

/// Bytes read from a piped stdin at a time: fewer, larger reads.
const READ_BUF: usize = 256 * 1024;

pub(crate) fn run(store: &dyn Store, db: &Path, a: ExplainArgs) -> Result<(), Failure> {
    // The compiled templates are kept beside the database: building them
    // for a large atlas takes longer than tracing a big log.
    let cache = (!a.no_cache).then(|| super::trace_cache_path(db));
    let ex = match &a.at {
        Some(version) => {
            check_version(store, a.repo.as_deref(), version)?;
            errdex_explain::cache::load_at(store, a.repo.as_deref(), version)?
        }
        None => errdex_explain::cache::load(store, a.repo.as_deref(), cache.as_deref())?,
    };
    if ex.records() == 0 {
        return Err(anyhow::anyhow!(
            "the atlas has no records{}; run `errdex index PATH` first",
            a.repo
                .as_deref()
                .map(|r| format!(" for {r}"))
                .unwrap_or_default()
        )
        .into());
    }
    let out = std::io::stdout();
    let mut out = Output {
        out: Printable::new(BufWriter::new(out.lock())),
        summary: a.summary.then(|| Summary::new(ex.records())),
        json: a.json,
        traced_any: false,
    };
    if a.text == "-" {
        use std::io::IsTerminal;
        let stdin = std::io::stdin();
        let threads = match a.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        if stdin.is_terminal() {
            // One line at a time, so each answer comes as it is typed.
            stream(&ex, stdin.lock(), 1, &mut out)?;
        } else if threads == 1 {
            stream(
                &ex,
                BufReader::with_capacity(READ_BUF, stdin.lock()),
                BATCH,
                &mut out,
            )?;
        } else {
            let input = BufReader::with_capacity(READ_BUF, stdin.lock());
            stream_parallel(&ex, input, threads, &mut out)?;
        }
    } else {
        let (lines, marks): (Vec<&str>, Vec<Mark>) = (1..)
            .zip(a.text.lines())
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(n, l)| {
                (
                    l,
                    Mark {
                        line: n,
                        cut: false,
                    },
                )
            })
            .unzip();
        let mut answers = Answers::default();
        answers.fill(&ex, &lines, &marks, out.form());
        out.take(&ex, &lines, &answers)?;
    }
    if let Some(summary) = &out.summary {
        summary.print(&mut out.out)?;
    }
    out.out.flush()?;
    if out.traced_any {
        Ok(())
    } else {
        Err(not_found("nothing in the atlas produces this text"))
    }
}

/// What explaining a batch gives, line by line: each line's outline for
/// `--summary` (grouping needs only its verdict and outermost site), else
/// its whole explanation. A batch's answers are refilled for the next
/// batch rather than allocated anew: with `-j`, they travel between
/// threads, and memory freed on another thread than the one that took it
/// goes back to the system and must be faulted in again.
#[derive(Default)]
struct Answers<'a> {
    /// Each line's stack-trace reading (kept for its memory only).
    stack: Vec<stack::StackLine>,
    /// `--summary`: each line's outline.
    outlines: Vec<Option<Outline>>,
    /// Otherwise: each line's explanation.
    explained: Vec<Explanation<'a>>,
    /// `--json`: the explanations as JSON lines, written by the thread
    /// that explained them.
    json: Vec<u8>,
    /// Each line's number in the input and whether it was cut.
    marks: Vec<Mark>,
    /// Whether a line of the batch traced to something.
    traced_any: bool,
}

/// Where a line stood in the input: its number (from 1, blank lines
/// counted though not answered) and whether it was cut at [`MAX_LINE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Mark {
    line: u64,
    cut: bool,
}

/// What a batch's answers are made for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// `--summary`: outlines.
    Summary,
    /// `--json`: explanations, and their JSON.
    Json,
    /// Explanations for a person.
    Human,
}

impl<'a> Answers<'a> {
    /// Stack traces are read across the batch: frames become hints for
    /// their message, and frame lines are not errors of their own; then
    /// the batch's lines are read together (continued messages, ties).
    fn fill(&mut self, ex: &'a Explainer, lines: &[&str], marks: &[Mark], form: Form) {
        stack::read_into(lines, &mut self.stack);
        self.outlines.clear();
        self.explained.clear();
        self.json.clear();
        self.marks.clear();
        self.marks.extend_from_slice(marks);
        let pairs = lines.iter().zip(&self.stack);
        if form == Form::Summary {
            self.outlines
                .extend(pairs.map(|(l, s)| ex.outline_line(l, s)));
            return;
        }
        self.explained
            .extend(pairs.map(|(l, s)| ex.explain_line(l, s)));
        ex.read_across_lines(&mut self.explained, &self.stack);
        self.traced_any = self.explained.iter().any(|e| !e.frames.is_empty());
        if form == Form::Json {
            for (e, m) in self.explained.iter().zip(marks) {
                // The line number (and the cut) lead the object, so that
                // answers line up with the input.
                let _ = write!(self.json, "{{\"line\":{},", m.line);
                if m.cut {
                    let _ = write!(self.json, "\"cutAt\":{MAX_LINE},");
                }
                ex.write_json_fields(e, &mut self.json);
                self.json.push(b'\n');
            }
            // Freed by the thread that allocated them, which mimalloc
            // does at once (another thread's frees wait in a list).
            self.explained.clear();
        }
    }
}

/// Where answers go, in input order.
struct Output<W: Write> {
    out: Printable<W>,
    /// `--summary`'s groups, when asked for.
    summary: Option<Summary>,
    json: bool,
    traced_any: bool,
}

impl<W: Write> Output<W> {
    fn form(&self) -> Form {
        match (self.summary.is_some(), self.json) {
            (true, _) => Form::Summary,
            (false, true) => Form::Json,
            (false, false) => Form::Human,
        }
    }

    fn take(&mut self, ex: &Explainer, lines: &[&str], answers: &Answers) -> Result<(), Failure> {
        if let Some(summary) = self.summary.as_mut() {
            for (line, o) in lines.iter().zip(&answers.outlines) {
                if let Some(o) = *o {
                    self.traced_any |= o.top.is_some();
                    summary.add(ex, line, o);
                }
            }
            return Ok(());
        }
        self.traced_any |= answers.traced_any;
        if self.json {
            // The JSON writer escapes every control character itself.
            self.out.plain()?.write_all(&answers.json)?;
            return Ok(());
        }
        for (e, m) in answers.explained.iter().zip(&answers.marks) {
            print_human(&mut self.out, e, *m)?;
        }
        Ok(())
    }
}

/// Explains a stream on this thread, `size` lines at a time, flushing after
/// each batch.
fn stream<W: Write>(
    ex: &Explainer,
    mut input: impl BufRead,
    size: usize,
    out: &mut Output<W>,
) -> Result<(), Failure> {
    let mut batch = Batch::default();
    let mut answers = Answers::default();
    let mut seen = 0;
    while batch.read(&mut input, size, &mut seen)? {
        let lines = batch.lines();
        answers.fill(ex, &lines, &batch.marks, out.form());
        out.take(ex, &lines, &answers)?;
        out.out.flush()?;
    }
    Ok(())
}

/// Explains a stream on `threads` workers: this thread reads batches and
/// hands them out, workers read their stack traces and trace their lines,
/// and this thread takes the answers back in input order. At most two
/// batches per worker are in flight, so memory stays bounded.
fn stream_parallel<'a, W: Write>(
    ex: &'a Explainer,
    mut input: impl BufRead,
    threads: usize,
    out: &mut Output<W>,
) -> Result<(), Failure> {
    use std::collections::BTreeMap;
    use std::sync::{mpsc, Mutex};
    let form = out.form();
    let (work, jobs) = mpsc::sync_channel::<(u64, Batch, Answers<'a>)>(threads);
    let jobs = Mutex::new(jobs);
    let (done, answers) = mpsc::channel::<(u64, Batch, Answers<'a>)>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (jobs, done) = (&jobs, done.clone());
            scope.spawn(move || loop {
                // The lock is held only to take a job.
                let job = jobs.lock().unwrap_or_else(|p| p.into_inner()).recv();
                let Ok((seq, batch, mut a)) = job else { return };
                a.fill(ex, &batch.lines(), &batch.marks, form);
                if done.send((seq, batch, a)).is_err() {
                    return;
                }
            });
        }
        drop(done);
        let mut ready: BTreeMap<u64, (Batch, Answers<'a>)> = BTreeMap::new();
        let mut spare: Vec<(Batch, Answers<'a>)> = Vec::new();
        let (mut sent, mut next) = (0u64, 0u64);
        // Takes answers in order as far as they have come; blocks for one
        // when `wait`.
        let mut collect = |wait: bool,
                           ready: &mut BTreeMap<u64, (Batch, Answers<'a>)>,
                           spare: &mut Vec<(Batch, Answers<'a>)>,
                           next: &mut u64|
         -> Result<(), Failure> {
            if wait {
                let (seq, b, a) = answers
                    .recv()
                    .map_err(|_| anyhow::anyhow!("a worker thread stopped"))?;
                ready.insert(seq, (b, a));
            }
            while let Ok((seq, b, a)) = answers.try_recv() {
                ready.insert(seq, (b, a));
            }
            while let Some((b, a)) = ready.remove(next) {
                out.take(ex, &b.lines(), &a)?;
                spare.push((b, a));
                *next += 1;
            }
            Ok(())
        };
        let result = (|| -> Result<(), Failure> {
            let mut seen = 0;
            loop {
                let (mut batch, answers) = spare.pop().unwrap_or_default();
                if !batch.read(&mut input, BATCH, &mut seen)? {
                    break;
                }
                work.send((sent, batch, answers))
                    .map_err(|_| anyhow::anyhow!("a worker thread stopped"))?;
                sent += 1;
                collect(false, &mut ready, &mut spare, &mut next)?;
                while sent - next >= 2 * threads as u64 {
                    collect(true, &mut ready, &mut spare, &mut next)?;
                }
            }
            while next < sent {
                collect(true, &mut ready, &mut spare, &mut next)?;
            }
            Ok(())
        })();
        // Workers stop when the job queue closes (also on an error).
        drop(work);
        result
    })
}

/// Lines of a stream read a batch at a time into one buffer, so that a
/// line costs no allocation and the batch is checked as UTF-8 once.
#[derive(Default)]
struct Batch {
    /// The bytes being read; moved into `text` once checked.
    buf: Vec<u8>,
    /// The batch's lines, one after another, when valid UTF-8.
    text: String,
    /// Where each line ends in `text` (in `buf` while reading).
    ends: Vec<usize>,
    /// The lines, when the batch is not valid UTF-8 (each made valid).
    lossy: Vec<String>,
    /// Bytes of the line being read still to drop: past [`MAX_LINE`].
    skipping: bool,
    /// Each kept line's number and whether it was cut.
    marks: Vec<Mark>,
}

impl Batch {
    /// Reads up to `size` lines (without their newlines; a line longer
    /// than [`MAX_LINE`] keeps its first bytes). False at the end of input.
    /// The reader's buffer is taken a chunk at a time: its lines are found
    /// with one search and copied in as they are.
    /// `seen` counts the input's lines so far, across batches.
    fn read(
        &mut self,
        input: &mut impl BufRead,
        size: usize,
        seen: &mut u64,
    ) -> std::io::Result<bool> {
        // The last batch's text becomes the buffer again, allocation and all.
        let last = std::mem::take(&mut self.text).into_bytes();
        if last.capacity() > self.buf.capacity() {
            self.buf = last;
        }
        self.buf.clear();
        self.ends.clear();
        self.lossy.clear();
        self.marks.clear();
        let mut start = 0;
        while self.ends.len() < size {
            let chunk = input.fill_buf()?;
            if chunk.is_empty() {
                // The last line, without a newline.
                if self.buf.len() > start || self.skipping {
                    self.end_line(start, seen);
                }
                self.skipping = false;
                break;
            }
            let mut used = 0;
            for nl in errdex_match::Newlines::new(chunk) {
                self.keep(&chunk[used..nl], start);
                self.end_line(start, seen);
                self.skipping = false;
                start = self.buf.len();
                used = nl + 1;
                if self.ends.len() >= size {
                    break;
                }
            }
            if self.ends.len() < size {
                // The rest is the start of a line that goes on.
                self.keep(&chunk[used..], start);
                used = chunk.len();
            }
            input.consume(used);
        }
        match String::from_utf8(std::mem::take(&mut self.buf)) {
            Ok(text) => self.text = text,
            Err(e) => {
                let bytes = e.into_bytes();
                let mut at = 0;
                for &end in &self.ends {
                    self.lossy
                        .push(String::from_utf8_lossy(&bytes[at..end]).into_owned());
                    at = end;
                }
                self.buf = bytes;
            }
        }
        Ok(!self.ends.is_empty())
    }

    /// Appends a piece of the line that started at `start`, as far as
    /// [`MAX_LINE`] allows; past it, the rest of the line is dropped.
    fn keep(&mut self, piece: &[u8], start: usize) {
        if self.skipping {
            return;
        }
        let room = MAX_LINE.saturating_sub(self.buf.len() - start);
        self.buf.extend_from_slice(&piece[..piece.len().min(room)]);
        self.skipping = piece.len() > room;
    }

    /// Ends the line that started at `start`: drops a `\r` before the
    /// newline, and a blank line (Unicode whitespace too) altogether.
    fn end_line(&mut self, start: usize, seen: &mut u64) {
        *seen += 1;
        if self.buf.last() == Some(&b'\r') && self.buf.len() > start {
            self.buf.pop();
        }
        let line = &self.buf[start..];
        // Most lines start with a visible ASCII byte, which settles it.
        let blank = !line.first().is_some_and(u8::is_ascii_graphic)
            && String::from_utf8_lossy(line).trim().is_empty();
        if blank {
            self.buf.truncate(start);
        } else {
            self.ends.push(self.buf.len());
            self.marks.push(Mark {
                line: *seen,
                cut: self.skipping,
            });
        }
    }

    /// The lines read.
    fn lines(&self) -> Vec<&str> {
        if !self.lossy.is_empty() {
            return self.lossy.iter().map(String::as_str).collect();
        }
        let mut at = 0;
        self.ends
            .iter()
            .map(|&end| {
                let line = &self.text[at..end];
                at = end;
                line
            })
            .collect()
    }
}

/// `--at VERSION` names a version some repository was indexed at.
fn check_version(store: &dyn Store, repo: Option<&str>, version: &str) -> Result<(), Failure> {
    let repos = store.repos()?;
    let mut known: Vec<&str> = repos
        .iter()
        .filter(|r| repo.is_none_or(|name| r.repo == name))
        .flat_map(|r| r.versions.iter().map(|v| v.name.as_str()))
        .collect();
    if known.contains(&version) {
        return Ok(());
    }
    known.sort_by(|a, b| errdex_model::version_order(a, b));
    known.dedup();
    let list = match known.len() {
        0 => "no repository was indexed over history (errdex index --tags GLOB)".to_string(),
        _ => format!("indexed versions: {}", known.join(", ")),
    };
    Err(anyhow::anyhow!("--at {version:?}: not an indexed version; {list}").into())
}

/// `--summary`: lines grouped by their outermost error.
struct Summary {
    groups: Vec<Group>,
    /// Lines per group, apart from the groups: a traced line touches only
    /// this dense array and `by_record`, never a group's strings.
    counts: Vec<u64>,
    /// Record (row) → 1 + its group's index, 0 for none yet: traced lines
    /// find their group without hashing anything.
    by_record: Vec<u32>,
    /// Unknown lines' text → their group's index.
    unknown: foldhash::HashMap<String, u32>,
    lines: u64,
    other_unknown: u64,
}

struct Group {
    verdict: Verdict,
    label: String,
    site: String,
}

impl Summary {
    fn new(records: usize) -> Summary {
        Summary {
            groups: Vec::new(),
            counts: Vec::new(),
            by_record: vec![0; records],
            unknown: Default::default(),
            lines: 0,
            other_unknown: 0,
        }
    }

    fn add(&mut self, ex: &Explainer, line: &str, o: Outline) {
        self.lines += 1;
        let (label, site) = match o.top {
            Some(top) => {
                let g = self.by_record[top.0];
                if g > 0 {
                    self.counts[g as usize - 1] += 1;
                    return;
                }
                self.by_record[top.0] = self.groups.len() as u32 + 1;
                let (row, site) = ex.site(top);
                (
                    row.message_pattern.to_string(),
                    format!("{}:{} [{}]", site.file_path, site.line_number, row.repo),
                )
            }
            None => {
                // Unknown lines group by their message, without the prefix.
                let key = line.get(o.prefix_len..).unwrap_or(line).trim();
                if let Some(&g) = self.unknown.get(key) {
                    self.counts[g as usize] += 1;
                    return;
                }
                if self.groups.len() >= MAX_UNKNOWN_GROUPS {
                    self.other_unknown += 1;
                    return;
                }
                self.unknown
                    .insert(key.to_string(), self.groups.len() as u32);
                (key.to_string(), "-".to_string())
            }
        };
        self.counts.push(1);
        self.groups.push(Group {
            verdict: o.verdict,
            label,
            site,
        });
    }

    fn print(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let mut g: Vec<(u64, &Group)> = self.counts.iter().copied().zip(&self.groups).collect();
        g.sort_by(|(a_count, a), (b_count, b)| b_count.cmp(a_count).then(a.label.cmp(&b.label)));
        writeln!(
            out,
            "{:>8}  {:<9}  {:<50}  SITE",
            "COUNT", "VERDICT", "ERROR"
        )?;
        for (count, x) in g {
            writeln!(
                out,
                "{:>8}  {:<9}  {:<50}  {}",
                count,
                x.verdict.as_str(),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn batches(input: &[u8], size: usize) -> Vec<Vec<String>> {
        // A tiny buffer, so lines arrive split across reads.
        batches_read(input, size, 7)
    }

    fn batches_read(input: &[u8], size: usize, buffer: usize) -> Vec<Vec<String>> {
        marked(input, size, buffer)
            .into_iter()
            .map(|b| b.into_iter().map(|(l, _)| l).collect())
            .collect()
    }

    /// Each batch's lines with their marks.
    fn marked(input: &[u8], size: usize, buffer: usize) -> Vec<Vec<(String, Mark)>> {
        let mut r = std::io::BufReader::with_capacity(buffer, input);
        let mut b = Batch::default();
        let mut out = Vec::new();
        let mut seen = 0;
        while b.read(&mut r, size, &mut seen).unwrap() {
            let lines = b.lines().into_iter().map(String::from);
            out.push(lines.zip(b.marks.iter().copied()).collect());
        }
        out
    }

    #[test]
    fn each_line_keeps_its_input_number_and_a_cut_one_says_so() {
        let mut input = b"one\n\n  \ntwo\n".to_vec();
        input.extend(vec![b'x'; MAX_LINE + 10]);
        input.extend(b"\n\nlast");
        let got: Vec<(usize, u64, bool)> = marked(&input, 2, 7)
            .into_iter()
            .flatten()
            .map(|(l, m)| (l.len(), m.line, m.cut))
            .collect();
        assert_eq!(
            got,
            [
                (3, 1, false),
                (3, 4, false),
                (MAX_LINE, 5, true),
                (4, 7, false)
            ]
        );
    }

    #[test]
    fn batches_drop_blank_lines_and_carriage_returns() {
        let got = batches(b"one\r\n\n  \ntwo\nthree", 2);
        assert_eq!(got, vec![vec!["one", "two"], vec!["three"]]);
        assert!(batches(b"", 4).is_empty());
        assert!(batches(b"\n\n \n", 4).iter().all(|b| b.is_empty()));
        // Unicode whitespace is blank too.
        let got = batches("a\n\u{3000}\u{a0}\nb\n".as_bytes(), 4);
        assert_eq!(got, vec![vec!["a", "b"]]);
    }

    #[test]
    fn a_runaway_line_keeps_its_first_bytes_and_the_next_line_follows() {
        let mut input = vec![b'x'; MAX_LINE + 1000];
        input.extend_from_slice(b"\nnext\n");
        let got = batches(&input, 10);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0][0].len(), MAX_LINE);
        assert_eq!(got[0][1], "next");
        // Without a final newline too.
        let got = batches(&vec![b'y'; MAX_LINE + 5], 10);
        assert_eq!(got[0][0].len(), MAX_LINE);
    }

    #[test]
    fn a_full_batch_leaves_the_rest_of_a_read_for_the_next() {
        // One read holds all lines; each batch takes exactly its share.
        let text: String = (0..10).map(|i| format!("line {i}\n")).collect();
        let got = batches_read(text.as_bytes(), 3, 1 << 16);
        let want: Vec<Vec<String>> = (0..10)
            .map(|i| format!("line {i}"))
            .collect::<Vec<_>>()
            .chunks(3)
            .map(<[String]>::to_vec)
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn invalid_utf8_is_replaced_line_by_line() {
        let got = batches(b"ok\nbad \xff byte\n\xe2\x82\n", 10);
        assert_eq!(got, vec![vec!["ok", "bad \u{fffd} byte", "\u{fffd}"]]);
    }
}
