//! The two seed documents, reproduced: same paths, lines, snippets and
//! links as the kops records they describe.

use crate::*;
use errdex_model::{ErrorType, Severity};

const SEED_SHA: &str = "4c8573c808a73d578c5eadc86d410646ea0b0d73";

fn seed_record() -> serde_json::Value {
    // A copy of ../shared/seeds/002_0d92c76f23227401.pretty.json.
    let text = std::fs::read_to_string(fixture("seed-record.json")).unwrap();
    serde_json::from_str::<serde_json::Value>(&text).unwrap()["record"].clone()
}

#[test]
fn seed_records_field_by_field_with_overrides() {
    let dir = copy_fixture("seed");
    let mut o = opts(dir.path());
    o.repo = Some("kubernetes/kops".into());
    o.commit = Some(SEED_SHA.into());
    let out = run(&o);
    let ds = &out.dataset;
    assert_eq!(ds.repo, "kubernetes/kops");

    let r = by_pattern(&ds.records, "serving readiness probe: %w");
    let seed = seed_record();
    assert_eq!(r.slug, "serving-readiness-probe-w");
    assert_eq!(r.error_message, "serving readiness probe: %w");
    assert_eq!(r.error_type, ErrorType::Exception);
    assert_eq!(r.file_path, "channels/pkg/cmd/apply_channel.go");
    assert_eq!(r.line_number, 130);
    assert_eq!(r.source_code_start, 112);
    assert_eq!(r.source_code_end, 148);
    assert_eq!(r.source_code, seed["sourceCode"].as_str().unwrap());
    assert_eq!(
        r.github_url.as_deref(),
        Some("https://github.com/kubernetes/kops/blob/4c8573c808a73d578c5eadc86d410646ea0b0d73/channels/pkg/cmd/apply_channel.go#L112-L148")
    );
    assert_eq!(r.analyzed_sha.as_deref(), Some(SEED_SHA));
    assert_eq!(r.schema_version, 2);
    assert_eq!(r.id.len(), 16);
    assert_eq!(r.sites.len(), 1);
    assert_eq!(r.sites[0].function.as_deref(), Some("runApplyChannelLoop"));

    let stop = by_pattern(&ds.records, "stop requested");
    assert_eq!(stop.slug, "stop-requested");
    assert_eq!(stop.file_path, "dns-controller/pkg/dns/dnscontroller.go");
    assert_eq!(stop.line_number, 265);
    assert_eq!((stop.source_code_start, stop.source_code_end), (247, 283));
    let sites: Vec<(u32, Option<&str>)> = stop
        .sites
        .iter()
        .map(|s| (s.line_number, s.function.as_deref()))
        .collect();
    assert_eq!(
        sites,
        vec![
            (265, Some("DNSController.runOnce")),
            (306, Some("DNSController.RemoveRecordsImmediate"))
        ]
    );
    assert_eq!(
        stop.sites[1].github_url.as_deref(),
        Some("https://github.com/kubernetes/kops/blob/4c8573c808a73d578c5eadc86d410646ea0b0d73/dns-controller/pkg/dns/dnscontroller.go#L288-L314")
    );
    assert!(stop.source_code.contains("if c.StopRequested() {"));
    // The analysis' input: the guard that leads to both sites, inside the
    // controller's loop.
    for site in &stop.sites {
        assert_eq!(site.facts.guards, vec!["c.StopRequested()"]);
        assert_eq!(site.facts.receiver.as_deref(), Some("DNSController"));
        assert!(site.facts.in_loop);
    }
    let probe = &by_pattern(&ds.records, "serving readiness probe: %w").sites[0].facts;
    assert_eq!(probe.wrapped_call.as_deref(), Some("serveReadiness"));
    assert!(probe.wrapped_call_comment.as_deref().is_some_and(
        |c| c.starts_with("In daemon mode kops-channels runs as a system-node-critical static pod")
    ));
    assert!(probe
        .doc
        .as_deref()
        .is_some_and(|d| d.starts_with("runApplyChannelLoop reconciles repeatedly")));
    assert!(!probe.in_loop);
    assert_eq!(
        probe.callers,
        vec!["channels/pkg/cmd/apply_channel.go:42 RunApplyChannelCmd"]
    );

    // The warning logged in the apply loop is its own record.
    let warn = by_pattern(
        &ds.records,
        "error in apply iteration (will retry in %s): %v",
    );
    assert_eq!(warn.severity, Severity::Warning);
    assert_eq!(warn.error_type, ErrorType::Log);
}

#[test]
fn commit_and_remote_are_read_from_git() {
    let dir = copy_fixture("seed");
    git(dir.path(), &["init", "-q"]);
    git(
        dir.path(),
        &[
            "remote",
            "add",
            "origin",
            "git@github.com:kubernetes/kops.git",
        ],
    );
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-qm", "seed"]);
    let sha = git(dir.path(), &["rev-parse", "HEAD"]);
    let out = run(&opts(dir.path()));
    let ds = &out.dataset;
    assert_eq!(ds.repo, "kubernetes/kops");
    assert_eq!(ds.commit.as_deref(), Some(sha.as_str()));
    assert_eq!(
        ds.remote_url.as_deref(),
        Some("git@github.com:kubernetes/kops.git")
    );
    let r = by_pattern(&ds.records, "serving readiness probe: %w");
    assert_eq!(
        r.github_url.clone().unwrap(),
        format!("https://github.com/kubernetes/kops/blob/{sha}/channels/pkg/cmd/apply_channel.go#L112-L148")
    );

    // Indexing a sub-folder keeps repository-relative paths and links.
    let out = run(&opts(&dir.path().join("channels")));
    let r = by_pattern(&out.dataset.records, "serving readiness probe: %w");
    assert_eq!(r.file_path, "channels/pkg/cmd/apply_channel.go");
    assert!(r
        .github_url
        .as_deref()
        .unwrap()
        .ends_with("/channels/pkg/cmd/apply_channel.go#L112-L148"));
}

#[test]
fn plain_folder_has_no_links_and_ids_survive_moves() {
    let dir = copy_fixture("seed");
    let out = run(&opts(dir.path()));
    let ds = &out.dataset;
    assert!(ds.repo.starts_with("local/"));
    assert!(ds.commit.is_none());
    assert!(ds.records.iter().all(|r| r.github_url.is_none()));
    let before = by_pattern(&ds.records, "stop requested").id.clone();
    let slug_before = by_pattern(&ds.records, "stop requested").slug.clone();

    // Move the file and shift its lines: the id and slug stay.
    let old = dir.path().join("dns-controller/pkg/dns/dnscontroller.go");
    let text = std::fs::read_to_string(&old).unwrap();
    std::fs::remove_file(&old).unwrap();
    std::fs::create_dir_all(dir.path().join("moved")).unwrap();
    std::fs::write(
        dir.path().join("moved/dns.go"),
        format!("// shifted\n\n{text}"),
    )
    .unwrap();
    let mut o = opts(dir.path());
    o.repo = Some(ds.repo.clone());
    let out = run(&o);
    let r = by_pattern(&out.dataset.records, "stop requested");
    assert_eq!(r.id, before);
    assert_eq!(r.slug, slug_before);
    assert_eq!(r.line_number, 267);
    assert_eq!(r.file_path, "moved/dns.go");
}
