//! Command-line flags bound to variables in the same file (`cmd.Flags().
//! BoolVarP(&electListen, "listen", "l", false, "…")`, `fs.StringVar(
//! &name, "name", "", "…")`): a guard on the variable is a test of the
//! flag the user types, so a site records the flags its guards read.

/// A flag bound to a variable: `electListen`, `--listen`, `-l`.
struct Binding<'s> {
    var: &'s str,
    long: &'s str,
    short: Option<&'s str>,
}

/// The first string literal of `s` and what follows it.
fn literal(s: &str) -> Option<(&str, &str)> {
    let s = s
        .trim_start()
        .strip_prefix(',')?
        .trim_start()
        .strip_prefix('"')?;
    let end = s.find('"')?;
    Some((&s[..end], &s[end + 1..]))
}

/// Every `…Var(&v, "long", …)` and `…VarP(&v, "long", "s", …)` of the
/// file.
fn bindings(src: &str) -> Vec<Binding<'_>> {
    let mut out = Vec::new();
    for (at, _) in src.match_indices("Var") {
        let rest = &src[at + 3..];
        let (short_form, rest) = match rest.strip_prefix("P(") {
            Some(r) => (true, r),
            None => match rest.strip_prefix('(') {
                Some(r) => (false, r),
                None => continue,
            },
        };
        let Some(rest) = rest.trim_start().strip_prefix('&') else {
            continue;
        };
        let n = rest
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'.')
            .count();
        let var = &rest[..n];
        let Some((long, after)) = literal(&rest[n..]) else {
            continue;
        };
        let short = if short_form {
            literal(after).map(|(s, _)| s).filter(|s| !s.is_empty())
        } else {
            None
        };
        let plain = |s: &str| {
            s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        };
        if !var.is_empty() && long.len() >= 2 && plain(long) {
            out.push(Binding { var, long, short });
        }
    }
    out
}

/// Whether `guard` reads `var` as a whole name (`!electListen`, not
/// `electListener`; `cfg.name`, not `name` alone for `cfg.name`).
fn reads(guard: &str, var: &str) -> bool {
    guard.match_indices(var).any(|(at, _)| {
        let before = guard[..at].chars().next_back();
        let after = guard[at + var.len()..].chars().next();
        let part = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.');
        !part(before) && !part(after)
    })
}

/// For each site, the flags its guards read, as `var=--long` or
/// `var=--long/-s`.
pub(crate) fn attach(src: &str, sites: &mut [crate::PendingSite]) {
    if !src.contains("Var") {
        return;
    }
    let found = bindings(src);
    if found.is_empty() {
        return;
    }
    for p in sites {
        let facts = &mut p.site.facts;
        for b in &found {
            if facts.guards.iter().any(|g| reads(g, b.var)) {
                let short = b.short.map_or(String::new(), |s| format!("/-{s}"));
                let entry = format!("{}=--{}{short}", b.var, b.long);
                if !facts.flag_vars.contains(&entry) {
                    facts.flag_vars.push(entry);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_are_bound_to_the_variables_they_set() {
        let src = r#"
func NewElectCommand() *cobra.Command {
	cmd.Flags().BoolVarP(&electListen, "listen", "l", false, "observation mode")
	fs.StringVar(&cfg.ec.Name, "name", defaultName, "Human-readable name")
	fs.Var(flags.NewUniqueStringsValue(""), "log-outputs", "…")
	fs.IntVar(&n, "x y", 0, "not a flag name")
}"#;
        let got: Vec<(&str, &str, Option<&str>)> = bindings(src)
            .iter()
            .map(|b| (b.var, b.long, b.short))
            .collect();
        assert_eq!(
            got,
            [
                ("electListen", "listen", Some("l")),
                ("cfg.ec.Name", "name", None)
            ]
        );
    }

    #[test]
    fn a_guard_reads_a_variable_by_its_whole_name() {
        assert!(reads("!electListen", "electListen"));
        assert!(reads("len(args) == 1 && electListen", "electListen"));
        assert!(!reads("!electListener", "electListen"));
        assert!(!reads("cfg.electListen", "electListen"));
        assert!(reads("cfg.ec.Name == \"\"", "cfg.ec.Name"));
    }
}
