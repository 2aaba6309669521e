//! The walk and its three sinks, on the seed fixture's record.

use super::*;

/// The seed fixture's `stop requested`, indexed at a commit and analysed.
fn seed_record() -> Record {
    let seed = errdex_testkit::fixtures().join("seed");
    let sha = "4c8573c808a73d578c5eadc86d410646ea0b0d73";
    let mut ds = errdex_testkit::index_copy(&seed, "kubernetes/kops", Some(sha));
    errdex_analyze::analyze_all(&mut ds.records);
    ds.records
        .into_iter()
        .find(|r| r.slug == "stop-requested")
        .expect("the seed has stop requested")
}

/// Names the sections a walk hands over, in order.
#[derive(Default)]
struct Sections(Vec<&'static str>);

impl Sink for Sections {
    fn heading(&mut self, _: &Record) {
        self.0.push("heading");
    }
    fn meaning(&mut self, _: &str) {
        self.0.push("meaning");
    }
    fn source(&mut self, _: &Record) {
        self.0.push("source");
    }
    fn versions(&mut self, _: &Record) {
        self.0.push("versions");
    }
    fn caused_by(&mut self, _: &[CauseView]) {
        self.0.push("caused_by");
    }
    fn solutions(&mut self, _: &[String]) {
        self.0.push("solutions");
    }
    fn example_fix(&mut self, _: &str) {
        self.0.push("example_fix");
    }
    fn defensive(&mut self, _: Option<&str>, _: &[(&str, Option<&str>)]) {
        self.0.push("defensive");
    }
    fn when(&mut self, _: Option<&str>, _: Option<&str>) {
        self.0.push("when");
    }
    fn prevention(&mut self, _: &[String]) {
        self.0.push("prevention");
    }
    fn sites(&mut self, _: &[Site]) {
        self.0.push("sites");
    }
    fn related(&mut self, _: &[RelatedError], _: &[Record]) {
        self.0.push("related");
    }
    fn family(&mut self, _: &str, _: &[String]) {
        self.0.push("family");
    }
    fn provenance(&mut self, _: &Record) {
        self.0.push("provenance");
    }
}

#[test]
fn a_runtime_cause_shows_its_meaning_and_a_command_with_the_known_port() {
    let mut r = seed_record();
    r.causes = vec![errdex_testkit::listen_cause()];
    let page = html(&r, &[]).into_string();
    in_order(
        &page,
        &[
            "<h2>Caused by</h2>",
            "errno/EADDRINUSE",
            "ss -ltnp 'sport = :3986'",
        ],
    );
    let text = terminal(&r);
    in_order(
        &text,
        &["Caused by", "address already in use (errno/EADDRINUSE, from `serveReadiness → serveReadinessOnAddr → net.Listen`) with addr = 127.0.0.1:3986", "$ ss -ltnp 'sport = :3986'"],
    );
    assert!(markdown(&r, "https://errdex.example/x").contains("## Caused by"));
}

#[test]
fn a_removed_message_says_which_versions_printed_it_with_each_place_pinned() {
    let mut r = seed_record();
    r.first_seen = Some("v1.2.0".into());
    r.last_seen = Some("v1.9.3".into());
    r.removed_in = Some("v1.10.0".into());
    let range = |from: &str, to: &str, file: &str, line: u32| errdex_model::VersionRange {
        from: from.into(),
        to: to.into(),
        commit: "c".repeat(40),
        file_path: file.into(),
        line_number: line,
        github_url: Some(format!(
            "https://github.com/o/p/blob/{}/{file}#L{line}-L{line}",
            "c".repeat(40)
        )),
    };
    r.versions = vec![
        range("v1.2.0", "v1.4.0", "a.go", 10),
        range("v1.5.0", "v1.9.3", "b/a.go", 12),
    ];
    let page = html(&r, &[]).into_string();
    in_order(
        &page,
        &[
            "<h2>Versions</h2>",
            "present in v1.2.0 – v1.9.3, removed in v1.10.0",
            "v1.2.0 – v1.4.0",
            "/a.go#L10-L10",
            "v1.5.0 – v1.9.3",
            "b/a.go:12",
        ],
    );
    in_order(
        &terminal(&r),
        &[
            "Versions",
            "present in v1.2.0 – v1.9.3, removed in v1.10.0",
            "v1.5.0 – v1.9.3: b/a.go:12",
        ],
    );
    assert!(markdown(&r, "https://errdex.example/x").contains("## Versions"));
    r.removed_in = None;
    assert!(terminal(&r).contains("present in v1.2.0 – v1.9.3 (the newest indexed)"));
}

/// `parts` occur in `text` in this order.
fn in_order(text: &str, parts: &[&str]) {
    let mut at = 0;
    for part in parts {
        let found = text[at..]
            .find(part)
            .unwrap_or_else(|| panic!("{part:?} missing or out of order in\n{text}"));
        at += found + part.len();
    }
}

#[test]
fn the_walk_hands_over_the_seed_pages_sections_in_order() {
    let mut r = seed_record();
    r.example_fix = Some("fixed()".into());
    r.prevention_tips = vec!["check first".into()];
    r.background_tag = Some("shutdown".into());
    r.related_errors = vec![RelatedError {
        id: "0123456789abcdef".into(),
        error_message: "other".into(),
    }];
    r.causes = vec![errdex_testkit::listen_cause()];
    let mut s = Sections::default();
    render(&r, &[], &mut s);
    assert_eq!(
        s.0,
        [
            "heading",
            "meaning",
            "source",
            "caused_by",
            "solutions",
            "example_fix",
            "defensive",
            "when",
            "prevention",
            "sites",
            "related",
            "family",
            "provenance"
        ]
    );
    // Absent parts are not handed over; sites, defensive patterns and
    // provenance always are.
    r.documentation = None;
    r.solutions.clear();
    r.example_fix = None;
    r.trigger_scenarios = None;
    r.common_situations = None;
    r.prevention_tips.clear();
    r.related_errors.clear();
    r.causes.clear();
    r.background_tag = None;
    let mut s = Sections::default();
    render(&r, &[], &mut s);
    assert_eq!(
        s.0,
        ["heading", "source", "defensive", "sites", "provenance"]
    );
}

#[test]
fn each_output_shows_the_sections_in_the_seed_pages_order() {
    let r = seed_record();
    in_order(
        &html(&r, &[]).into_string(),
        &[
            "<h1>Error message</h1>",
            "<h2>What it means</h2>",
            "<h2>Source</h2>",
            "id=\"site\"",
            "<h2>Solutions</h2>",
            "<h2>Defensive patterns</h2>",
            "<h2>When it happens</h2>",
            "<h2>All sites</h2>",
            "<footer>",
        ],
    );
    in_order(
        &terminal(&r),
        &[
            "stop requested",
            "\nWhat it means\n",
            "\nSource: ",
            "\nSolutions\n",
            "\nDefensive patterns",
            "\nWhen it happens\n",
            "\nSites (",
            "static analysis of kubernetes/kops@4c8573c808",
        ],
    );
    in_order(
        &markdown(&r, "http://x/kubernetes/kops/stop-requested/"),
        &[
            "# stop requested",
            "Page: http://x/kubernetes/kops/stop-requested/",
            "## What it means",
            "## Source",
            "```go",
            "## Solutions",
            "## Defensive patterns",
            "## When it happens",
            "## All sites",
            "Analysis: static",
        ],
    );
}
