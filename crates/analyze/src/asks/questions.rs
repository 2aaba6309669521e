//! A question a message asks is its advice. `Did you mean 'user'
//! instead?` names the nearest thing the code knows to what was asked
//! for; `Did you forget to specify values …?` and `Did you mean to use
//! methods …?` name the step the code guesses was left out.

use crate::prose::code;
use crate::Cx;

/// A question a message asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Question {
    /// `Did you mean X?`: the nearest name the code knows (`…` when a
    /// hole gives it).
    Meant(String),
    /// `Did you forget to specify …?` (`forgot`) or `Did you mean to use
    /// …?`: the step, as an imperative clause (`Specify values …`).
    Step { clause: String, forgot: bool },
}

/// The question sentence `s` asks, if it is one of these.
pub(crate) fn question(s: &str) -> Option<Question> {
    let s = s.trim().trim_end_matches('?').trim();
    let lower = s.to_ascii_lowercase();
    let leads = [
        ("did you forget to ", true),
        ("did you mean to ", false),
        ("did you want to ", false),
    ];
    for (lead, forgot) in leads {
        if let Some(at) = lower.find(lead) {
            let clause = capitalised(s[at + lead.len()..].trim());
            return (!clause.is_empty()).then_some(Question::Step { clause, forgot });
        }
    }
    let at = lower.find("did you mean")?;
    let rest = s[at + "did you mean".len()..].trim_start_matches([':', ' ']);
    let rest = match rest.to_ascii_lowercase().strip_suffix(" instead") {
        Some(kept) => &rest[..kept.len()],
        None => rest,
    };
    let rest = rest.trim().trim_end_matches(['.', ',']);
    let name = super::quoted(rest).unwrap_or_else(|| super::unquote(rest));
    let few_words = name.split_whitespace().count() <= 4;
    (!name.is_empty() && few_words).then_some(Question::Meant(name))
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The step question `q` gives.
pub(crate) fn solution(cx: &Cx<'_>, q: &Question) -> String {
    match q {
        Question::Step {
            clause,
            forgot: true,
        } => format!(
            "{}: the message asks whether that step was left out.",
            listed(clause)
        ),
        Question::Step {
            clause,
            forgot: false,
        } => format!(
            "{} if that is what you meant: the message suggests it.",
            listed(clause)
        ),
        Question::Meant(name) => {
            // Words (`the suggested endpoint`) describe the suggestion
            // rather than name it.
            let nearest = match name.as_str() {
                "…" => "the nearest one".to_string(),
                words if words.contains(' ') => "the nearest one".to_string(),
                known => format!("the nearest one, {}", code(known)),
            };
            let (given, add) = match subject(cx) {
                Some(what) => (
                    format!("The {what} asked for"),
                    format!("add {} {what} by the name you gave", article(&what)),
                ),
                None => (
                    "The name given".to_string(),
                    "define the name you gave".to_string(),
                ),
            };
            format!(
                "{given} matches none the code knows, and the message suggests {nearest}: \
                 use it if that is what you meant (a typo), or {add}."
            )
        }
    }
}

/// A clause whose object is a hole (`Give the values …`) with the
/// message's list in its place.
fn listed(clause: &str) -> String {
    match clause.strip_suffix('…') {
        Some(head) => format!("{}the message lists", head),
        None => clause.to_string(),
    }
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// What the names are names of: the field a guard compares with the
/// suggestion (`endpoint` in `self.endpoint == self.suggested.endpoint`),
/// or the word after `unknown`, `no such` or `invalid` in the message
/// (`unknown command …`).
fn subject(cx: &Cx<'_>) -> Option<String> {
    let suggested = ["suggest", "closest", "nearest", "similar"];
    let from_guard = cx.guards().into_iter().find_map(|g| {
        let names: Vec<&str> = super::names(g).collect();
        let hinted = names
            .iter()
            .find(|n| suggested.iter().any(|s| n.to_ascii_lowercase().contains(s)))?;
        let field = hinted.rsplit('.').next()?;
        let compared = names
            .iter()
            .any(|n| n != hinted && n.rsplit('.').next() == Some(field));
        compared.then(|| crate::family::identifier_words(field))
    });
    from_guard.or_else(|| {
        let lower = cx.shown.to_ascii_lowercase();
        ["unknown ", "no such ", "invalid "]
            .iter()
            .find_map(|lead| {
                let at = lower.find(lead)?;
                let word = lower[at + lead.len()..].split_whitespace().next()?;
                let word = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '-');
                (word.len() > 2 && word.chars().all(|c| c.is_alphabetic() || c == '-'))
                    .then(|| word.to_string())
            })
    })
}
