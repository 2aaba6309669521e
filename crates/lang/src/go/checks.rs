//! Where Go code checks for a particular error: `errors.Is(err, ErrX)`,
//! `errors.As(err, &target)` (with `target`'s declared type),
//! `err == ErrX`, `case ErrX:`, `err.(*XError)`, `case *XError:`; and
//! where it returns a sentinel (`return nil, ErrX`), with the function
//! and the condition it returns it under. Read from
//! the bytes of the whole file, not the syntax tree, because the prefilter
//! does not parse declarations without error sites, and checks live
//! mostly in callers. Only names that turn out to be a record's
//! `errorClass` are ever used, so a coincidental match costs nothing.

/// One place that checks for an error by name.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ErrorCheck {
    /// The sentinel or type name checked for (last selector part).
    pub name: String,
    /// The package qualifier written before it (`store` in
    /// `store.ErrNotFound`), if any.
    pub qualifier: Option<String>,
    /// Path of the file.
    pub file_path: String,
    /// 1-based line.
    pub line_number: u32,
    /// `errors.Is`, `errors.As`, `==`, `case`, `type assertion`,
    /// `return` for a place that returns it, `translates` for an entry of
    /// a map of errors whose value it is, or `alias` for a sentinel made
    /// from it (`ErrAuthOldRevision = Error(ErrGRPCAuthOldRevision)`).
    pub how: &'static str,
    /// For a return: the function it is in (`jwtOptions.hmacKey`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
    /// For a return: the condition of the `if` or `case` right above it
    /// (`len(opts.PrivateKey) == 0`, `case 2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard: Option<String>,
    /// For a return: the call whose failure the block tests
    /// (`checkVersionCompatibility` in `if _, _, err :=
    /// checkVersionCompatibility(…); err != nil {`); the sentinel stands
    /// for that failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
    /// For `translates`: the error a map of errors turns into this one
    /// (`auth.ErrAuthOldRevision` in `auth.ErrAuthOldRevision:
    /// rpctypes.ErrGRPCAuthOldRevision,`); for `alias`: the sentinel made
    /// from this one (`ErrAuthOldRevision`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
}

/// The ways of checking, as [`ErrorCheck::how`] names them.
const HOWS: &[&str] = &[
    "errors.Is",
    "errors.As",
    "==",
    "case",
    "type assertion",
    "return",
    "translates",
    "alias",
];

/// An [`ErrorCheck`] as stored, its `how` read back as the name it was
/// written from.
#[derive(serde::Deserialize)]
#[serde(rename = "ErrorCheck")]
struct StoredCheck {
    name: String,
    qualifier: Option<String>,
    file_path: String,
    line_number: u32,
    how: String,
    #[serde(default)]
    function: Option<String>,
    #[serde(default)]
    guard: Option<String>,
    #[serde(default)]
    failed: Option<String>,
    #[serde(default)]
    from: Option<String>,
}

impl<'de> serde::Deserialize<'de> for ErrorCheck {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ErrorCheck, D::Error> {
        let s = <StoredCheck as serde::Deserialize>::deserialize(d)?;
        let how = HOWS
            .iter()
            .find(|h| **h == s.how)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown check {:?}", s.how)))?;
        Ok(ErrorCheck {
            name: s.name,
            qualifier: s.qualifier,
            file_path: s.file_path,
            line_number: s.line_number,
            how,
            function: s.function,
            guard: s.guard,
            failed: s.failed,
            from: s.from,
        })
    }
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The identifier chain starting at `at` (`pkg.ErrX`): its last part and
/// the part before it.
fn last_part(b: &[u8], at: usize) -> Option<(&str, Option<&str>)> {
    let mut end = at;
    while end < b.len() && (is_ident(b[end]) || b[end] == b'.') {
        end += 1;
    }
    let chain = std::str::from_utf8(&b[at..end]).ok()?;
    let mut parts = chain.rsplit('.');
    let last = parts.next()?;
    let qualifier = parts.next().filter(|q| !q.is_empty());
    (!last.is_empty() && !last.as_bytes()[0].is_ascii_digit()).then_some((last, qualifier))
}

/// The type a variable was last declared with in `before`:
/// `var v *pkg.T` or `v := &pkg.T{` (pointer marks removed).
fn declared_type<'s>(before: &'s str, var: &str) -> Option<&'s str> {
    let forms = [
        format!("var {var} "),
        format!("{var} := &"),
        format!("{var} := "),
    ];
    let (at, form) = forms
        .iter()
        .filter_map(|f| before.rfind(f.as_str()).map(|p| (p, f)))
        .max_by_key(|(p, _)| *p)?;
    let rest = before[at + form.len()..]
        .trim_start()
        .trim_start_matches(['*', '&']);
    let n = rest
        .bytes()
        .take_while(|&c| is_ident(c) || c == b'.')
        .count();
    (n > 0).then(|| &rest[..n])
}

/// Every check in one file.
pub(crate) fn error_checks(path: &str, src: &str) -> Vec<ErrorCheck> {
    use aho_corasick::AhoCorasick;
    use std::sync::OnceLock;
    // Only lines holding one of these can check anything; finding them in
    // one pass over the file keeps this off the index's critical path.
    static MARKS: OnceLock<AhoCorasick> = OnceLock::new();
    let marks = MARKS.get_or_init(|| {
        AhoCorasick::new([
            "errors.Is(",
            "errors.As(",
            "== ",
            "!= ",
            "case ",
            ".(",
            "return ",
            "Err",
        ])
        .expect("static patterns")
    });
    let bytes = src.as_bytes();
    let mut lines: Vec<(usize, usize, &str)> = Vec::new();
    let (mut row, mut counted) = (0usize, 0usize);
    let mut last_start = None;
    for m in marks.find_iter(src) {
        let start = memchr::memrchr(b'\n', &bytes[..m.start()]).map_or(0, |p| p + 1);
        if last_start == Some(start) {
            continue; // a line with several marks is read once
        }
        last_start = Some(start);
        row += memchr::memchr_iter(b'\n', &bytes[counted..start]).count();
        counted = start;
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(src.len(), |p| start + p);
        lines.push((row, start, &src[start..end]));
    }
    let mut out = Vec::new();
    for (i, line_start, line) in lines {
        let t = line.trim_start();
        if t.starts_with("//") {
            continue;
        }
        let b = line.as_bytes();
        let mut push = |named: (&str, Option<&str>), how: &'static str| {
            out.push(check_at(path, i, named, how));
        };
        if let Some(r) = sentinel_return(path, src, line_start, i, t) {
            out.push(r);
            continue;
        }
        // A sentinel made from another, or a map entry translating one
        // into another: checked under the one it links to.
        let linked = alias(t)
            .map(|(made, source)| (source, "alias", made))
            .or_else(|| translation(t).map(|(from, to)| (to, "translates", from)));
        if let Some((named, how, other)) = linked {
            let named = last_part(named.as_bytes(), 0).expect("a whole name");
            out.push(ErrorCheck {
                from: Some(other.to_string()),
                ..check_at(path, i, named, how)
            });
            continue;
        }
        // errors.Is(x, target): the second argument.
        let mut from = 0;
        while let Some(p) = line[from..].find("errors.Is(") {
            let args = &line[from + p + "errors.Is(".len()..];
            if let Some(comma) = args.find(',') {
                let target = args[comma + 1..].trim_start();
                let at = b.len() - target.len();
                if let Some(name) = last_part(b, at) {
                    push(name, "errors.Is");
                }
            }
            from += p + 1;
        }
        // errors.As(x, &target): the type `target` was declared with, in
        // the text above (`var target *T`, `target := &T{}`).
        let mut from = 0;
        while let Some(p) = line[from..].find("errors.As(") {
            let args = &line[from + p + "errors.As(".len()..];
            let target = args
                .split_once(',')
                .and_then(|(_, t)| t.trim_start().strip_prefix('&'))
                .map(|t| {
                    let n = t.bytes().take_while(|&c| is_ident(c)).count();
                    &t[..n]
                })
                .filter(|t| !t.is_empty());
            if let Some(ty) = target.and_then(|t| declared_type(&src[..line_start], t)) {
                let tb = ty.as_bytes();
                if let Some(name) = last_part(tb, 0) {
                    push(name, "errors.As");
                }
            }
            from += p + 1;
        }
        // Comparisons and switch cases with a sentinel (`Err…` by Go
        // convention) on either side.
        for op in ["== ", "!= ", "case "] {
            let mut from = 0;
            while let Some(p) = line[from..].find(op) {
                let at = from + p + op.len();
                if let Some(name) = last_part(b, at).filter(|n| n.0.starts_with("Err")) {
                    push(name, if op == "case " { "case" } else { "==" });
                }
                from = at;
            }
        }
        for op in [" == ", " != "] {
            let mut from = 0;
            while let Some(p) = line[from..].find(op) {
                let end = from + p;
                let start = line[..end]
                    .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                    .map_or(0, |s| s + 1);
                if let Some(name) = last_part(b, start).filter(|n| n.0.starts_with("Err")) {
                    push(name, "==");
                }
                from = end + op.len();
            }
        }
        // Typed errors: `x.(*T)`, `x.(T)`, `case *T:`.
        for op in [".(*", ".(", "case *"] {
            let mut from = 0;
            while let Some(p) = line[from..].find(op) {
                let at = from + p + op.len();
                if let Some(name) = last_part(b, at).filter(|n| n.0 != "type") {
                    push(name, "type assertion");
                }
                from = at;
            }
        }
    }
    out.sort_by(|a, b| (a.line_number, &a.name).cmp(&(b.line_number, &b.name)));
    out.dedup_by(|a, b| a.line_number == b.line_number && a.name == b.name);
    out
}

/// A line `return …, ErrX` (or `errX`, qualified or not): the place
/// that returns the sentinel, with its function and the condition of the
/// block it is in.
fn sentinel_return(
    path: &str,
    src: &str,
    line_start: usize,
    row: usize,
    t: &str,
) -> Option<ErrorCheck> {
    let values = t.strip_prefix("return ")?;
    let sentinel = |name: &str| {
        name.strip_prefix("Err")
            .or_else(|| name.strip_prefix("err"))
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
    };
    let (name, qualifier) = values.split(',').find_map(|v| {
        let v = v.trim();
        let b = v.as_bytes();
        let whole = !v.is_empty() && b.iter().all(|&c| is_ident(c) || c == b'.');
        whole
            .then(|| last_part(b, 0))
            .flatten()
            .filter(|(name, _)| sentinel(name))
    })?;
    let above = &src[..line_start];
    let indent = src[line_start..]
        .bytes()
        .take_while(|b| *b == b' ' || *b == b'\t')
        .count();
    Some(ErrorCheck {
        name: name.to_string(),
        qualifier: qualifier.map(str::to_string),
        file_path: path.to_string(),
        line_number: row as u32 + 1,
        how: "return",
        function: enclosing_function(above),
        guard: condition_above(above, indent),
        failed: failed_call_above(above, indent),
        from: None,
    })
}

/// A check of `(name, qualifier)` on line `row` (0-based) of `path`.
fn check_at(
    path: &str,
    row: usize,
    (name, qualifier): (&str, Option<&str>),
    how: &'static str,
) -> ErrorCheck {
    ErrorCheck {
        name: name.to_string(),
        qualifier: qualifier.map(str::to_string),
        file_path: path.to_string(),
        line_number: row as u32 + 1,
        how,
        function: None,
        guard: None,
        failed: None,
        from: None,
    }
}

/// Whether `name`'s last part is named like a sentinel (`ErrX`, `errX`).
fn sentinel_named(name: &str) -> bool {
    let last = name.rsplit('.').next().unwrap_or(name);
    last.strip_prefix("Err")
        .or_else(|| last.strip_prefix("err"))
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
}

/// An entry of a map of errors (`auth.ErrAuthOldRevision:
/// rpctypes.ErrGRPCAuthOldRevision,`): the error the code turns into
/// another, and that other one, both sentinels by name.
fn translation(t: &str) -> Option<(&str, &str)> {
    let t = t.split(" //").next().unwrap_or(t).trim_end();
    let (from, to) = t.strip_suffix(',')?.split_once(':')?;
    let (from, to) = (from.trim(), to.trim());
    let whole = |n: &str| {
        !n.is_empty() && !n.starts_with('.') && n.bytes().all(|c| is_ident(c) || c == b'.')
    };
    (whole(from) && whole(to) && sentinel_named(from) && sentinel_named(to) && from != to)
        .then_some((from, to))
}

/// A sentinel made from another by a call (`ErrAuthOldRevision =
/// Error(ErrGRPCAuthOldRevision)`, `var ErrX = wrap(pkg.ErrY)`): its name
/// and the one it is made from.
fn alias(t: &str) -> Option<(&str, &str)> {
    let t = t.strip_prefix("var ").unwrap_or(t).trim_end();
    let (name, value) = t.split_once(" = ")?;
    let (name, value) = (name.trim(), value.trim());
    let (call, arg) = value.strip_suffix(')')?.split_once('(')?;
    let whole = |n: &str| !n.is_empty() && n.bytes().all(|c| is_ident(c) || c == b'.');
    (whole(name)
        && !name.contains('.')
        && whole(call)
        && whole(arg)
        && sentinel_named(name)
        && sentinel_named(arg))
    .then_some((name, arg))
}

/// The function the text before a line is inside: the last `func` line's
/// name, a method's as `Type.name`.
fn enclosing_function(above: &str) -> Option<String> {
    let at = above
        .rfind("\nfunc ")
        .map(|p| p + 1)
        .or_else(|| above.starts_with("func ").then_some(0))?;
    let line = &above[at + "func ".len()..];
    let line = line.split('\n').next()?;
    let (receiver, rest) = match line.strip_prefix('(') {
        Some(r) => {
            let (recv, rest) = r.split_once(')')?;
            let ty = recv.split_whitespace().last()?.trim_start_matches('*');
            let ty = ty.split('[').next()?;
            (Some(ty), rest.trim_start())
        }
        None => (None, line),
    };
    let name: String = rest
        .chars()
        .take_while(|&c| c.is_alphanumeric() || c == '_')
        .collect();
    if name.is_empty() {
        return None;
    }
    Some(match receiver {
        Some(ty) => format!("{ty}.{name}"),
        None => name,
    })
}

/// The callee of a call assigned to an error in `stmt` (`_, err :=
/// s.check(x)`, `err = f()`): `s.check`, `f`.
fn assigned_call(stmt: &str) -> Option<&str> {
    let (left, right) = stmt.split_once(":= ").or_else(|| stmt.split_once("= "))?;
    if !left.trim().ends_with("err") {
        return None;
    }
    let callee = right.trim().split('(').next()?;
    (!callee.is_empty() && callee.bytes().all(|b| is_ident(b) || b == b'.')).then_some(callee)
}

/// The call whose failure the block holding a line indented by `indent`
/// tests: `if v, err := f(); err != nil {`, or `if err != nil {` after
/// `v, err := f()` in the same block.
fn failed_call_above(above: &str, indent: usize) -> Option<String> {
    let mut lines = above
        .lines()
        .rev()
        .take(BLOCK_LINES)
        .filter(|l| !l.trim().is_empty());
    let opener = lines.find(|l| l.len() - l.trim_start().len() < indent)?;
    let cond = opener.trim().strip_prefix("if ")?.strip_suffix('{')?.trim();
    let (init, test) = match cond.rsplit_once("; ") {
        Some((init, test)) => (Some(init), test),
        None => (None, cond),
    };
    if test.trim() != "err != nil" {
        return None;
    }
    if let Some(init) = init {
        return assigned_call(init).map(str::to_string);
    }
    // The nearest statement of the opener's block above it that assigns
    // `err` (other statements may stand between).
    let level = opener.len() - opener.trim_start().len();
    lines
        .take_while(|l| l.len() - l.trim_start().len() >= level)
        .filter(|l| l.len() - l.trim_start().len() == level)
        .find_map(|l| assigned_call(l.trim()))
        .map(str::to_string)
}

/// Lines looked at above a return for the block it is in.
const BLOCK_LINES: usize = 40;

/// The condition of the `if … {` blocks (joined by `&&`, outermost
/// first) or the `case …:` that hold a line indented by `indent` bytes:
/// each nearest line of `above` indented less opens one (logging between
/// a test and the return is skipped). A test of an error alone (`err !=
/// nil`) says nothing of why, and a loop or a function ends the search.
fn condition_above(above: &str, indent: usize) -> Option<String> {
    let mut conds: Vec<String> = Vec::new();
    let mut indent = indent;
    for l in above.lines().rev().take(BLOCK_LINES) {
        let line = l.trim();
        let here = l.len() - l.trim_start().len();
        if line.is_empty() || here >= indent {
            continue;
        }
        indent = here;
        if let Some(cond) = line.strip_prefix("if ").and_then(|c| c.strip_suffix('{')) {
            // `if v, err := f(); err != nil {`: the test after the statement.
            let cond = cond.rsplit("; ").next().unwrap_or_default().trim();
            if cond.is_empty() || cond.ends_with("err != nil") {
                break;
            }
            conds.push(cond.to_string());
            continue;
        }
        let case = line
            .strip_suffix(':')
            .filter(|c| c.starts_with("case ") || *c == "default");
        if let (Some(case), true) = (case, conds.is_empty()) {
            return Some(case.to_string());
        }
        break;
    }
    conds.reverse();
    if conds.len() == 1 {
        return conds.pop();
    }
    let parts: Vec<String> = conds
        .iter()
        .map(|c| {
            if c.contains("||") {
                format!("({c})")
            } else {
                c.clone()
            }
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join(" && "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentinel_made_from_another_is_its_alias() {
        let src = "package rpctypes\n\
            var (\n\
            \tErrAuthOldRevision      = Error(ErrGRPCAuthOldRevision)\n\
            \tErrOther = errors.New(\"other\")\n\
            )\n\
            var ErrWrapped = wrap(store.ErrGone)\n\
            func f() { err = g(ErrX) }\n";
        let found: Vec<String> = error_checks("rpctypes/error.go", src)
            .iter()
            .filter(|c| c.how == "alias")
            .map(|c| {
                let q = c.qualifier.as_deref().unwrap_or("-");
                format!(
                    "{} {q} {} {}",
                    c.name,
                    c.line_number,
                    c.from.as_deref().unwrap_or("-")
                )
            })
            .collect();
        assert_eq!(
            found,
            [
                "ErrGRPCAuthOldRevision - 3 ErrAuthOldRevision",
                "ErrGone store 6 ErrWrapped"
            ]
        );
    }

    #[test]
    fn a_map_of_errors_translates_its_keys_into_its_values() {
        let src = "package v3rpc\n\
            var toGRPCErrorMap = map[error]error{\n\
            \tauth.ErrAuthOldRevision:      rpctypes.ErrGRPCAuthOldRevision,\n\
            \tErrLocal: ErrWire, // a comment\n\
            \tstatus:   \"ok\",\n\
            \tErrSame: ErrSame,\n\
            }\n";
        let found: Vec<String> = error_checks("v3rpc/util.go", src)
            .iter()
            .filter(|c| c.how == "translates")
            .map(|c| {
                let q = c.qualifier.as_deref().unwrap_or("-");
                let from = c.from.as_deref().unwrap_or("-");
                format!("{} {q} {} {from}", c.name, c.line_number)
            })
            .collect();
        assert_eq!(
            found,
            [
                "ErrGRPCAuthOldRevision rpctypes 3 auth.ErrAuthOldRevision",
                "ErrWire - 4 ErrLocal"
            ]
        );
    }

    #[test]
    fn checks_by_is_comparison_case_and_type() {
        let src = "package p\n\
            func f() {\n\
            \tif errors.Is(err, store.ErrNotFound) {}\n\
            \tif err == ErrStopped || ErrClosed != err {}\n\
            \tswitch err {\n\
            \tcase io.EOF, ErrGone:\n\
            \t}\n\
            \tif ke, ok := err.(*KeyError); ok {}\n\
            \t// if err == ErrCommented {}\n\
            \tswitch err.(type) {\n\
            \tcase *PathError:\n\
            \t}\n\
            }\n";
        let checks = error_checks("p/a.go", src);
        assert_eq!(checks[0].qualifier.as_deref(), Some("store"));
        let got: Vec<(String, u32, &str)> = checks
            .into_iter()
            .map(|c| (c.name, c.line_number, c.how))
            .collect();
        assert!(got.contains(&("ErrNotFound".into(), 3, "errors.Is")));
        assert!(got.contains(&("ErrStopped".into(), 4, "==")));
        assert!(got.contains(&("ErrClosed".into(), 4, "==")));
        assert!(got.contains(&("KeyError".into(), 8, "type assertion")));
        assert!(got.contains(&("PathError".into(), 11, "type assertion")));
        assert!(!got.iter().any(|c| c.0 == "ErrCommented"));
        let as_src = "func g() {\n\tvar pe *fs.PathError\n\tif errors.As(err, &pe) {}\n\tre := &RetryError{}\n\tif errors.As(err, &re) {}\n}\n";
        let found = error_checks("p/b.go", as_src);
        let got: Vec<(&str, Option<&str>, u32)> = found
            .iter()
            .filter(|c| c.how == "errors.As")
            .map(|c| (c.name.as_str(), c.qualifier.as_deref(), c.line_number))
            .collect();
        assert_eq!(
            got,
            vec![("PathError", Some("fs"), 3), ("RetryError", None, 5)]
        );
        assert!(!got.iter().any(|c| c.0 == "type"));
    }

    #[test]
    fn returns_of_a_sentinel_keep_their_function_and_condition() {
        let src = "package auth\n\
            func (opts *jwtOptions) hmacKey() (interface{}, error) {\n\
            \tif len(opts.PrivateKey) == 0 {\n\
            \t\treturn nil, ErrMissingKey\n\
            \t}\n\
            \treturn opts.PrivateKey, nil\n\
            }\n\
            func check(v string) error {\n\
            \tswitch v {\n\
            \tcase \"old\":\n\
            \t\treturn errIncompatibleVersion\n\
            \t}\n\
            \treturn store.ErrGone\n\
            }\n\
            func plain() error {\n\
            \treturn err\n\
            }\n\
            func wrapped() error {\n\
            \treturn fmt.Errorf(\"x: %w\", ErrMissingKey)\n\
            }\n\
            func logged(rev uint64) error {\n\
            \tif rev < current {\n\
            \t\tif lg != nil {\n\
            \t\t\tlg.Warn(\"old\")\n\
            \t\t}\n\
            \t\treturn ErrOld\n\
            \t}\n\
            \tfor {\n\
            \t\tlg.Warn(\"again\")\n\
            \t\treturn ErrLoop\n\
            \t}\n\
            }\n\
            func nested() error {\n\
            \tif priv == nil {\n\
            \t\tif pub == nil || weak {\n\
            \t\t\treturn ErrNoKey\n\
            \t\t}\n\
            \t}\n\
            \tif err := check(); err != nil {\n\
            \t\treturn ErrCheck\n\
            \t}\n\
            \t_, err := s.load(x)\n\
            \tn := 1\n\
            \tif n > 0 {\n\
            \t\tn = 2\n\
            \t}\n\
            \tif err != nil {\n\
            \t\treturn ErrLoad\n\
            \t}\n\
            }\n";
        type Found = (String, Option<String>, u32, Option<String>, Option<String>);
        let returns: Vec<Found> = error_checks("auth/options.go", src)
            .into_iter()
            .filter(|c| c.how == "return")
            .map(|c| (c.name, c.qualifier, c.line_number, c.function, c.guard))
            .collect();
        let s = |v: &str| Some(v.to_string());
        assert_eq!(
            returns,
            vec![
                (
                    "ErrMissingKey".into(),
                    None,
                    4,
                    s("jwtOptions.hmacKey"),
                    s("len(opts.PrivateKey) == 0")
                ),
                (
                    "errIncompatibleVersion".into(),
                    None,
                    11,
                    s("check"),
                    s("case \"old\"")
                ),
                ("ErrGone".into(), s("store"), 13, s("check"), None),
                // The block's test, past the logging between them; a loop's
                // block has none.
                ("ErrOld".into(), None, 26, s("logged"), s("rev < current")),
                ("ErrLoop".into(), None, 30, s("logged"), None),
                // Nested tests, outermost first; a failed call's test alone
                // says nothing.
                (
                    "ErrNoKey".into(),
                    None,
                    36,
                    s("nested"),
                    s("priv == nil && (pub == nil || weak)")
                ),
                ("ErrCheck".into(), None, 40, s("nested"), None),
                ("ErrLoad".into(), None, 48, s("nested"), None),
            ]
        );
        // The sentinel stands for the failure of the call the block tests.
        let failed: Vec<(String, Option<String>)> = error_checks("auth/options.go", src)
            .into_iter()
            .filter(|c| c.how == "return" && c.line_number >= 36)
            .map(|c| (c.name, c.failed))
            .collect();
        assert_eq!(
            failed,
            [
                ("ErrNoKey".into(), None),
                ("ErrCheck".into(), s("check")),
                ("ErrLoad".into(), s("s.load"))
            ]
        );
    }
}
