//! Every committed input of every fuzz target, replayed: the seed corpus
//! (`fuzz/corpus/TARGET/`) and every crash or hang AFL++ found
//! (`fuzz/regressions/TARGET/`), so a fixed crash stays fixed.

use std::path::Path;

#[test]
fn every_corpus_and_regression_input_runs_without_a_panic() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut ran = 0;
    for (name, target) in errdex_fuzzing::TARGETS {
        for kind in ["corpus", "regressions"] {
            let Ok(entries) = std::fs::read_dir(fuzz.join(kind).join(name)) else {
                assert_ne!(kind, "corpus", "fuzz/corpus/{name} is missing");
                continue;
            };
            for e in entries {
                let path = e.unwrap().path();
                let data = std::fs::read(&path).unwrap();
                let outcome = std::panic::catch_unwind(|| target(&data));
                assert!(outcome.is_ok(), "{name} panics on {}", path.display());
                ran += 1;
            }
        }
    }
    assert!(ran >= 5 * 3, "{ran} inputs replayed");
}
