//! Candidates a rule rules out after matching (a site the line's host
//! could not have run, a printer whose hole holds no message of the
//! function that fills it): they leave their frame, a frame left with
//! none is no layer (its text becomes unmatched), and the verdict is
//! given again.

use crate::{CandidateOut, Explanation, Unmatched};

/// Keeps the candidates of `e` for which `keep(frame, candidate)` holds.
pub(crate) fn retain(e: &mut Explanation, mut keep: impl FnMut(usize, &CandidateOut) -> bool) {
    let mut changed = false;
    for (k, f) in e.frames.iter_mut().enumerate() {
        let before = f.candidates.len();
        f.candidates.retain(|c| keep(k, c));
        let gone = before - f.candidates.len();
        f.candidate_count -= gone.min(f.candidate_count);
        changed |= gone > 0;
    }
    if !changed {
        return;
    }
    let (kept, empty): (Vec<_>, Vec<_>) = std::mem::take(&mut e.frames)
        .into_iter()
        .partition(|f| !f.candidates.is_empty());
    e.frames = kept;
    for f in empty {
        e.unmatched.push(Unmatched {
            text: f.text,
            start: f.start,
            end: f.end,
        });
    }
    e.unmatched.sort_by_key(|u| u.start);
    e.verdict = crate::reading::Tally::of_answer(e).verdict();
}
