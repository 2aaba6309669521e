//! Progress bars on standard error (hidden when it is not a terminal).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::Duration;

/// Index progress: a spinner while walking, then a bar over files.
pub struct IndexProgress {
    bar: ProgressBar,
    timings: bool,
}

impl IndexProgress {
    /// With `timings`, each phase's end is printed.
    pub fn new(timings: bool) -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("valid template"));
        bar.set_message("finding files…");
        bar.enable_steady_tick(Duration::from_millis(120));
        IndexProgress { bar, timings }
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// The static analysis of `records` records has started.
    pub fn analysing(&self, records: usize) {
        self.bar
            .set_style(ProgressStyle::with_template("{spinner} {msg}").expect("valid template"));
        self.bar
            .set_message(format!("analysing {records} records…"));
    }

    /// A repository named by URL is being cloned or fetched.
    pub fn fetching(&self, url: &str) {
        self.bar.set_message(format!("fetching {url}…"));
    }

    /// A phase outside the extraction ended.
    pub fn phase_done(&self, phase: &str, seconds: f64) {
        errdex_extract::Progress::phase(self, phase, seconds);
    }
}

impl errdex_extract::Progress for IndexProgress {
    fn start(&self, total: u64) {
        self.bar.set_length(total);
        self.bar.set_style(
            ProgressStyle::with_template(
                "{spinner} {prefix}parsing [{bar:30}] {pos}/{len} files, {per_sec}, eta {eta}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
    }

    fn advance(&self) {
        self.bar.inc(1);
    }

    fn version(&self, name: &str, i: usize, total: usize) {
        self.bar.set_prefix(format!("{name} ({}/{total}): ", i + 1));
        self.bar.set_position(0);
        if self.timings {
            self.bar
                .suspend(|| eprintln!("timing: version {name} ({}/{total})", i + 1));
        }
    }

    fn phase(&self, phase: &str, seconds: f64) {
        if self.timings {
            self.bar
                .suspend(|| eprintln!("timing: {phase} done at {seconds:.3} s"));
        }
    }
}
