//! A site's function's parameters, read from its signature, and the values
//! its callers pass them, read from the callers' lines.

use errdex_model::Lang;

/// The names of the parameters of `function` in `signature`, in order,
/// without the receiver a method call does not pass (`self`, `cls`,
/// `this`): `def f(self, s, name='x'):` → `s`, `name`; `func (c *C) f(a,
/// b string) error` → `a`, `b`; `void f(const char *prefix)` → `prefix`;
/// `function f($a, string $b = '')` → `a`, `b`.
pub(super) fn parameter_names(signature: &str, function: &str, lang: Lang) -> Vec<String> {
    let name = function.rsplit(['.', ':']).next().unwrap_or(function);
    let Some(list) = call_arguments(signature, name) else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|p| parameter_name(p, lang))
        .filter(|p| !matches!(p.as_str(), "self" | "cls" | "this"))
        .collect()
}

/// One parameter's name: the `$` word in PHP; the last name before a
/// default in the languages that write the type first (C, C++, Java, C#);
/// else the first name (`name: str`, `a string`, `*args`, `mut n: u8`).
fn parameter_name(param: &str, lang: Lang) -> Option<String> {
    let head = param.split('=').next().unwrap_or(param);
    let words: Vec<&str> = head
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| !w.is_empty() && *w != "mut")
        .collect();
    if let Some(php) = words.iter().find(|w| w.starts_with('$')) {
        return Some(php.trim_start_matches('$').to_string());
    }
    let type_first = matches!(lang, Lang::C | Lang::Cpp | Lang::Java | Lang::CSharp);
    let before_type = head.split(':').next().unwrap_or(head);
    let picked = if type_first {
        words.last()
    } else {
        words.iter().find(|w| before_type.contains(**w))
    };
    picked
        .filter(|w| w.starts_with(|c: char| c.is_alphabetic() || c == '_'))
        .map(|w| w.to_string())
}

/// The arguments of the first call of `name` in `text` (`name(` after a
/// character that ends no name), split at the commas of its own level,
/// each trimmed; `None` when `text` holds no such call, or it does not
/// close.
pub(super) fn call_arguments(text: &str, name: &str) -> Option<Vec<String>> {
    let mut from = 0;
    let open = loop {
        let at = from + text[from..].find(name)?;
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].trim_start();
        let starts_name = before.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        if starts_name && after.starts_with('(') {
            break text.len() - after.len() + 1;
        }
        from = at + name.len();
    };
    split_level(&text[open..])
}

/// The comma-separated pieces up to the `)` that closes the list, quotes
/// and nested brackets kept whole.
pub(super) fn split_level(text: &str) -> Option<Vec<String>> {
    let mut pieces = Vec::new();
    let mut cur = String::new();
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in text.chars() {
        if let Some(q) = quote {
            cur.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                _ if c == q => quote = None,
                _ => {}
            }
            continue;
        }
        match c {
            '"' | '\'' | '`' => quote = Some(c),
            '(' | '[' | '{' | '<' => depth += 1,
            ')' if depth == 0 => {
                if !cur.trim().is_empty() || !pieces.is_empty() {
                    pieces.push(cur.trim().to_string());
                }
                return Some(pieces);
            }
            ')' | ']' | '}' | '>' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                pieces.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    None
}

/// The argument a call gives parameter `name` at position `index`: by
/// keyword first (`f(x, structure_name='JWS')`, `name: 'JWS'`), else by
/// position; `None` for a spread (`*args`, `...rest`).
pub(super) fn argument_for(args: &[String], index: usize, name: &str) -> Option<String> {
    let keyword = args.iter().find_map(|a| {
        let (k, v) = a.split_once(['=', ':'])?;
        (k.trim() == name && !v.starts_with('=')).then(|| v.trim().to_string())
    });
    if keyword.is_some() {
        return keyword;
    }
    let spread = |a: &String| a.starts_with('*') || a.starts_with("...");
    if args.iter().take(index + 1).any(spread) {
        return None;
    }
    args.get(index).cloned()
}

/// The literal text of a string argument: a plain literal's (`'JWS'`,
/// `"JWE"`), or the text around the holes of a formatted one
/// (`f"tool.setuptools.dynamic.{field}"`, `` `bad ${x}` ``), which every
/// value of it prints. `None` for anything else, or a literal with escapes.
pub(super) fn string_literal(arg: &str) -> Option<String> {
    let formatted = arg.starts_with(['f', 'F']);
    let quoted = arg.trim_start_matches(['f', 'F']);
    let q = quoted.chars().next()?;
    if !matches!(q, '"' | '\'' | '`') || quoted.len() < 2 || !quoted.ends_with(q) {
        return None;
    }
    let inner = &quoted[1..quoted.len() - 1];
    if inner.contains(q) || inner.contains('\\') {
        return None;
    }
    let (open, close) = match (formatted, q) {
        (true, _) => ("{", "}"),
        (false, '`') => ("${", "}"),
        (false, _) => return Some(inner.to_string()),
    };
    let mut text = String::new();
    let mut rest = inner;
    while let Some(at) = rest.find(open) {
        text.push_str(&rest[..at]);
        rest = rest[at..].split_once(close).map_or("", |(_, r)| r);
    }
    text.push_str(rest);
    (!text.trim().is_empty()).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_read_in_each_languages_form() {
        let p = |sig: &str, f: &str, lang| parameter_names(sig, f, lang);
        assert_eq!(
            p(
                "def extract_segment(self, segment, error_cls, name='payload'):",
                "Util.extract_segment",
                Lang::Python
            ),
            ["segment", "error_cls", "name"]
        );
        assert_eq!(
            p(
                "func (c *Conn) dial(addr, network string, n int) error",
                "Conn.dial",
                Lang::Go
            ),
            ["addr", "network", "n"]
        );
        assert_eq!(
            p(
                "void ODBus::Error::Throw(const char *prefix, int n = 0) const",
                "ODBus::Error::Throw",
                Lang::Cpp
            ),
            ["prefix", "n"]
        );
        assert_eq!(
            p(
                "public static String pad(final String str, int size)",
                "StringUtils.pad",
                Lang::Java
            ),
            ["str", "size"]
        );
        assert_eq!(
            p(
                "function label(string $kind, $name = '')",
                "label",
                Lang::Php
            ),
            ["kind", "name"]
        );
        assert_eq!(
            p(
                "fn parse(mut input: &str, strict: bool) -> Result<u8>",
                "parse",
                Lang::Rust
            ),
            ["input", "strict"]
        );
        assert_eq!(
            p(
                "function build(kind, opts = {}) {",
                "build",
                Lang::JavaScript
            ),
            ["kind", "opts"]
        );
        assert!(p("def other(a):", "missing", Lang::Python).is_empty());
    }

    #[test]
    fn a_calls_arguments_are_split_at_its_own_commas() {
        let args = call_arguments("obj = ensure_dict(obj, 'JWS, JWE')", "ensure_dict").unwrap();
        assert_eq!(args, ["obj", "'JWS, JWE'"]);
        let args = call_arguments("x = not_f(1); f(g(a, b), [1, 2], \"(\")", "f").unwrap();
        assert_eq!(args, ["g(a, b)", "[1, 2]", "\"(\""]);
        assert_eq!(call_arguments("f(a,", "f"), None);
        assert_eq!(call_arguments("f()", "f").unwrap(), Vec::<String>::new());
        assert_eq!(argument_for(&args, 1, "items").as_deref(), Some("[1, 2]"));
        let kw = call_arguments("f(obj, structure_name='JWE')", "f").unwrap();
        assert_eq!(
            argument_for(&kw, 1, "structure_name").as_deref(),
            Some("'JWE'")
        );
        let spread = call_arguments("f(*rest)", "f").unwrap();
        assert_eq!(argument_for(&spread, 0, "a"), None);
    }

    #[test]
    fn only_plain_literals_are_fixed_text() {
        assert_eq!(string_literal("'JWS'").as_deref(), Some("JWS"));
        assert_eq!(string_literal("\"JWE\"").as_deref(), Some("JWE"));
        assert_eq!(string_literal("f'{x}'"), None);
        assert_eq!(
            string_literal("f\"tool.setuptools.dynamic.{field}\"").as_deref(),
            Some("tool.setuptools.dynamic.")
        );
        assert_eq!(string_literal("`a ${b} c`").as_deref(), Some("a  c"));
        assert_eq!(string_literal("name"), None);
        assert_eq!(string_literal("'a' + b"), None);
    }
}
