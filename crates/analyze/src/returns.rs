//! Where a sentinel is returned (`SiteFacts::returned_at`): a declared
//! error (`var ErrMissingKey = errors.New("auth: missing key data")`) says
//! nothing of why it happens until the functions that return it, and the
//! conditions they return it under, are named.

use crate::prose::code;
use crate::Cx;
use errdex_model::SiteFacts;

/// One place that returns the sentinel.
pub(crate) struct Return<'a> {
    /// `auth/options.go:112`.
    pub(crate) at: &'a str,
    /// `jwtOptions.hmacKey`.
    pub(crate) function: Option<&'a str>,
    /// `len(opts.PrivateKey) == 0`, `case "old"`.
    pub(crate) guard: Option<&'a str>,
}

/// The places, as `returned_at` lists them (`PATH:LINE [FUNCTION] [when
/// GUARD]`).
pub(crate) fn of(f: &SiteFacts) -> Vec<Return<'_>> {
    f.returned_at
        .iter()
        .map(|s| {
            let (head, guard) = match s.split_once(" when ") {
                Some((h, g)) => (h, Some(g)),
                None => (s.as_str(), None),
            };
            let (at, function) = match head.split_once(' ') {
                Some((a, f)) => (a, Some(f)),
                None => (head, None),
            };
            Return {
                at,
                function,
                guard,
            }
        })
        .collect()
}

/// `` `f` (a.go:3) `` for the documentation's list of returners.
fn returner(r: &Return<'_>) -> String {
    match r.function {
        Some(f) => format!("{} ({})", code(f), r.at),
        None => r.at.to_string(),
    }
}

/// The first place that returns the sentinel, as the documentation names
/// it (`` `f` (a.go:3) ``).
pub(crate) fn first(f: &SiteFacts) -> Option<String> {
    of(f).first().map(returner)
}

/// "It is returned by `f` (a.go:3) and `g` (b.go:9)."
pub(crate) fn documentation(cx: &Cx<'_>) -> Option<String> {
    let returns = of(cx.f);
    if returns.is_empty() {
        return None;
    }
    let mut named: Vec<String> = Vec::new();
    for r in &returns {
        let r = returner(r);
        if !named.contains(&r) {
            named.push(r);
        }
    }
    let more = named.len() > 3;
    named.truncate(3);
    Some(format!(
        "It is returned by {}{}.",
        crate::prose::join_and(&named),
        if more { " and others" } else { "" }
    ))
}

/// The trigger clause of each return: "when `f` returns it because `g`
/// holds (a.go:3)".
/// A function that returns the sentinel under one condition at several
/// places is named once.
pub(crate) fn triggers(f: &SiteFacts) -> Vec<String> {
    let mut returns = of(f);
    let mut seen = Vec::new();
    returns.retain(|r| {
        let key = (r.function, r.guard);
        let new = !seen.contains(&key);
        seen.push(key);
        new
    });
    returns
        .iter()
        .map(|r| {
            let who = r.function.map_or_else(|| "code".to_string(), code);
            match r.guard {
                Some(g) => format!("when {who} returns it because {} ({})", held(g), r.at),
                None => format!("when {who} returns it ({})", r.at),
            }
        })
        .collect()
}

/// How a return's guard reads: `` `x == 0` holds ``, `` the value
/// switched on is `"old"` `` for a `case`, `` `<-ctx.Done()` receives a
/// value `` for a `select`'s, "no case matches" for `default`.
fn held(g: &str) -> String {
    if let Some(values) = g.strip_prefix("case ") {
        // A `select`'s case waits on a channel.
        if values.contains("<-") {
            return format!("{} receives a value", code(values));
        }
        return format!("the value switched on is {}", code(values));
    }
    if g == "default" {
        return "no case of its switch matches".to_string();
    }
    format!("{} holds", code(g))
}

/// A solution per return under a condition: the action the condition's
/// form gives (`len(opts.PrivateKey) == 0`: set it), else the condition
/// to look into, each with the function and place.
pub(crate) fn solutions(cx: &Cx<'_>) -> Vec<String> {
    let mut out = Vec::new();
    let mut actions: Vec<String> = Vec::new();
    for r in of(cx.f) {
        let (Some(g), Some(function)) = (r.guard, r.function) else {
            continue;
        };
        // The value the condition tests is the function's own (a field of
        // its receiver or a parameter): whoever fills it can act.
        let subject = g
            .trim_start_matches("len(")
            .split(['.', ' ', ')', '['])
            .next()
            .unwrap_or_default();
        let action = crate::asks::action(g, &cx.literal, &[subject]);
        // Several functions testing the same value ask for one action.
        if let Some(a) = &action {
            if actions.contains(a) {
                continue;
            }
            actions.push(a.clone());
        }
        out.push(match action {
            Some(a) => format!(
                "{a} ({} returns this error when {} holds, at {}.)",
                code(function),
                code(g),
                r.at
            ),
            None => format!(
                "Find out why {} in {} ({}): it returns this error then.",
                held(g),
                code(function),
                r.at
            ),
        });
        if out.len() == 2 {
            break;
        }
    }
    out
}
