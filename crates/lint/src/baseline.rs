//! Baselines: today's findings recorded in a file, so that only new ones
//! fail a check. Findings are matched by rule, file and fingerprint, which
//! survive moved lines.

use crate::{Error, Finding};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::path::Path;

/// The findings a baseline file holds.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Baseline {
    /// What the file is, for a reader who finds it.
    #[serde(default)]
    pub about: String,
    /// The findings, as recorded.
    pub findings: Vec<Entry>,
}

/// One recorded finding.
#[derive(Debug, Serialize, Deserialize)]
pub struct Entry {
    /// Its rule.
    pub rule: String,
    /// Its file.
    pub file: String,
    /// Its fingerprint.
    pub fingerprint: String,
    /// Its message, for people reading the file.
    #[serde(default)]
    pub message: String,
}

impl Baseline {
    /// The baseline of these findings.
    pub fn of(findings: &[Finding]) -> Baseline {
        Baseline {
            about: "errdex lint baseline: findings recorded here do not fail `errdex lint --baseline`; delete an entry to see it again".into(),
            findings: findings
                .iter()
                .map(|f| Entry {
                    rule: f.rule.to_string(),
                    file: f.file.clone(),
                    fingerprint: f.fingerprint.clone(),
                    message: f.message.clone(),
                })
                .collect(),
        }
    }

    /// Reads a baseline file.
    pub fn read(path: &Path) -> Result<Baseline, Error> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::File {
            path: path.to_path_buf(),
            message: format!("cannot read the baseline: {e}"),
        })?;
        serde_json::from_str(&text).map_err(|e| Error::File {
            path: path.to_path_buf(),
            message: format!("not an errdex lint baseline ({e}); write one with --update-baseline"),
        })
    }

    /// Writes it, pretty-printed, one finding per entry.
    pub fn write(&self, path: &Path) -> Result<(), Error> {
        let text = serde_json::to_string_pretty(self).expect("a baseline serialises");
        std::fs::write(path, text + "\n").map_err(|e| Error::File {
            path: path.to_path_buf(),
            message: format!("cannot write the baseline: {e}"),
        })
    }

    /// The findings it does not hold.
    pub fn new_findings(&self, findings: Vec<Finding>) -> Vec<Finding> {
        let known: HashSet<(&str, &str, &str)> = self
            .findings
            .iter()
            .map(|e| (e.rule.as_str(), e.file.as_str(), e.fingerprint.as_str()))
            .collect();
        findings
            .into_iter()
            .filter(|f| !known.contains(&(f.rule, f.file.as_str(), f.fingerprint.as_str())))
            .collect()
    }
}
