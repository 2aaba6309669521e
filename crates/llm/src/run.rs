//! One analysis run: cached answers first, then batches sent to the
//! primary provider by a few worker threads, with retries, back-off, the
//! fallback provider and the token budget; finally an optional verify
//! pass. Results are handed back batch by batch so the caller can store
//! them at once: a killed run keeps what it finished, and the cache makes
//! the re-run free.

use crate::config::Settings;
use crate::error::Error;
use crate::prompt::{self, PROMPT_VERSION};
use crate::provider::Provider;
use crate::validate::validate;
use errdex_analyze::Analysis;
use errdex_model::Record;
use serde_json::Value;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Where answers are cached (the atlas database).
pub trait AnswerCache: Sync {
    /// A cached answer.
    fn get(&self, key: &str) -> Option<String>;
    /// Stores an answer.
    fn put(&self, key: &str, provider: &str, model: &str, answer: &str);
}

impl<S: errdex_store::Store> AnswerCache for S {
    fn get(&self, key: &str) -> Option<String> {
        self.cache_get(key).ok().flatten()
    }
    fn put(&self, key: &str, provider: &str, model: &str, answer: &str) {
        // A cache that cannot be written costs a request next time, not
        // this run.
        let _ = self.cache_put(key, provider, model, answer);
    }
}

/// Counts for the progress line and the summary.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    /// Records answered from the cache.
    pub cached: u64,
    /// Calls made (retries included).
    pub calls: u64,
    /// Records the primary provider analysed.
    pub by_primary: u64,
    /// Records the fallback provider analysed.
    pub by_fallback: u64,
    /// Records that kept the static analysis.
    pub kept_static: u64,
    /// Calls that failed (errors, timeouts, unusable answers).
    pub failed_calls: u64,
    /// Waits for rate limits.
    pub rate_limited: u64,
    /// Tokens used, as providers reported them.
    pub tokens: u64,
    /// Records the verify pass changed.
    pub verified_patched: u64,
    /// Patches rejected because the patched record did not validate.
    pub patches_rejected: u64,
    /// Records done (of this pass).
    pub done: u64,
    /// Why records kept the static analysis (the first few reasons).
    pub reasons: Vec<String>,
}

/// Reasons kept in [`Stats::reasons`].
const REASONS_KEPT: usize = 5;

/// A run's providers and settings.
pub struct Session<'a> {
    /// Limits and timeouts.
    pub settings: Settings,
    /// Writes the prose.
    pub primary: Box<dyn Provider>,
    /// Tried when the primary fails twice.
    pub fallback: Option<Box<dyn Provider>>,
    /// Reviews under `--verify`.
    pub verifier: Option<Box<dyn Provider>>,
    /// Answers already paid for.
    pub cache: &'a dyn AnswerCache,
    /// `analyzedAt` of what this run writes.
    pub now: String,
}

/// A record, its facts (as shown to the model) and their text.
struct Item {
    record: Record,
    facts: Value,
    facts_text: String,
}

/// Rate-limit waits per call before giving up.
const MAX_RATE_WAITS: u32 = 5;

enum Outcome {
    Analysed(Box<Analysis>, &'static str),
    Kept(String),
}

/// What happened to a batch of items sent to one provider.
type Answers = Vec<Result<(Analysis, Value), String>>;

impl Session<'_> {
    /// Analyses `records`; `write` receives finished records (analysed or
    /// kept static) in batches as they complete, and `progress` the counts
    /// after each. Returns the final counts.
    pub fn run(
        &self,
        records: Vec<Record>,
        verify: bool,
        progress: &(dyn Fn(&Stats, &str) + Sync),
        write: &mut dyn FnMut(Vec<Record>),
    ) -> Stats {
        let stats = Mutex::new(Stats::default());
        let tokens = AtomicU64::new(0);
        let items: Vec<Item> = records
            .into_iter()
            .map(|record| {
                let facts = prompt::facts(&record);
                let facts_text = facts.to_string();
                Item {
                    record,
                    facts,
                    facts_text,
                }
            })
            .collect();
        let finished = self.analysis_pass(items, &stats, &tokens, progress, write, verify);
        if verify {
            if let Some(v) = self.verifier.as_deref().or(Some(self.primary.as_ref())) {
                stats.lock().expect("stats lock").done = 0;
                progress(&stats.lock().expect("stats lock"), "verify");
                self.verify_pass(v, finished, &stats, &tokens, progress, write);
            }
        }
        let s = stats.lock().expect("stats lock").clone();
        s
    }

    fn analysis_pass(
        &self,
        items: Vec<Item>,
        stats: &Mutex<Stats>,
        tokens: &AtomicU64,
        progress: &(dyn Fn(&Stats, &str) + Sync),
        write: &mut dyn FnMut(Vec<Record>),
        keep: bool,
    ) -> Vec<Item> {
        let mut kept_items = Vec::new();
        // Cached answers first: no request, and they are written at once.
        let mut pending = Vec::new();
        let mut ready = Vec::new();
        for mut it in items {
            match self.cached(&it, self.primary.as_ref()) {
                Some(a) => {
                    self.apply(&mut it.record, a, self.primary.as_ref());
                    stats.lock().expect("stats lock").cached += 1;
                    ready.push(it);
                }
                None => pending.push(it),
            }
        }
        {
            let mut s = stats.lock().expect("stats lock");
            s.done += ready.len() as u64;
            progress(&s, "analyse");
        }
        if !ready.is_empty() {
            write(ready.iter().map(|i| i.record.clone()).collect());
            if keep {
                kept_items.extend(ready);
            }
        }
        let batches: VecDeque<Vec<Item>> = chunk(pending, self.settings.batch);
        let queue = Mutex::new(batches);
        let (send, receive) = std::sync::mpsc::channel::<Vec<Item>>();
        std::thread::scope(|scope| {
            for _ in 0..self.settings.concurrency {
                let send = send.clone();
                let queue = &queue;
                scope.spawn(move || loop {
                    let Some(mut batch) = queue.lock().expect("queue lock").pop_front() else {
                        break;
                    };
                    let outcomes = self.analyse_batch(&batch, stats, tokens);
                    for (it, o) in batch.iter_mut().zip(outcomes) {
                        match o {
                            Outcome::Analysed(a, who) => {
                                let p = if who == "fallback" {
                                    self.fallback.as_deref().expect("fallback answered")
                                } else {
                                    self.primary.as_ref()
                                };
                                self.apply(&mut it.record, *a, p);
                            }
                            Outcome::Kept(_) => {}
                        }
                    }
                    if send.send(batch).is_err() {
                        break;
                    }
                });
            }
            drop(send);
            for batch in receive {
                {
                    let mut s = stats.lock().expect("stats lock");
                    s.done += batch.len() as u64;
                    progress(&s, "analyse");
                }
                write(batch.iter().map(|i| i.record.clone()).collect());
                if keep {
                    kept_items.extend(batch);
                }
            }
        });
        kept_items
    }

    fn cached(&self, it: &Item, p: &dyn Provider) -> Option<Analysis> {
        let key = prompt::cache_key("analyse", &it.facts, p.name(), p.model());
        let answer = self.cache.get(&key)?;
        let v: Value = serde_json::from_str(&answer).ok()?;
        validate(&v, it.record.language, &it.facts_text).ok()
    }

    fn apply(&self, r: &mut Record, a: Analysis, p: &dyn Provider) {
        a.apply(r, &format!("llm:{}/{}", p.name(), p.model()));
        r.analyzed_at = self.now.clone();
        r.content_changed_at = self.now.clone();
    }

    /// Primary (with one retry), then the fallback (its cache first, then
    /// with one retry), then the static analysis stays.
    fn analyse_batch(
        &self,
        batch: &[Item],
        stats: &Mutex<Stats>,
        tokens: &AtomicU64,
    ) -> Vec<Outcome> {
        let refs: Vec<&Item> = batch.iter().collect();
        let first = self.ask(self.primary.as_ref(), &refs, stats, tokens);
        let mut out: Vec<Outcome> = Vec::with_capacity(batch.len());
        let mut failed: Vec<usize> = Vec::new();
        for (i, r) in first.into_iter().enumerate() {
            match r {
                Ok((a, v)) => {
                    self.store(&batch[i], self.primary.as_ref(), &v);
                    stats.lock().expect("stats lock").by_primary += 1;
                    out.push(Outcome::Analysed(Box::new(a), "primary"));
                }
                Err(e) => {
                    failed.push(i);
                    out.push(Outcome::Kept(e));
                }
            }
        }
        if let (Some(fb), false) = (self.fallback.as_deref(), failed.is_empty()) {
            let mut ask: Vec<usize> = Vec::new();
            for &i in &failed {
                match self.cached(&batch[i], fb) {
                    Some(a) => {
                        stats.lock().expect("stats lock").cached += 1;
                        out[i] = Outcome::Analysed(Box::new(a), "fallback");
                    }
                    None => ask.push(i),
                }
            }
            if !ask.is_empty() {
                let refs: Vec<&Item> = ask.iter().map(|&i| &batch[i]).collect();
                for (k, r) in self.ask(fb, &refs, stats, tokens).into_iter().enumerate() {
                    let i = ask[k];
                    if let Ok((a, v)) = r {
                        self.store(&batch[i], fb, &v);
                        stats.lock().expect("stats lock").by_fallback += 1;
                        out[i] = Outcome::Analysed(Box::new(a), "fallback");
                    }
                }
            }
        }
        let mut s = stats.lock().expect("stats lock");
        for o in &out {
            if let Outcome::Kept(reason) = o {
                s.kept_static += 1;
                if s.reasons.len() < REASONS_KEPT && !s.reasons.contains(reason) {
                    s.reasons.push(reason.clone());
                }
            }
        }
        drop(s);
        out
    }

    fn store(&self, it: &Item, p: &dyn Provider, answer: &Value) {
        let key = prompt::cache_key("analyse", &it.facts, p.name(), p.model());
        self.cache
            .put(&key, p.name(), p.model(), &answer.to_string());
    }

    /// Asks `p` about `items`, retrying once what failed (the whole call,
    /// or the records whose answers did not validate).
    fn ask(
        &self,
        p: &dyn Provider,
        items: &[&Item],
        stats: &Mutex<Stats>,
        tokens: &AtomicU64,
    ) -> Answers {
        let mut results: Answers = vec![Err("not asked".into()); items.len()];
        let mut todo: Vec<usize> = (0..items.len()).collect();
        for _attempt in 0..2 {
            if todo.is_empty() {
                break;
            }
            let batch: Vec<&Record> = todo.iter().map(|&i| &items[i].record).collect();
            let answer = self.call(
                p,
                prompt::SYSTEM,
                &prompt::analysis_prompt(&batch),
                stats,
                tokens,
            );
            let answers = match answer {
                Ok(v) => v,
                Err(e) => {
                    for &i in &todo {
                        results[i] = Err(join_reason(&results[i], &e));
                    }
                    continue;
                }
            };
            let mut still = Vec::new();
            for (k, &i) in todo.iter().enumerate() {
                let it = items[i];
                let a = answer_for(&answers, &it.record.id, k);
                match a.map(|a| (validate(a, it.record.language, &it.facts_text), a)) {
                    Some((Ok(analysis), raw)) => results[i] = Ok((analysis, raw.clone())),
                    Some((Err(problems), _)) => {
                        results[i] = Err(join_reason(&results[i], &problems.join("; ")));
                        still.push(i);
                    }
                    None => {
                        results[i] = Err(join_reason(
                            &results[i],
                            "the answer has no entry for this record",
                        ));
                        still.push(i);
                    }
                }
            }
            if !still.is_empty() {
                stats.lock().expect("stats lock").failed_calls += 1;
            }
            todo = still;
        }
        results
    }

    /// One call with rate-limit back-off and the token budget; the JSON
    /// object the answer holds.
    fn call(
        &self,
        p: &dyn Provider,
        system: &str,
        prompt: &str,
        stats: &Mutex<Stats>,
        tokens: &AtomicU64,
    ) -> Result<Value, String> {
        let timeout = Duration::from_secs(self.settings.timeout_secs);
        let mut waits = 0;
        loop {
            if let Some(budget) = self.settings.token_budget {
                if tokens.load(Ordering::Relaxed) >= budget {
                    return Err(format!("token budget of {budget} spent"));
                }
            }
            stats.lock().expect("stats lock").calls += 1;
            match p.complete(system, prompt, timeout) {
                Ok(c) => {
                    if let Some(t) = c.tokens {
                        tokens.fetch_add(t, Ordering::Relaxed);
                        stats.lock().expect("stats lock").tokens += t;
                    }
                    return match crate::json::locate(&c.text) {
                        Some(v) => Ok(v),
                        None => {
                            stats.lock().expect("stats lock").failed_calls += 1;
                            Err(format!("{}: the answer holds no complete JSON object (truncated or refused)", p.name()))
                        }
                    };
                }
                Err(Error::RateLimited { retry_after }) if waits < MAX_RATE_WAITS => {
                    waits += 1;
                    stats.lock().expect("stats lock").rate_limited += 1;
                    let backoff = retry_after.unwrap_or(Duration::from_secs(1 << waits.min(5)));
                    std::thread::sleep(
                        backoff.min(Duration::from_secs(self.settings.max_backoff_secs)),
                    );
                }
                Err(e) => {
                    stats.lock().expect("stats lock").failed_calls += 1;
                    return Err(format!("{}: {e}", p.name()));
                }
            }
        }
    }

    fn verify_pass(
        &self,
        v: &dyn Provider,
        items: Vec<Item>,
        stats: &Mutex<Stats>,
        tokens: &AtomicU64,
        progress: &(dyn Fn(&Stats, &str) + Sync),
        write: &mut dyn FnMut(Vec<Record>),
    ) {
        for batch in chunk(items, self.settings.batch) {
            let size = batch.len() as u64;
            let mut changed = Vec::new();
            let mut todo: Vec<(usize, String, Value)> = Vec::new();
            let mut patches: Vec<Option<Value>> = vec![None; batch.len()];
            for (i, it) in batch.iter().enumerate() {
                // The key covers the current text too: a record whose prose
                // changed is reviewed again.
                let shown =
                    serde_json::json!({"facts": it.facts, "current": prompt::draft(&it.record)});
                let key = prompt::cache_key("verify", &shown, v.name(), v.model());
                match self
                    .cache
                    .get(&key)
                    .and_then(|s| serde_json::from_str(&s).ok())
                {
                    Some(p) => {
                        stats.lock().expect("stats lock").cached += 1;
                        patches[i] = Some(p);
                    }
                    None => todo.push((i, key, Value::Null)),
                }
            }
            if !todo.is_empty() {
                let recs: Vec<&Record> = todo.iter().map(|(i, _, _)| &batch[*i].record).collect();
                if let Ok(answer) = self.call(
                    v,
                    prompt::VERIFY_SYSTEM,
                    &prompt::verify_prompt(&recs),
                    stats,
                    tokens,
                ) {
                    for (k, (i, key, _)) in todo.iter().enumerate() {
                        if let Some(entry) = answer_for(&answer, &batch[*i].record.id, k) {
                            let p = entry
                                .get("patches")
                                .cloned()
                                .unwrap_or(Value::Object(Default::default()));
                            if p.is_object() {
                                self.cache.put(key, v.name(), v.model(), &p.to_string());
                                patches[*i] = Some(p);
                            }
                        }
                    }
                }
            }
            for (mut it, p) in batch.into_iter().zip(patches) {
                let Some(Value::Object(p)) = p else { continue };
                if p.is_empty() {
                    continue;
                }
                let mut current = prompt::draft(&it.record);
                for (k, val) in p {
                    if current.get(&k).is_some() {
                        current[&k] = val;
                    }
                }
                match validate(&current, it.record.language, &it.facts_text) {
                    Ok(a) => {
                        let who = it
                            .record
                            .analyzer
                            .clone()
                            .unwrap_or_else(|| "static".into());
                        a.apply(
                            &mut it.record,
                            &format!("{who}+verify:llm:{}/{}", v.name(), v.model()),
                        );
                        it.record.analyzed_at = self.now.clone();
                        it.record.content_changed_at = self.now.clone();
                        stats.lock().expect("stats lock").verified_patched += 1;
                        changed.push(it.record);
                    }
                    Err(_) => stats.lock().expect("stats lock").patches_rejected += 1,
                }
            }
            {
                let mut s = stats.lock().expect("stats lock");
                s.done += size;
                progress(&s, "verify");
            }
            if !changed.is_empty() {
                write(changed);
            }
        }
    }
}

/// A record's failure so far, with the latest attempt's reason added.
fn join_reason(so_far: &Result<(Analysis, Value), String>, latest: &str) -> String {
    match so_far {
        Err(prev) if prev != "not asked" => format!("{prev}; then {latest}"),
        _ => latest.to_string(),
    }
}

/// The answer's entry for a record: by id, else by position.
fn answer_for<'a>(answer: &'a Value, id: &str, position: usize) -> Option<&'a Value> {
    let list = answer
        .get("records")
        .and_then(Value::as_array)
        .map(|v| v.as_slice())
        .unwrap_or_else(|| std::slice::from_ref(answer));
    list.iter()
        .find(|e| e.get("id").and_then(Value::as_str) == Some(id))
        .or_else(|| list.get(position).filter(|e| e.get("id").is_none()))
}

fn chunk<T>(items: Vec<T>, size: usize) -> VecDeque<Vec<T>> {
    let mut out = VecDeque::new();
    let mut cur = Vec::with_capacity(size);
    for it in items {
        cur.push(it);
        if cur.len() == size {
            out.push_back(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push_back(cur);
    }
    out
}

/// The prompt version in effect (for the summary).
pub fn prompt_version() -> u32 {
    PROMPT_VERSION
}
