//! Where a guard's local name gets its value: `status_code_str =
//! status.split(None, 1)[0]` above `if len(status_code_str) != 3:`. A
//! guard on a local restates a condition no caller can act on; the
//! parameter the local is computed from is what a caller gives, so the
//! advice can name it. Read from the record's source window, the lines
//! between the site's function header and the site, in every language
//! whose assignments read `name = value` (`:=`, `let`, `const`, `var`,
//! tuple targets, `for … in`/`range`/`of`).

/// A local a guard reads, the parameter it is computed from, and the
/// assignments that link them, from the one that reads the parameter to
/// the one that sets the local.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Origin<'a> {
    pub local: &'a str,
    pub param: &'a str,
    pub steps: Vec<&'a str>,
}

impl Origin<'_> {
    /// The assignments as code, in the order they run: `` `a = p.x` ``,
    /// then `` `b = a[0]` ``.
    pub(crate) fn shown(&self) -> String {
        let steps: Vec<String> = self.steps.iter().map(|s| crate::prose::code(s)).collect();
        steps.join(", then ")
    }
}

/// How many assignments a value is followed through.
const MAX_HOPS: usize = 3;

/// Names of a call's error or success result.
const ERRORS: &[&str] = &["err", "e", "ex", "exc", "error", "ok"];

/// The origin of local `name` as seen from line `site` of `source`
/// (lines numbered from `start`) in function `function`, whose
/// parameters are `params`: the nearest assignment to it above the site,
/// then the assignments to the locals that one reads, until one reads a
/// parameter. `None` for a parameter itself, or a value no parameter
/// gives.
pub(crate) fn origin<'a>(
    source: &'a str,
    start: u32,
    site: u32,
    function: &str,
    name: &'a str,
    params: &[&'a str],
) -> Option<Origin<'a>> {
    // An error a call returns is that call's, whatever it was given.
    if params.contains(&name) || ERRORS.contains(&name) {
        return None;
    }
    let lines: Vec<&str> = source.lines().collect();
    let at = usize::try_from(site.checked_sub(start)?).ok()?;
    let body = function_lines(&lines, at.min(lines.len()), function);
    let mut wanted = name;
    let mut to = body.len();
    let mut steps = Vec::new();
    for _ in 0..MAX_HOPS {
        let (i, value) = (0..to)
            .rev()
            .find_map(|i| assigned(body[i], wanted).map(|v| (i, v)))?;
        steps.insert(0, body[i].trim());
        let read: Vec<&str> = subjects(value).filter(|n| *n != wanted).collect();
        if let Some(&param) = params.iter().find(|p| read.contains(p)) {
            return Some(Origin {
                local: name,
                param,
                steps,
            });
        }
        // A name no line above assigns is a package or a global.
        wanted = read
            .into_iter()
            .find(|n| (0..i).any(|k| assigned(body[k], n).is_some()))?;
        to = i;
    }
    None
}

/// The value of the nearest assignment to `name` above line `site` of
/// `source` (lines numbered from `start`) in function `function`, an
/// `if`'s own statement included (`if urls := m[k]; urls == nil {` gives
/// `m[k]; urls == nil {`).
pub(crate) fn assigned_above<'a>(
    source: &'a str,
    start: u32,
    site: u32,
    function: &str,
    name: &str,
) -> Option<&'a str> {
    let lines: Vec<&str> = source.lines().collect();
    let at = usize::try_from(site.checked_sub(start)?).ok()?;
    let body = function_lines(&lines, at.min(lines.len()), function);
    body.iter().rev().find_map(|line| {
        let line = line.trim();
        assigned(line.strip_prefix("if ").unwrap_or(line), name)
    })
}

/// The lines above line `at` that belong to its function: from just
/// after the last line that holds `function(` (its header; a recursive
/// call stops the search early, which only finds less).
fn function_lines<'s, 'a>(lines: &'s [&'a str], at: usize, function: &str) -> &'s [&'a str] {
    let header = format!("{function}(");
    let first = (0..at)
        .rev()
        .find(|&i| lines[i].contains(&header))
        .map_or(0, |i| i + 1);
    &lines[first..at]
}

/// The value `line` assigns to `name`, when it does: `name = v`, `name
/// := v`, `a, name = v`, `let name: T = v`, `for name in v:`, `for _,
/// name := range v {`, `for (const name of v)`.
fn assigned<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let line = line.trim();
    if let Some(rest) = line.strip_prefix("for ") {
        let rest = rest.trim_start_matches('(');
        let (targets, value) = split_for(rest)?;
        return target_names(targets).any(|t| t == name).then(|| {
            value
                .trim_start_matches("range ")
                .trim_end_matches([':', '{', ')', ' '])
        });
    }
    let (targets, value) = split_assignment(line)?;
    target_names(targets).any(|t| t == name).then_some(value)
}

/// `targets in value` or `targets of value` or `targets := range value`.
fn split_for(rest: &str) -> Option<(&str, &str)> {
    [" in ", " of ", " := range "]
        .iter()
        .find_map(|sep| rest.split_once(sep))
}

/// `targets = value` or `targets := value`, not a comparison or an
/// operator's assignment (`==`, `<=`, `+=`).
fn split_assignment(line: &str) -> Option<(&str, &str)> {
    let b = line.as_bytes();
    let eq = (0..b.len()).find(|&i| {
        b[i] == b'='
            && b.get(i + 1) != Some(&b'=')
            && (i == 0 || !b"=!<>+-*/%&|^".contains(&b[i - 1]))
    })?;
    let targets = line[..eq].trim_end_matches(':').trim();
    let value = line[eq + 1..].trim().trim_end_matches(';');
    // A call's keyword argument (`f(a=1)`), a field or an element
    // (`x.a = `, `x[0] = `) is no local's assignment.
    let destructured = ["[", "let [", "const [", "var ["]
        .iter()
        .any(|p| targets.starts_with(p));
    let plain = !targets.contains(['(', '.']) && (destructured || !targets.contains('['));
    (plain && !targets.is_empty() && !value.is_empty()).then_some((targets, value))
}

/// The names a target list binds: `a`, `a, b`, `[a, b]`, `let mut a: T`,
/// `const {a}`, `$a`.
fn target_names(targets: &str) -> impl Iterator<Item = &str> {
    let targets = targets.split(':').next().unwrap_or(targets);
    targets
        .split(|c: char| c == ',' || c.is_whitespace() || "[](){}".contains(c))
        .map(|t| t.trim_start_matches('$'))
        .filter(|t| {
            !t.is_empty() && !matches!(*t, "let" | "mut" | "const" | "var" | "val" | "auto")
        })
}

/// The name `v` starts with, when it is not a call's.
fn leading(v: &str) -> Option<&str> {
    let end = v
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(v.len());
    let name = &v[..end];
    let plain = !name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit());
    (plain && !v[end..].starts_with('(')).then_some(name)
}

/// The names a value may be computed from: the name it starts with
/// (`status.split()`, `range peers`, `cfg.Name + ".etcd"`, or a
/// package's, `strings.SplitN(…)`), then the first argument of its first
/// call (`ReadDir(dir)`, `strings.SplitN(spec, …)`). A name among a
/// call's other arguments (`getPerms(lg, tx, user)`) is not what the
/// value is about.
fn subjects(value: &str) -> impl Iterator<Item = &str> {
    let v = value.trim_start_matches("range ");
    let v = v.trim_start_matches(['&', '*', '(', '[', ' ']);
    let first_argument = v
        .find('(')
        .and_then(|open| leading(v[open + 1..].trim_start_matches(['&', '*', ' '])));
    leading(v).into_iter().chain(first_argument)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of<'a>(
        source: &'a str,
        function: &str,
        name: &'a str,
        params: &[&'a str],
    ) -> Option<Origin<'a>> {
        // The site is the last line of `source`.
        let site = source.lines().count() as u32;
        origin(source, 1, site, function, name, params)
    }

    #[test]
    fn a_local_computed_from_a_parameter_names_it() {
        let py = "def check(self, status, headers):\n    code_str = status.split(None, 1)[0]\n\n    if len(code_str) != 3:\n        warn('Status code must be three digits.')\n";
        assert_eq!(
            of(py, "check", "code_str", &["self", "status", "headers"]),
            Some(Origin {
                local: "code_str",
                param: "status",
                steps: vec!["code_str = status.split(None, 1)[0]"]
            })
        );
        let go = "func parse(spec string) error {\n\tparts := strings.SplitN(spec, \"=\", 2)\n\tif len(parts) != 2 {\n\t\treturn errors.New(\"want name=value\")\n";
        assert_eq!(
            of(go, "parse", "parts", &["spec"]).map(|o| o.param),
            Some("spec")
        );
        let js = "function listen(options) {\n  const port = Number(options.port);\n  if (port < 1) {\n    throw new RangeError('port must be positive');\n";
        assert_eq!(
            of(js, "listen", "port", &["options"]).map(|o| o.param),
            Some("options")
        );
        let rust = "fn open(path: &Path) -> Result<()> {\n    let name: &str = path.to_str()?;\n    if name.is_empty() {\n        bail!(\"empty name\");\n";
        assert_eq!(
            of(rust, "open", "name", &["path"]).map(|o| o.param),
            Some("path")
        );
    }

    #[test]
    fn a_value_is_followed_through_loops_and_tuples() {
        let py = "def check(self, headers):\n    for item in headers:\n        name, value = item\n        if type(name) is not str:\n            warn('Header keys must be strings.')\n";
        let o = of(py, "check", "name", &["self", "headers"]).unwrap();
        assert_eq!(
            (o.param, &o.steps[..]),
            (
                "headers",
                &["for item in headers:", "name, value = item"][..]
            )
        );
        assert_eq!(
            o.shown(),
            "`for item in headers:`, then `name, value = item`"
        );
        let go = "func check(peers []string) error {\n\tfor _, p := range peers {\n\t\tif p == \"\" {\n\t\t\treturn errors.New(\"empty peer\")\n";
        assert_eq!(
            of(go, "check", "p", &["peers"]).map(|o| o.param),
            Some("peers")
        );
        let js = "function check(list) {\n  for (const [k, v] of list) {\n    if (!k) {\n      throw new Error('empty key');\n";
        assert_eq!(
            of(js, "check", "k", &["list"]).map(|o| o.param),
            Some("list")
        );
    }

    #[test]
    fn near_misses_name_no_parameter() {
        // A comparison, an operator's assignment and another function's
        // assignment are no assignments of this function.
        let py = "def other(status):\n    n = status\n\ndef check(self, status):\n    if n == status:\n        n += 1\n    if n > 3:\n        warn('too many')\n";
        assert_eq!(of(py, "check", "n", &["self", "status"]), None);
        // A value from state, not from a parameter.
        let go = "func (s *store) check() error {\n\trev := s.rev\n\tif rev > 3 {\n\t\treturn errors.New(\"stale\")\n";
        assert_eq!(of(go, "check", "rev", &[]), None);
        // A parameter is its own origin; a call's name is not a value.
        let py = "def check(status):\n    size = status_len(3)\n    if size > status:\n        raise ValueError('big')\n";
        assert_eq!(of(py, "check", "status", &["status"]), None);
        assert_eq!(of(py, "check", "size", &["status"]), None);
        // A name among a call's later arguments, and a call's error.
        let go = "func load(lg *Logger, tx Tx, user string) error {\n\tperms := getPerms(lg, tx, user)\n\tents, err := s.Entries(tx, 3)\n\tif perms == nil || err != nil {\n\t\treturn errors.New(\"no perms\")\n";
        assert_eq!(
            of(go, "load", "perms", &["lg", "tx", "user"]).map(|o| o.param),
            Some("lg")
        );
        assert_eq!(of(go, "load", "err", &["lg", "tx", "user"]), None);
        let py = "def load(cache, user):\n    perms = merge(cache.lg, user)\n    if not perms:\n        raise KeyError('none')\n";
        assert_eq!(
            of(py, "load", "perms", &["cache", "user"]).map(|o| o.param),
            Some("cache")
        );
        let py = "def load(a, user):\n    perms = merge(3, user)\n    if not perms:\n        raise KeyError('none')\n";
        assert_eq!(of(py, "load", "perms", &["a", "user"]), None);
        // A keyword argument and an element are no locals.
        let py = "def check(limit):\n    run(n=limit)\n    n[0] = limit\n    if n > 3:\n        raise ValueError('big')\n";
        assert_eq!(of(py, "check", "n", &["limit"]), None);
        // A quoted word is text, not the parameter.
        let py =
            "def check(mode):\n    kind = 'mode'\n    if kind:\n        raise ValueError('bad')\n";
        assert_eq!(of(py, "check", "kind", &["mode"]), None);
    }

    #[test]
    fn the_nearest_assignment_above_is_found_in_the_function() {
        let go = "func (s *store) find(name string) error {\n\tuser, ok := s.users[name]\n\tif !ok {\n\t\treturn errNoUser\n\t}\n\tif urls := s.peers[name]; urls == nil {\n\t\treturn errNoPeer\n\t}\n}\n";
        assert_eq!(
            assigned_above(go, 1, 4, "find", "ok"),
            Some("s.users[name]")
        );
        assert_eq!(
            assigned_above(go, 1, 7, "find", "urls"),
            Some("s.peers[name]; urls == nil {")
        );
        // Another name, or a line of the function above, is no assignment.
        assert_eq!(assigned_above(go, 1, 4, "find", "v2"), None);
        let two = "func a() {\n\tok := true\n}\n\nfunc b() error {\n\tif !ok {\n\t\treturn errX\n\t}\n}\n";
        assert_eq!(assigned_above(two, 1, 7, "b", "ok"), None);
    }
}
