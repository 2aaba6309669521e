//! Guards on a value the message names as a command-line flag
//! (`--log-outputs` in the message, `len(cfg.LogOutputs) != 1` in the
//! guard): the user types the flag, not the variable the code reads, so
//! the step says what to give the flag.

use crate::prose::code;

/// Words a variable adds after its flag's words for the unit it holds
/// (`--election-timeout` read as `ElectionTimeoutMs`).
const UNITS: &[&str] = &["ms", "millis", "s", "sec", "secs", "seconds"];

/// The flags a record's site speaks of: those its message names, and
/// those its file binds to a variable its guards read.
pub(crate) struct Flags {
    named: Vec<String>,
    /// `(variable, flag as shown)`: `("electListen", "--listen (-l)")`.
    bound: Vec<(String, String)>,
}

impl Flags {
    /// The flags of `literal` and those of the site facts' `flag_vars`
    /// (`electListen=--listen/-l`) that the message speaks of: a guard on
    /// a flag the message does not mention picks a mode (`--data-dir`
    /// for an offline run), and leaving the flag out fixes nothing.
    pub(crate) fn of(literal: &str, flag_vars: &[String]) -> Flags {
        let bound = flag_vars
            .iter()
            .filter_map(|b| {
                let (var, flag) = b.split_once('=')?;
                mentions(literal, flag).then_some(())?;
                let shown = match flag.split_once('/') {
                    Some((long, short)) => format!("{long} ({short})"),
                    None => flag.to_string(),
                };
                Some((var.to_string(), shown))
            })
            .collect();
        Flags {
            named: crate::prose::flags(literal),
            bound,
        }
    }

    fn is_empty(&self) -> bool {
        self.named.is_empty() && self.bound.is_empty()
    }
}

/// Whether `literal` mentions the flag `--long/-s`: its name, its words
/// (`peer urls` for `--peer-urls`) or its short form as a word.
fn mentions(literal: &str, flag: &str) -> bool {
    let lower = literal.to_lowercase();
    let (long, short) = match flag.split_once('/') {
        Some((l, s)) => (l, Some(s)),
        None => (flag, None),
    };
    let name = long.trim_start_matches('-').to_lowercase();
    lower.contains(&name)
        || lower.contains(&name.replace('-', " "))
        || short.is_some_and(|s| {
            lower
                .split(|c: char| c.is_whitespace() || "'\"`,()".contains(c))
                .any(|w| w == s)
        })
}

/// The flag that the value `subject` holds: one bound to it, or one the
/// message names with the same words (`cfg.LogOutputs` for
/// `--log-outputs`), those and a unit, a local named with a word before
/// them (`delPrefix` for `--prefix`), or a call that reads the flag by
/// its name (`c.GlobalBool("no-sync")`).
pub(crate) fn flag_of<'a>(flags: &'a Flags, subject: &str) -> Option<&'a str> {
    let subject = subject.trim();
    if let Some((_, shown)) = flags.bound.iter().find(|(var, _)| var == subject) {
        return Some(shown);
    }
    flags
        .named
        .iter()
        .find(|f| holds(f, subject))
        .map(String::as_str)
}

fn holds(flag: &str, subject: &str) -> bool {
    let name = flag.trim_start_matches('-');
    if name.len() < 2 {
        return false;
    }
    if subject.contains('(') {
        return subject.contains(&format!("(\"{name}\")"));
    }
    if !subject
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
    {
        return false;
    }
    let wanted: Vec<String> = crate::family::identifier_words(name)
        .split(' ')
        .map(str::to_string)
        .collect();
    let last = subject.rsplit('.').next().unwrap_or(subject);
    let words: Vec<String> = crate::family::identifier_words(last)
        .split(' ')
        .map(str::to_string)
        .collect();
    let n = wanted.len();
    words == wanted
        || words.len() == n + 1 && words.starts_with(&wanted) && UNITS.contains(&words[n].as_str())
        || !subject.contains('.') && words.len() > n && words.ends_with(&wanted) && name.len() >= 5
}

/// What a test reads of its value.
enum Test<'a> {
    /// Unset, empty or zero-length (`x == ""`, `len(x) == 0`, `x is None`).
    Empty,
    /// Given (`x != ""`, `len(x) > 0`, a bare `x`, `Changed("x")`).
    Given,
    /// Off (`!x`, `not x`).
    Off,
    /// Compared with a value (`len(x) != 1`, `x <= 0`, `x == "capnslog"`).
    Compared {
        count: bool,
        op: &'a str,
        value: &'a str,
    },
}

/// The value a test reads and what it reads of it.
fn test(g: &str) -> Option<(&str, Test<'_>)> {
    let g = g.trim();
    for suffix in [" == \"\"", " == ''", " == nil", " is None", " == null"] {
        if let Some(v) = g.strip_suffix(suffix) {
            return Some((v, Test::Empty));
        }
    }
    for suffix in [" != \"\"", " != ''", " != nil", " is not None", " != null"] {
        if let Some(v) = g.strip_suffix(suffix) {
            return Some((v, Test::Given));
        }
    }
    if let Some(v) = g.strip_prefix('!').or_else(|| g.strip_prefix("not ")) {
        return (!v.contains(' ')).then_some((v, Test::Off));
    }
    for op in [" != ", " == ", " <= ", " >= ", " < ", " > "] {
        if let Some((left, value)) = g.split_once(op) {
            let value = value.trim();
            if value.contains(' ') && !value.starts_with(['"', '\'']) {
                return None;
            }
            let op = op.trim();
            return Some(
                match left.strip_prefix("len(").and_then(|l| l.strip_suffix(')')) {
                    Some(inner) => match (op, value) {
                        ("==", "0") => (inner, Test::Empty),
                        (">", "0") | ("!=", "0") => (inner, Test::Given),
                        _ => (
                            inner,
                            Test::Compared {
                                count: true,
                                op,
                                value,
                            },
                        ),
                    },
                    None => (
                        left,
                        Test::Compared {
                            count: false,
                            op,
                            value,
                        },
                    ),
                },
            );
        }
    }
    (!g.contains(' ')).then_some((g, Test::Given))
}

/// A flag as code: `` `--listen` (`-l`) `` for one with a short form.
fn shown(flag: &str) -> String {
    match flag.split_once(" (") {
        Some((long, short)) => format!("{} ({})", code(long), code(short.trim_end_matches(')'))),
        None => code(flag),
    }
}

/// The step for a test of a flag's value.
fn step_for(flag: &str, t: &Test<'_>) -> String {
    let f = shown(flag);
    match t {
        Test::Empty => format!("Give {f} a value: the code finds it empty."),
        Test::Given => format!("Leave out {f} here: the check applies when it is given."),
        Test::Off => format!("Pass {f}: the check applies while it is off."),
        Test::Compared { count, op, value } => {
            let v = code(value);
            let what = if *count { " values" } else { "" };
            match (*op, *value) {
                ("!=", "1") if *count => format!("Give {f} exactly one value."),
                ("!=", _) if *count => format!("Give {f} exactly {v} values."),
                (">", "1") if *count => format!("Give {f} at most one value."),
                ("!=", _) => format!("Set {f} to {v}: the code expects exactly that."),
                ("==", "0") => format!("Give {f} a value other than 0."),
                // Which other values the code accepts is not known here.
                ("==", _) => format!("This check applies only while {f} is {v}."),
                ("<=", "0") | ("<", "1") => format!("Give {f} a value above 0."),
                (">", _) => format!("Give {f} at most {v}{what}."),
                (">=", _) => format!("Give {f} less than {v}{what}."),
                ("<", _) => format!("Give {f} at least {v}{what}."),
                _ => format!("Give {f} more than {v}{what}."),
            }
        }
    }
}

/// The step for guard `g` when the values it tests are flags the message
/// names: one test, or tests joined by `&&`/`and` of flags the message
/// names. Two different flags given together are refused together: the
/// step passes only one of them.
pub(crate) fn step(flags: &Flags, g: &str) -> Option<String> {
    if flags.is_empty() {
        return None;
    }
    let g = crate::asks::without_double_negation(g.trim());
    let parts: Vec<&str> = if g.contains(" && ") {
        g.split(" && ").collect()
    } else {
        g.split(" and ").collect()
    };
    if parts.iter().any(|p| p.contains("||") || p.contains(" or ")) {
        return None;
    }
    let mut tests = Vec::new();
    for p in &parts {
        let (value, t) = test(p)?;
        tests.push((flag_of(flags, value)?, t));
    }
    let first = tests[0].0;
    if tests.iter().all(|(f, _)| *f == first) {
        // One flag tested twice (`cert == "" && Changed("cert")`): the
        // telling test is the one that is not a bare "given".
        let (f, t) = tests
            .iter()
            .find(|(_, t)| !matches!(t, Test::Given))
            .unwrap_or(&tests[0]);
        return Some(step_for(f, t));
    }
    if tests.len() == 2 && tests.iter().all(|(_, t)| matches!(t, Test::Given)) {
        return Some(format!(
            "Pass only one of {} and {}: the code refuses them together.",
            shown(tests[0].0),
            shown(tests[1].0)
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(m: &str) -> Flags {
        Flags::of(m, &[])
    }

    #[test]
    fn a_flag_is_the_value_named_with_its_words() {
        let f = flags("--log-outputs and --election-timeout, --prefix, --no-sync, -l");
        assert_eq!(flag_of(&f, "cfg.LogOutputs"), Some("--log-outputs"));
        assert_eq!(
            flag_of(&f, "cfg.ElectionTimeoutMs"),
            Some("--election-timeout")
        );
        assert_eq!(flag_of(&f, "delPrefix"), Some("--prefix"));
        assert_eq!(flag_of(&f, "c.GlobalBool(\"no-sync\")"), Some("--no-sync"));
        // A field is not a local that adds a word; a one-letter flag has
        // no words; other words are other values.
        assert_eq!(flag_of(&f, "cfg.delPrefix"), None);
        assert_eq!(flag_of(&f, "l"), None);
        assert_eq!(flag_of(&f, "cfg.ElectionMs"), None);
        assert_eq!(flag_of(&f, "cfg.Outputs"), None);
    }

    #[test]
    fn each_test_of_a_flag_gives_what_to_pass() {
        let f = flags("--logger=capnslog supports only 1 value in '--log-outputs', got %q");
        assert_eq!(
            step(&f, "len(cfg.LogOutputs) != 1").as_deref(),
            Some("Give `--log-outputs` exactly one value.")
        );
        assert_eq!(
            step(&f, "cfg.Logger == \"capnslog\"").as_deref(),
            Some("This check applies only while `--logger` is `\"capnslog\"`.")
        );
        let f = flags("'--name' cannot be empty, --snapshot-count must be >0, --debug");
        assert_eq!(
            step(&f, "mem.Etcd.Name == \"\"").as_deref(),
            Some("Give `--name` a value: the code finds it empty.")
        );
        assert_eq!(
            step(&f, "cfg.SnapshotCount <= 0").as_deref(),
            Some("Give `--snapshot-count` a value above 0.")
        );
        assert_eq!(
            step(&f, "cfg.Debug").as_deref(),
            Some("Leave out `--debug` here: the check applies when it is given.")
        );
        assert_eq!(
            step(&f, "not args.debug").as_deref(),
            Some("Pass `--debug`: the check applies while it is off.")
        );
    }

    #[test]
    fn a_flag_bound_to_the_variable_a_guard_reads_is_that_flag() {
        // `cmd.Flags().BoolVarP(&electListen, "listen", "l", …)` in the file.
        let f = Flags::of(
            "no proposal argument but -l not set",
            &["electListen=--listen/-l".into()],
        );
        assert_eq!(flag_of(&f, "electListen"), Some("--listen (-l)"));
        assert_eq!(
            step(&f, "!electListen").as_deref(),
            Some("Pass `--listen` (`-l`): the check applies while it is off.")
        );
        assert_eq!(flag_of(&f, "electListener"), None);
        // A flag the message does not speak of picks a mode: no step.
        let f = Flags::of(
            "Failed to defragment etcd data[%s] (%v)",
            &["dir=--data-dir".into()],
        );
        assert_eq!(step(&f, "dir != \"\""), None);
        let f = Flags::of(
            "member peer urls not provided",
            &["urls=--peer-urls".into()],
        );
        assert_eq!(flag_of(&f, "urls"), Some("--peer-urls"));
    }

    #[test]
    fn two_flags_refused_together_pass_one_and_one_flag_tested_twice_is_one_step() {
        let f = flags("`--prefix` and `--from-key` cannot be set at the same time");
        assert_eq!(
            step(&f, "delPrefix && delFromKey").as_deref(),
            Some("Pass only one of `--prefix` and `--from-key`: the code refuses them together.")
        );
        let f = flags("empty string is passed to --cert option");
        assert_eq!(
            step(&f, "cert == \"\" && cmd.Flags().Changed(\"cert\")").as_deref(),
            Some("Give `--cert` a value: the code finds it empty.")
        );
        // A test of something else in the same guard leaves it alone.
        assert_eq!(step(&f, "cert == \"\" && strict"), None);
        assert_eq!(step(&f, "cert == \"\" || strict"), None);
    }
}
