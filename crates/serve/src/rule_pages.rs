//! The pages of `errdex lint`'s rules (`/rules/`, `/rules/ID/`): what each
//! finds, why it matters and what to write instead, in every language it
//! reads. SARIF's `helpUri` links here.

use crate::pages::page;
use crate::{AppState, Failure};
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use errdex_lint::{Rule, RULES};
use maud::{html, Markup};
use std::sync::Arc;

pub(crate) async fn index(State(s): State<Arc<AppState>>) -> Markup {
    index_page(&s)
}

/// The list of rules.
pub(crate) fn index_page(s: &AppState) -> Markup {
    let body = html! {
        h1 { "Lint rules" }
        p { "Run " code { "errdex lint PATH" } " (" code { "--format sarif" } " for code scanning, "
            code { "--baseline FILE" } " so only new findings fail, " code { "--diff REF" } " for pull requests)." }
        table {
            tr { th { "Rule" } th { "Level" } th { "Finds" } }
            @for r in RULES {
                tr {
                    td.m { a href=(format!("/rules/{}/", r.id)) { (r.id) } }
                    td { span.sev { (r.level.as_str()) } }
                    td { (r.summary) }
                }
            }
        }
    };
    page(s, "Lint rules", "/rules/", html! {}, body)
}

pub(crate) async fn rule(
    State(s): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Response, Failure> {
    Ok(match errdex_lint::rules::rule(&id) {
        Some(r) => rule_page(&s, r).into_response(),
        None => crate::pages::not_found(&s, &format!("No lint rule {id}.")),
    })
}

/// One rule: its paragraph, languages and examples.
pub(crate) fn rule_page(s: &AppState, r: &Rule) -> Markup {
    let body = html! {
        p.mut { a href="/rules/" { "Lint rules" } }
        h1 { (r.id) " " span.sev { (r.level.as_str()) } }
        p { strong { (r.summary) } }
        p { (r.explanation) }
        p.mut { "Reads: " (r.languages.join(", ")) ". Run it alone: " code { "errdex lint --rule " (r.id) } "." }
        @for e in r.examples {
            h2 { (e.lang) }
            p.mut { "Reported:" }
            pre { code { (e.bad) } }
            p.mut { "Instead:" }
            pre { code { (e.good) } }
        }
    };
    page(s, r.id, &format!("/rules/{}/", r.id), html! {}, body)
}
