//! Real stack traces of a real Java program, traced through the Java
//! corpus: commons-lang3 3.12.0 (`corpora.sh debsrc`), whose Debian jar
//! (libcommons-lang3-java, Implementation-Version 3.12.0) is what runs.
//! Captured by `fixtures/real-java.sh` into `fixtures/real-java.log`:
//! `fixtures/real-java/Main.java` calls `Validate` (notNull, isTrue,
//! notEmpty, notBlank, inclusiveBetween, validIndex, matchesPattern,
//! validState, and an uncaught exclusiveBetween: `Exception in thread
//! "main"`), `StringUtils.abbreviate` with bad widths,
//! `NumberUtils.createNumber`, `LocaleUtils.toLocale`,
//! `RandomStringUtils.random(-1)`, `ArrayUtils.remove`,
//! `DateUtils.parseDate`, `BooleanUtils.toBoolean`, `Range.between`,
//! `Fraction` and `SerializationUtils`, each failure printed by
//! `printStackTrace()` (`Caused by:` chains included).
//!
//! The JDK's own messages (`For input string: "x1"`, `invalid stream
//! header`), and Main's own wrapper, must stay unknown; a
//! `SerializationException` built from its cause (`new
//! SerializationException(ex)`) carries the cause's text, not one of its
//! own.
//!
//! Skips with a notice when the corpus is missing; fails under CI=true.

mod common;

use common::Ties;

#[test]
fn real_java_stack_traces_trace_to_their_sites() {
    let dir = common::corpora().join("debsrc/libcommons-lang3-java");
    let present = dir.join("src/main/java").is_dir();
    if !common::corpus_present(present, &dir.display().to_string(), "debsrc") {
        return;
    }
    let ex = common::explainer([dir]);
    let out = common::check_log(&ex, "java", Ties::Top);
    assert!(out.traced >= 10, "{} real Java lines traced", out.traced);
}
