//! The runtime knowledge base ([`errdex_kb`]) in every explainer: its
//! templates, built once per process, read the text a repository's
//! templates leave unexplained (`bind: address already in use` after
//! `listening on %s: %w`), so they never displace a repository's layer.
//! Their candidates carry the entry's meaning, first remedy and
//! documentation; their site numbers follow the explainer's own sites.

use crate::CandidateOut;
use errdex_match::{TemplateSet, TemplateSetBuilder};
use errdex_model::Lang;
use serde::Serialize;
use std::sync::OnceLock;

/// What a record id of the knowledge base starts with.
const ID_PREFIX: &str = "kb:";

/// A candidate's knowledge-base entry, as answers show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Knowledge<'a> {
    /// The entry's key (`errno/EADDRINUSE`); its meaning is the
    /// candidate's documentation.
    pub key: &'a str,
    /// The first thing to do.
    pub remedy: &'a str,
    /// The command that does or checks it, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<&'a str>,
    /// The official documentation.
    pub docs: &'a str,
}

/// What a candidate shows of an entry.
fn of(e: &'static errdex_kb::Entry) -> Option<Knowledge<'static>> {
    let first = e.remedies.first()?;
    Some(Knowledge {
        key: &e.key,
        remedy: &first.action,
        run: first.run.as_deref(),
        docs: &e.docs,
    })
}

/// The knowledge base's templates, built once per process: each
/// distinct template of an entry is a site, numbered from 0 in entry
/// order (an explainer numbers them after its own sites).
pub(crate) struct KnowledgeSet {
    /// Their templates.
    pub(crate) set: TemplateSet,
    sites: Vec<KbSite>,
}

/// What a candidate shows of a knowledge-base site.
struct KbSite {
    id: String,
    repo: String,
    pattern: &'static str,
    entry: &'static errdex_kb::Entry,
    knowledge: Knowledge<'static>,
}

/// The process's knowledge set.
pub(crate) fn set() -> &'static KnowledgeSet {
    static SET: OnceLock<KnowledgeSet> = OnceLock::new();
    SET.get_or_init(build)
}

fn build() -> KnowledgeSet {
    let mut b = TemplateSetBuilder::new();
    let mut sites: Vec<KbSite> = Vec::new();
    for e in errdex_kb::entries() {
        let first = sites.len();
        for t in &e.texts {
            if sites[first..].iter().any(|s| s.pattern == t.text) {
                continue;
            }
            let Some(knowledge) = of(e) else { continue };
            // `err` holds a wrapped cause; every other hole a plain value
            // (a hole named like `errno` would read as a cause).
            let (printf, names) = errdex_kb::printf(&t.text);
            let args: Vec<String> = names
                .into_iter()
                .map(|n| if n == "err" { n } else { "value".to_string() })
                .collect();
            // Its printf form is read by C's dialect.
            let template = errdex_lang::language(Lang::C).template(&printf, &args, "");
            b.add(template, sites.len() as u32, "", 0);
            let (runtime, _) = e.key.split_once('/').unwrap_or(("kb", ""));
            sites.push(KbSite {
                id: format!("{ID_PREFIX}{}", e.key),
                repo: format!("kb/{runtime}"),
                pattern: &t.text,
                entry: e,
                knowledge,
            });
        }
    }
    KnowledgeSet {
        set: b.build(),
        sites,
    }
}

impl KnowledgeSet {
    /// The candidate of knowledge site `site` (numbered from 0), for a
    /// frame the set traced.
    pub(crate) fn candidate(
        &'static self,
        site: u32,
        c: &errdex_match::Candidate,
        payload: u32,
    ) -> Option<CandidateOut<'static>> {
        let s = self.sites.get(site as usize)?;
        Some(CandidateOut {
            id: &s.id,
            repo: &s.repo,
            slug: &s.entry.key,
            message_pattern: s.pattern,
            file_path: "",
            line_number: 0,
            github_url: None,
            score: (c.score * 1000.0).round() / 1000.0,
            function: None,
            hinted: false,
            exact: false,
            documentation: Some(&s.entry.meaning),
            knowledge: Some(s.knowledge),
            first_seen: None,
            last_seen: None,
            removed_in: None,
            built_at_run_time: false,
            site: payload,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::{Explainer, Verdict};

    /// The seven tails, against an atlas with no records at all:
    /// each is traced to the runtime's entries, with a remedy.
    #[test]
    fn standard_library_tails_trace_against_any_atlas() {
        let ex = Explainer::new(Vec::new());
        for (line, innermost) in [
            (
                "listen tcp 127.0.0.1:3986: bind: address already in use",
                "errno/EADDRINUSE",
            ),
            ("open /etc/x: permission denied", "errno/EACCES"),
            (
                "dial tcp 10.0.0.1:5432: connect: connection refused",
                "errno/ECONNREFUSED",
            ),
            (
                "ConnectionRefusedError: [Errno 111] Connection refused",
                "errno/ECONNREFUSED",
            ),
            (
                "Error: connect ECONNREFUSED 127.0.0.1:5432",
                "node/ECONNREFUSED.connect",
            ),
            (
                "x509: certificate signed by unknown authority",
                "go/x509.UnknownAuthorityError",
            ),
            ("context deadline exceeded", "go/context.DeadlineExceeded"),
        ] {
            let e = ex.explain(line);
            assert_eq!(e.verdict, Verdict::Traced, "{line}: {e:?}");
            let last = e.frames.last().unwrap().candidates[0].knowledge.unwrap();
            assert_eq!(last.key, innermost, "{line}");
            assert!(!last.remedy.is_empty() && last.docs.starts_with("https://"));
        }
        // `bind: ` is its own layer between the listener's and the errno's.
        let e = ex.explain("listen tcp 127.0.0.1:3986: bind: address already in use");
        let keys: Vec<&str> = e
            .frames
            .iter()
            .map(|f| f.candidates[0].knowledge.unwrap().key)
            .collect();
        assert_eq!(
            keys,
            [
                "go/net.OpError.listen",
                "go/os.SyscallError.bind",
                "errno/EADDRINUSE"
            ]
        );
    }
}
