//! `--diff REF`: the lines changed since REF (committed or not), from
//! `git diff`, and files git does not track yet, whole.

use crate::Error;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::process::Command;

/// Lines changed since a ref, by file (paths relative to the linted
/// folder).
#[derive(Debug, Default)]
pub struct ChangedLines {
    ranges: HashMap<String, Vec<(u32, u32)>>,
    whole: HashSet<String>,
}

impl ChangedLines {
    /// Asks git what changed in `root` since `reference`.
    pub fn since(root: &Path, reference: &str) -> Result<ChangedLines, Error> {
        let fail = |message: String| Error::Diff {
            reference: reference.to_string(),
            message,
        };
        let diff = git(
            root,
            &[
                "diff",
                "--relative",
                "--unified=0",
                "--no-color",
                "--no-ext-diff",
                reference,
                "--",
            ],
        )
        .map_err(fail)?;
        let mut changed = ChangedLines::parse(&diff);
        let new = git(root, &["ls-files", "--others", "--exclude-standard"]).map_err(fail)?;
        changed.whole.extend(new.lines().map(str::to_string));
        Ok(changed)
    }

    /// Reads `git diff --unified=0` output.
    pub fn parse(diff: &str) -> ChangedLines {
        let mut out = ChangedLines::default();
        let mut file: Option<String> = None;
        for line in diff.lines() {
            if let Some(path) = line.strip_prefix("+++ ") {
                file = path.strip_prefix("b/").map(str::to_string);
            } else if let (Some(f), Some(hunk)) = (&file, line.strip_prefix("@@ ")) {
                if let Some(range) = new_side(hunk) {
                    out.ranges.entry(f.clone()).or_default().push(range);
                }
            }
        }
        out
    }

    /// Whether the line is new or changed.
    pub fn contains(&self, file: &str, line: u32) -> bool {
        self.whole.contains(file)
            || self
                .ranges
                .get(file)
                .is_some_and(|r| r.iter().any(|(a, b)| (*a..=*b).contains(&line)))
    }
}

/// `-12,3 +14,2 @@ …` → lines 14–15; `+14,0` (only removed) → none.
fn new_side(hunk: &str) -> Option<(u32, u32)> {
    let plus = hunk.split_whitespace().find(|w| w.starts_with('+'))?;
    let (start, count) = match plus[1..].split_once(',') {
        Some((s, c)) => (s.parse::<u32>().ok()?, c.parse::<u32>().ok()?),
        None => (plus[1..].parse::<u32>().ok()?, 1),
    };
    (count > 0).then(|| (start, start + count - 1))
}

fn git(root: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run git: {e}; --diff needs git on PATH"))?;
    if !out.status.success() {
        let why = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "git {} failed: {}; give a commit, branch or tag of {}",
            args[0],
            why.trim(),
            root.display()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_give_the_new_lines_and_removals_give_none() {
        let diff = "diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -3,0 +4,2 @@ func a\n+a\n+b\n@@ -10 +12 @@\n-x\n+y\n@@ -20,2 +21,0 @@\n-p\n-q\n+++ /dev/null\n";
        let c = ChangedLines::parse(diff);
        assert!(c.contains("x.go", 4) && c.contains("x.go", 5) && c.contains("x.go", 12));
        assert!(!c.contains("x.go", 6) && !c.contains("x.go", 21) && !c.contains("y.go", 4));
    }
}
