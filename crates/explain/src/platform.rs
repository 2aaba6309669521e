//! Sites the line's host could not have run. A syslog or journald header
//! (`host containerd[2639]:`) says the program ran on a Unix host: a site
//! in code built only for Windows (Go's `_windows.go`, a `windows` or
//! `win32` folder) did not print it, however well its template fits.

use crate::{CandidateOut, Explanation};

/// Drops the candidates of `e` that only a Windows build has, when the
/// line's header names a Unix host ([`crate::ruled_out::retain`]).
pub(crate) fn drop_windows_only(e: &mut Explanation, unix_host: bool) {
    if unix_host {
        crate::ruled_out::retain(e, |_, c| !windows_only(c));
    }
}

/// Whether a candidate's file is built only for Windows.
fn windows_only(c: &CandidateOut) -> bool {
    let path = c.file_path;
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    stem.ends_with("_windows")
        || stem.ends_with("_windows_test")
        || path
            .split('/')
            .rev()
            .skip(1)
            .any(|dir| matches!(dir, "windows" | "win32"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FrameOut, Verdict};

    fn cand(file: &'static str) -> CandidateOut<'static> {
        crate::neighbours::tests::cand(file, 1, "f")
    }

    fn explained(frames: Vec<Vec<CandidateOut<'static>>>) -> Explanation<'static> {
        Explanation {
            input: "x".repeat(40),
            prefix: String::new(),
            verdict: Verdict::Traced,
            frames: frames
                .into_iter()
                .enumerate()
                .map(|(i, candidates)| FrameOut {
                    text: "t".into(),
                    start: i * 10,
                    end: i * 10 + 10,
                    candidate_count: candidates.len(),
                    candidates,
                })
                .collect(),
            unmatched: Vec::new(),
            stack: None,
        }
    }

    #[test]
    fn a_unix_hosts_line_is_not_traced_to_windows_only_code() {
        // The only site of the inner layer is Windows-only: that layer goes.
        let mut e = explained(vec![
            vec![cand("pkg/cri/server/sandbox_stop.go")],
            vec![cand("sys/filesys_windows.go")],
        ]);
        drop_windows_only(&mut e, true);
        assert_eq!(e.frames.len(), 1);
        assert_eq!(e.unmatched.len(), 1);
        assert_eq!(e.unmatched[0].start, 10);
        assert_eq!(e.verdict, Verdict::Partial);
        // One of two sites is: the other stays, alone.
        let mut e = explained(vec![vec![
            cand("internal/windows/registry.go"),
            cand("internal/unix/registry.go"),
        ]]);
        drop_windows_only(&mut e, true);
        assert_eq!(e.frames[0].candidates.len(), 1);
        assert_eq!(e.frames[0].candidate_count, 1);
        assert_eq!(e.verdict, Verdict::Traced);
        // Without a Unix header nothing changes; a name that merely holds
        // the word is no build constraint.
        let mut e = explained(vec![vec![cand("sys/filesys_windows.go")]]);
        drop_windows_only(&mut e, false);
        assert_eq!(e.frames.len(), 1);
        let mut e = explained(vec![vec![cand("ui/windowsmanager.go")]]);
        drop_windows_only(&mut e, true);
        assert_eq!(e.frames.len(), 1);
    }
}
