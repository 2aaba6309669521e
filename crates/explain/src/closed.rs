//! Messages whose holes the code fills from a few literals only
//! ([`errdex_model::ClosedHole`]): etcd's `failed to %s %s on %s (%s)`
//! prints `failure.action`, which is only ever `write`, `post`,
//! `heartbeat`, `dial` or `read`. The site's templates are the message
//! with each of those in place, and no template keeps the open hole: a
//! line whose word there is none of them (an older release's `failed to
//! send out heartbeat on time (…)`) is no line of this site.

use errdex_model::{ClosedHole, HoleKind, Segment, Template};

/// Past this many templates for one site, the message keeps its holes.
const MOST_VARIANTS: usize = 32;

/// The templates of `t` with each closed hole's texts in place, or `t`
/// alone when no hole of it is closed (or the texts are too many).
pub(crate) fn expand(t: Template, closed: &[ClosedHole]) -> Vec<Template> {
    variants(&t, closed).unwrap_or_else(|| vec![t])
}

/// The templates of `t` with each closed hole's texts in place; `None`
/// when no hole is closed or the texts are too many.
fn variants(t: &Template, closed: &[ClosedHole]) -> Option<Vec<Template>> {
    let values = |seg: &Segment| match seg {
        // A width or a flag (`%-10s`, `%#v`) prints the text otherwise.
        Segment::Hole(h) if matches!(h.verb.as_str(), "%s" | "%v" | "%+v" | "%q") => closed
            .iter()
            .find(|c| Some(&c.arg) == h.arg.as_ref() && !c.values.is_empty())
            .map(|c| (c, h.kind)),
        _ => None,
    };
    let mut closed_holes = t.segments.iter().filter_map(values).peekable();
    closed_holes.peek()?;
    let count = closed_holes.try_fold(1usize, |n, (c, _)| n.checked_mul(c.values.len()));
    if count.is_none_or(|n| n > MOST_VARIANTS) {
        return None;
    }
    let mut out = vec![Template::default()];
    for seg in &t.segments {
        match (seg, values(seg)) {
            (_, Some((c, kind))) => {
                out = out
                    .iter()
                    .flat_map(|so_far| {
                        c.values.iter().map(move |v| {
                            let mut next = so_far.clone();
                            next.push_lit(&printed(v, kind));
                            next
                        })
                    })
                    .collect();
            }
            (Segment::Lit(l), None) => out.iter_mut().for_each(|o| o.push_lit(l)),
            (Segment::Hole(h), None) => out.iter_mut().for_each(|o| o.push_hole(h.clone())),
        }
    }
    Some(out)
}

/// How a hole of `kind` prints the text `v`.
fn printed(v: &str, kind: HoleKind) -> String {
    match kind {
        HoleKind::Quoted => format!("{v:?}"),
        _ => v.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use errdex_model::Hole;

    fn hole(arg: &str, kind: HoleKind) -> Segment {
        Segment::Hole(Hole {
            kind,
            verb: "%s".into(),
            arg: Some(arg.into()),
            chain: false,
        })
    }

    fn shown(t: &Template) -> String {
        t.segments
            .iter()
            .map(|s| match s {
                Segment::Lit(l) => l.clone(),
                Segment::Hole(h) => format!("<{}>", h.arg.as_deref().unwrap_or("")),
            })
            .collect()
    }

    #[test]
    fn a_closed_hole_is_read_with_each_of_its_texts_in_place() {
        let t = Template {
            segments: vec![
                Segment::Lit("cannot ".into()),
                hole("op.verb", HoleKind::Any),
                Segment::Lit(" ".into()),
                hole("name", HoleKind::Quoted),
                Segment::Lit(": ".into()),
                hole("reason", HoleKind::Any),
            ],
        };
        let closed = |arg: &str, values: &[&str]| ClosedHole {
            arg: arg.into(),
            values: values.iter().map(|v| v.to_string()).collect(),
        };
        let out = expand(t.clone(), &[closed("op.verb", &["dial", "read"])]);
        let out: Vec<String> = out.iter().map(shown).collect();
        assert_eq!(
            out,
            [
                "cannot dial <name>: <reason>",
                "cannot read <name>: <reason>"
            ]
        );
        // A quoted hole prints its text quoted; two closed holes multiply.
        let out = expand(
            t.clone(),
            &[
                closed("op.verb", &["dial", "read"]),
                closed("name", &["a", "b"]),
            ],
        );
        assert_eq!(out.len(), 4);
        assert_eq!(shown(&out[1]), "cannot dial \"b\": <reason>");
        // A hole with a width prints the text padded: it stays open.
        let mut padded = t.clone();
        if let Segment::Hole(h) = &mut padded.segments[1] {
            h.verb = "%-8s".into();
        }
        assert_eq!(
            expand(padded.clone(), &[closed("op.verb", &["dial"])]),
            vec![padded]
        );
        // No hole of the message closed, or too many texts: as it was.
        assert_eq!(
            expand(t.clone(), &[closed("other", &["x"])]),
            vec![t.clone()]
        );
        let many: Vec<String> = (0..40).map(|i| format!("v{i}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert_eq!(expand(t.clone(), &[closed("op.verb", &many)]), vec![t]);
    }
}
