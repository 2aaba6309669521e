use super::*;
use errdex_model::{Hole, HoleKind};

fn template(parts: &[&str]) -> Template {
    let mut t = Template::default();
    for p in parts {
        if let Some(verb) = p.strip_prefix('%') {
            t.push_hole(Hole {
                kind: HoleKind::Any,
                verb: format!("%{verb}"),
                arg: None,
                chain: false,
            });
        } else {
            t.push_lit(p);
        }
    }
    t
}

/// Every anchor occurrence in `text`, words' and literals' alike.
fn occurrences(anchors: &Anchors, text: &str) -> Vec<Occurrence> {
    let mut t = Padded::default();
    t.set(text.as_bytes());
    let mut masks = Vec::new();
    crate::bytes::word_masks(&t, &mut masks);
    let mut occ = Vec::new();
    let warm: &[u8] = &[];
    anchors.find(&t, &masks, &mut [Key::default(); KEY_BATCH], &mut occ, warm);
    anchors.find_rare(&t, &masks, &mut occ);
    occ
}

#[test]
fn pair_hashes_in_texts_are_the_keys_hashes() {
    // A pair found in a text hashes as the key built from a template.
    let key = "parse  config";
    let mut t = Padded::default();
    t.set(b"failed to parse  config: EOF");
    let h1 = finish(span_hash(&t, 10, 15));
    let h2 = finish(span_hash(&t, 17, 23));
    assert_eq!(pair_hash(h1, h2), key_hash(key));
    assert_eq!(h1, key_hash("parse"));
    // Pairs that differ only in their separator share an anchor; the
    // order of the words still counts.
    assert_eq!(key_hash("parse: config"), key_hash(key));
    assert_ne!(key_hash("config parse"), key_hash(key));
    // Words longer than eight bytes hash all their bytes.
    assert_ne!(key_hash("abcdefghij"), key_hash("abcdefghik"));
    assert_ne!(key_hash("abcdefgh"), key_hash("abcdefgh_"));
}

#[test]
fn keys_are_whole_words_and_adjacent_pairs() {
    let t = template(&["open ", "%v", ": permission denied (code", "%d", ")"]);
    assert_eq!(
        keys(&t),
        vec!["denied", "open", "permission", "permission denied"]
    );
    // "code" runs on into the number; ")" has no word.
    let t = template(&["invalid", "%d"]);
    assert!(keys(&t).is_empty());
}

#[test]
fn rarest_key_anchors_and_is_found_in_text() {
    let a = template(&["failed to parse config: ", "%v"]);
    let b = template(&["failed to dial: ", "%v"]);
    let c = template(&["invalid", "%d"]);
    let anchors = Anchors::build([(&a, true), (&b, true), (&c, true)].into_iter());
    let found = |text: &str| -> Vec<u32> {
        let occ = occurrences(&anchors, text);
        let mut ts: Vec<u32> = occ
            .iter()
            .flat_map(|o| anchors.templates(o.anchor).to_vec())
            .collect();
        ts.sort_unstable();
        ts.dedup();
        ts
    };
    assert_eq!(found("failed to parse config: EOF"), vec![0]);
    assert_eq!(found("E1 x.go:3] failed to dial: refused"), vec![1]);
    assert_eq!(found("invalid42"), vec![2]);
    assert!(found("nothing here").is_empty());
}

#[test]
fn mark_literals_are_found_in_the_runs_between_words() {
    // An access log's skeleton: no word of its own, anchored on marks.
    let skeleton = template(&["%s", " - - [", "%s", "] \"", "%s", "\" ", "%s"]);
    let other = template(&["%s", "=> ", "%s"]);
    let anchors = Anchors::build([(&skeleton, true), (&other, true)].into_iter());
    assert!(anchors.literals.automaton.is_none());
    let found = |text: &str| -> Vec<(u32, usize, usize)> {
        occurrences(&anchors, text)
            .iter()
            .flat_map(|o| {
                anchors
                    .templates(o.anchor)
                    .iter()
                    .map(move |&t| (t, o.start, o.end))
            })
            .collect()
    };
    let line = "127.0.0.1 - - [02/Dec/2026 07:59:30] \"GET / HTTP/1.1\" 500 -";
    assert!(found(line).contains(&(0, 9, 15)), "{:?}", found(line));
    // At the very start and end of a text too.
    assert_eq!(found("=> x"), vec![(1, 0, 3)]);
    assert_eq!(found("x => "), vec![(1, 2, 5)]);
    assert!(found("a - b [c] d").is_empty());
}
