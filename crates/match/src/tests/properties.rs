//! Property tests: random templates, formatted as their language would,
//! and chains of them, trace back to the sites that made them.

use super::*;
use crate::sample::{render, Rng};

const KINDS: &[(HoleKind, &str)] = &[
    (HoleKind::Any, "%v"),
    (HoleKind::Any, "%s"),
    (HoleKind::Any, "%+v"),
    (HoleKind::Int, "%d"),
    (HoleKind::Int, "%5d"),
    (HoleKind::Int, "%-8d"),
    (HoleKind::Hex, "%x"),
    (HoleKind::Octal, "%o"),
    (HoleKind::Binary, "%b"),
    (HoleKind::Float, "%f"),
    (HoleKind::Float, "%5.2f"),
    (HoleKind::Bool, "%t"),
    (HoleKind::Quoted, "%q"),
    (HoleKind::Char, "%c"),
    (HoleKind::Unicode, "%U"),
    (HoleKind::Pointer, "%p"),
    (HoleKind::Type, "%T"),
    (HoleKind::Any, "%-10s"),
];

fn random_template(r: &mut Rng) -> Template {
    let mut t = Template::default();
    let n = 1 + r.below(4);
    t.push_lit(&format!("{} {} ", r.word(), r.word()));
    for i in 0..n {
        let (k, v) = KINDS[r.below(KINDS.len() as u64) as usize];
        t.push_hole(Hole {
            kind: k,
            verb: v.into(),
            arg: None,
            chain: false,
        });
        if i + 1 < n || r.below(2) == 0 {
            t.push_lit(&format!(" {} ", r.word()));
        }
    }
    t
}

#[test]
fn property_formatted_random_templates_trace_back() {
    let mut r = Rng(0x9e3779b97f4a7c15);
    let templates: Vec<Template> = (0..400).map(|_| random_template(&mut r)).collect();
    let s = set(templates.iter().cloned().zip(0u32..).collect());
    for case in 0..4000 {
        let i = r.below(templates.len() as u64) as usize;
        let line = render(&templates[i], &mut r);
        let t = s.trace(&line, &Hints::default());
        assert!(
            !t.frames.is_empty(),
            "case {case}: {line:?} from {:?}",
            templates[i]
        );
        assert!(
            payloads(&t.frames[0]).contains(&(i as u32)),
            "case {case}: {line:?} matched {:?}, want {i}",
            payloads(&t.frames[0])
        );
    }
}

#[test]
fn property_chains_of_depth_two_to_six() {
    let mut r = Rng(42);
    let mut templates = Vec::new();
    for _ in 0..200 {
        let mut t = Template::default();
        t.push_lit(&format!("{} {}: ", r.word(), r.word()));
        t.push_hole(Hole {
            kind: HoleKind::Any,
            verb: "%w".into(),
            arg: Some("err".into()),
            chain: true,
        });
        templates.push(t);
    }
    let leaves: Vec<Template> = (0..200).map(|_| random_template(&mut r)).collect();
    let mut all: Vec<(Template, u32)> = templates.iter().cloned().zip(0u32..).collect();
    all.extend(leaves.iter().cloned().zip(1000u32..));
    let s = set(all);
    for _ in 0..1000 {
        let depth = 2 + r.below(5) as usize;
        let mut want = Vec::new();
        let mut line = String::new();
        for _ in 0..depth - 1 {
            let i = r.below(templates.len() as u64) as usize;
            want.push(i as u32);
            // The chain hole is filled by the next layer.
            let Segment::Lit(prefix) = &templates[i].segments[0] else {
                unreachable!()
            };
            line.push_str(prefix);
        }
        let tail_known = r.below(4) != 0;
        if tail_known {
            let i = r.below(leaves.len() as u64) as usize;
            want.push(1000 + i as u32);
            line.push_str(&render(&leaves[i], &mut r));
        } else {
            line.push_str("dial tcp 10.0.0.1:2379: connect: connection refused");
        }
        let prefixed = format!("E1129 12:00:03.123456 1 server.go:80] {line}");
        let p = prefix::prepare(&prefixed);
        let t = s.trace(&p.parts[0].text, &p.hints);
        let got: Vec<u32> = t.frames.iter().map(|f| f.candidates[0].payload).collect();
        assert_eq!(got, want, "{line}");
        assert_eq!(t.unmatched.is_empty(), tail_known, "{line}");
    }
}
