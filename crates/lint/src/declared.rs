//! The names a package declares (types, functions, methods, fields,
//! constants), read from its files' text: an error string may start with
//! one in capitals (`Truncate: unsupported size`, `Checker is unknown`),
//! which `style` does not report; and the text of its string constants,
//! which a message may print in a hole (`fmt.Sprintf("%s: %s", warning,
//! set)` with `const warning = "recursive set of Transformers detected"`).

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Mutex;

/// What one folder's files declare.
#[derive(Default)]
struct Package {
    names: HashSet<String>,
    texts: HashMap<String, String>,
    /// A file calls `recover()`: a panic may end as an error's text.
    recovers: bool,
}

/// Declarations by folder, and the exception classes of the whole tree
/// that word their own message, each read on first ask.
pub(crate) struct Declared<'a> {
    root: &'a Path,
    files: &'a [(String, errdex_model::Lang)],
    by_dir: Mutex<HashMap<String, std::sync::Arc<Package>>>,
    self_worded: std::sync::OnceLock<HashSet<String>>,
    classes: std::sync::OnceLock<HashSet<String>>,
    /// Files read for questions about a site's statement, each read once.
    texts: Mutex<HashMap<String, Option<std::sync::Arc<str>>>>,
}

impl<'a> Declared<'a> {
    pub(crate) fn new(root: &'a Path, files: &'a [(String, errdex_model::Lang)]) -> Self {
        Declared {
            root,
            files,
            by_dir: Mutex::new(HashMap::new()),
            self_worded: std::sync::OnceLock::new(),
            classes: std::sync::OnceLock::new(),
            texts: Mutex::new(HashMap::new()),
        }
    }

    /// Whether the exception class `name` words its own message from the
    /// values it is raised with (`InvalidClaimError('aud')` prints
    /// `Invalid claim "aud"`). The tree's Python files are read on the
    /// first ask, which only a message with too little text makes.
    pub(crate) fn words_own_message(&self, name: &str) -> bool {
        self.self_worded
            .get_or_init(|| {
                let mut found = HashSet::new();
                let python = self
                    .files
                    .iter()
                    .filter(|(_, lang)| *lang == errdex_model::Lang::Python);
                for (rel, _) in python {
                    if let Ok(text) = std::fs::read_to_string(self.root.join(rel)) {
                        python_self_worded(&text, &mut found);
                    }
                }
                found
            })
            .contains(name)
    }

    /// Whether a file of the tree declares the class `name` in a language
    /// whose runtime prints an exception's class with its message (read on
    /// the first ask, which only a message with too little text makes).
    pub(crate) fn declares_class(&self, name: &str) -> bool {
        self.classes
            .get_or_init(|| {
                let mut found = HashSet::new();
                let printed = self.files.iter().filter(|(_, l)| prints_class_names(*l));
                for (rel, _) in printed {
                    if let Ok(text) = std::fs::read_to_string(self.root.join(rel)) {
                        class_names(&text, &mut found);
                    }
                }
                found
            })
            .contains(name)
    }

    /// Whether the package of `file` (its folder) declares `name`.
    pub(crate) fn has(&self, file: &str, name: &str) -> bool {
        self.package(file).names.contains(name)
    }

    /// Whether a file of the package of `file` (not a test) calls Go's
    /// `recover()` without printing the stack, so a panic there may become
    /// an error with no place.
    pub(crate) fn recovers_panics(&self, file: &str) -> bool {
        self.package(file).recovers
    }

    /// The text of the string constant `name` that the package of `file`
    /// declares, if it declares one.
    pub(crate) fn text_of(&self, file: &str, name: &str) -> Option<String> {
        self.package(file).texts.get(name).cloned()
    }

    /// Whether `name`, printed at `line` of `file`, holds a piece cut by a
    /// tokenizer in the lines above (`token = strtok(buf, " ")`, `for
    /// token in line.split()`, `token := strings.Fields(…)`): a word of
    /// the input, not a credential. Read only for a secret-named hole.
    pub(crate) fn cut_by_a_tokenizer(&self, file: &str, line: u32, name: &str) -> bool {
        let Some(text) = self.text(file) else {
            return false;
        };
        let lines: Vec<&str> = text.lines().take(line as usize).collect();
        let from = lines.len().saturating_sub(60);
        lines[from..].iter().any(|l| tokenizes_into(l, name))
    }

    /// The name the statement at `line` of `file` assigns a call's value
    /// to (`_storage->unique_root_dir = p_strdup_printf(…)` →
    /// `unique_root_dir`; `msg := fmt.Sprintf(…)` → `msg`), if it is such
    /// an assignment. Read only for a secret-named hole.
    pub(crate) fn assigned_name(&self, file: &str, line: u32) -> Option<String> {
        let text = self.text(file)?;
        let statement = text.lines().nth((line as usize).checked_sub(1)?)?.trim();
        assigned_by(statement)
    }

    /// Lines `from` (1-based) to `from + count - 1` of `file`, joined by
    /// newlines: a caller's statement, which may span lines.
    pub(crate) fn lines(&self, file: &str, from: u32, count: usize) -> Option<String> {
        let text = self.text(file)?;
        let skip = (from as usize).checked_sub(1)?;
        let picked: Vec<&str> = text.lines().skip(skip).take(count).collect();
        (!picked.is_empty()).then(|| picked.join("\n"))
    }

    /// The value last assigned to `name` in the 40 lines above `line` of
    /// `file` (`b, err := io.ReadAll(resp.Body)` → `io.ReadAll(resp.Body)`;
    /// `info = result["result"]` → `result["result"]`), if any.
    pub(crate) fn assigned_value(&self, file: &str, line: u32, name: &str) -> Option<String> {
        let text = self.text(file)?;
        let lines: Vec<&str> = text
            .lines()
            .take((line as usize).saturating_sub(1))
            .collect();
        let from = lines.len().saturating_sub(40);
        lines[from..]
            .iter()
            .rev()
            .find_map(|l| assignment_to(l, name))
    }

    /// The text of `file`, read on the first ask (outside the lock: two
    /// threads may both read it once).
    fn text(&self, file: &str) -> Option<std::sync::Arc<str>> {
        let lock = || self.texts.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(known) = lock().get(file) {
            return known.clone();
        }
        let read: Option<std::sync::Arc<str>> = std::fs::read_to_string(self.root.join(file))
            .ok()
            .map(Into::into);
        lock().insert(file.to_string(), read.clone());
        read
    }

    fn package(&self, file: &str) -> std::sync::Arc<Package> {
        let dir = file.rsplit_once('/').map_or("", |(d, _)| d).to_string();
        let mut by_dir = self.by_dir.lock().unwrap_or_else(|p| p.into_inner());
        by_dir
            .entry(dir.clone())
            .or_insert_with(|| {
                std::sync::Arc::new(package_in(&self.root.join(&dir), file_ext(file)))
            })
            .clone()
    }
}

/// The value a statement assigns to `name` (`name = v`, `name := v`,
/// `a, name := v`, `let name = v`, `const name = v`), if it assigns one.
fn assignment_to(statement: &str, name: &str) -> Option<String> {
    let t = statement.trim();
    let (left, right) = t.split_once(" := ").or_else(|| t.split_once(" = "))?;
    let targets = left
        .trim_start_matches("let ")
        .trim_start_matches("const ")
        .trim_start_matches("var ");
    targets
        .split(',')
        .any(|target| target.trim() == name)
        .then(|| right.trim().to_string())
}

/// `target = call(` or `target := call(`: the last name of the target.
fn assigned_by(statement: &str) -> Option<String> {
    let (left, right) = statement
        .split_once(" := ")
        .or_else(|| statement.split_once(" = "))?;
    let target = left.trim().rsplit([' ', '\t']).next()?;
    let plain_target = target
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '-' | '>' | '*' | '$'));
    let callee = right.trim_start().split('(').next()?;
    let a_call = right.contains('(')
        && !callee.is_empty()
        && callee
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | ':' | '>' | '-'));
    if !(plain_target && a_call) {
        return None;
    }
    let name = target
        .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
        .find(|w| !w.is_empty())?;
    Some(name.to_string())
}

/// A line that fills `name` from a tokenizer.
fn tokenizes_into(line: &str, name: &str) -> bool {
    const TOKENIZERS: &[&str] = &[
        "strtok(",
        "strtok_r(",
        "strsep(",
        ".split(",
        "shlex.split(",
        "strings.Split(",
        "strings.Fields(",
        ".split_whitespace(",
    ];
    let l = line.trim();
    let assigned = [" = ", " := ", " in "].iter().any(|op| {
        l.split_once(op).is_some_and(|(left, right)| {
            let target = left
                .trim()
                .trim_start_matches("for ")
                .trim_start_matches('*');
            let target = target.rsplit([' ', '*', ',']).next().unwrap_or(target);
            target == name && TOKENIZERS.iter().any(|t| right.contains(t))
        })
    });
    assigned
}

fn file_ext(file: &str) -> &str {
    file.rsplit_once('.').map_or("", |(_, e)| e)
}

/// What the `.ext` files of one folder declare (C's headers with its
/// sources).
fn package_in(dir: &Path, ext: &str) -> Package {
    let mut p = Package::default();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return p;
    };
    let same_language = |x: &str| x == ext || (ext == "c" && x == "h");
    for e in entries.flatten() {
        let path = e.path();
        if path
            .extension()
            .and_then(|x| x.to_str())
            .is_some_and(same_language)
        {
            if let Ok(text) = std::fs::read_to_string(&path) {
                declarations(&text, &mut p.names);
                string_constants(&text, &mut p.texts);
                let test = path.to_string_lossy().ends_with("_test.go");
                p.recovers |= ext == "go" && !test && recovers_without_stack(&text);
            }
        }
    }
    p
}

/// Whether Go code calls `recover()` and, in the lines after it, neither
/// prints the stack (`debug.PrintStack()`, `debug.Stack()`) nor panics
/// again with what it does not handle (`panic(r)`, whose trace still
/// holds the first panic's frames): the panic's value may then end as an
/// error's text with no place. A mention in a comment does not count.
fn recovers_without_stack(text: &str) -> bool {
    if !text.contains("recover()") {
        return false;
    }
    let lines: Vec<&str> = text.lines().collect();
    lines.iter().enumerate().any(|(i, l)| {
        let code = !l.trim_start().starts_with("//");
        code && l.contains("recover()")
            && !lines[i + 1..(i + 12).min(lines.len())]
                .iter()
                .any(|next| next.contains("Stack") || next.contains("panic("))
    })
}

/// Languages whose runtime prints an uncaught exception, and its usual
/// rendering, with the class's name (`NonAsciiHeaderError: …` in Python,
/// `com.x.ParseFailed: …` in Java, `… (RecordInvalid)` in Ruby).
pub(crate) fn prints_class_names(lang: errdex_model::Lang) -> bool {
    use errdex_model::Lang;
    matches!(
        lang,
        Lang::Python
            | Lang::Java
            | Lang::Kotlin
            | Lang::Scala
            | Lang::CSharp
            | Lang::Ruby
            | Lang::Php
    )
}

/// The names after the word `class` in a file's text.
fn class_names(text: &str, out: &mut HashSet<String>) {
    for line in text.lines() {
        let mut words = line.split_whitespace();
        while let Some(w) = words.next() {
            if w != "class" {
                continue;
            }
            let name: String = words
                .next()
                .unwrap_or_default()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
}

/// Python classes that word their own message: a `__str__`, or an
/// `__init__` that formats text (an f-string, `.format(`, `%`) and hands
/// it to the base class.
pub(crate) fn python_self_worded(text: &str, out: &mut HashSet<String>) {
    let mut class: Option<(String, usize)> = None;
    let (mut in_init, mut formats) = (false, false);
    for line in text.lines() {
        let t = line.trim_start();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let indent = line.len() - t.len();
        if class.as_ref().is_some_and(|(_, at)| indent <= *at) {
            class = None;
        }
        if let Some(rest) = t.strip_prefix("class ") {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            class = Some((name, indent));
            (in_init, formats) = (false, false);
            continue;
        }
        let Some((name, _)) = &class else { continue };
        if t.starts_with("def ") {
            in_init = t.starts_with("def __init__(");
            formats = false;
            if t.starts_with("def __str__(") {
                out.insert(name.clone());
            }
            continue;
        }
        if in_init {
            formats |= t.contains("f'")
                || t.contains("f\"")
                || t.contains(".format(")
                || t.contains("' %")
                || t.contains("\" %");
            if formats && t.contains("__init__(") {
                out.insert(name.clone());
            }
        }
    }
}

/// String constants, one per line: `const name = "…"` (Go, JavaScript,
/// Rust's `const NAME: &str = "…";`), the lines of Go's `const ( … )`,
/// `#define NAME "…"`, Java's `final String NAME = "…";`, Kotlin's `const
/// val`, and Python's and Ruby's unindented `NAME = "…"`.
pub(crate) fn string_constants(text: &str, out: &mut HashMap<String, String>) {
    let mut in_const_block = false;
    for line in text.lines() {
        let t = line.trim();
        if in_const_block && t.starts_with(')') {
            in_const_block = false;
            continue;
        }
        if t == "const (" {
            in_const_block = true;
            continue;
        }
        let unindented = !line.starts_with([' ', '\t']);
        let declares = in_const_block
            || t.starts_with("const ")
            || t.starts_with("pub const ")
            || t.starts_with("#define ")
            || t.contains("final String ")
            || t.contains("const val ")
            || unindented;
        if let Some((name, value)) = declares.then(|| constant_line(t)).flatten() {
            out.entry(name).or_insert(value);
        }
    }
}

/// `NAME = "text"` or `#define NAME "text"` (after any keywords and a
/// type) → (NAME, text): one string literal and nothing else.
fn constant_line(t: &str) -> Option<(String, String)> {
    let (left, right) = match t.strip_prefix("#define ") {
        Some(rest) => rest.trim_start().split_once([' ', '\t'])?,
        None => t.split_once('=')?,
    };
    let left = left.split(':').next().unwrap_or(left);
    let name = left.split_whitespace().last()?;
    if !name.chars().all(|c| c.is_alphanumeric() || c == '_') || name.is_empty() {
        return None;
    }
    let value = right.trim().trim_end_matches(';').trim();
    let quote = value
        .chars()
        .next()
        .filter(|q| matches!(q, '"' | '\'' | '`'))?;
    let inner = value.strip_prefix(quote)?.strip_suffix(quote)?;
    if inner.contains(quote) || inner.contains("${") {
        return None; // several literals, or a template with values
    }
    Some((name.to_string(), inner.to_string()))
}

/// Go and Rust declarations: `type X`, `func X`, `func (r T) X`, `struct
/// X`, `enum X`, `trait X`, `fn x`, `const X`, `var X`, and the fields of
/// struct bodies (a line's first name inside `struct {`).
pub(crate) fn declarations(text: &str, names: &mut HashSet<String>) {
    let mut in_struct = 0usize;
    for line in text.lines() {
        let t = line.trim_start();
        let words: Vec<&str> = t
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        let after = |kw: &str| {
            words
                .iter()
                .position(|w| *w == kw)
                .and_then(|i| words.get(i + 1))
        };
        for kw in ["type", "struct", "enum", "trait", "const", "var", "fn"] {
            if let Some(n) = after(kw) {
                names.insert(n.to_string());
            }
        }
        if t.starts_with("func ") {
            if let Some(n) = method_or_func_name(t) {
                names.insert(n);
            }
        }
        if in_struct > 0 {
            if let Some(first) = words.iter().find(|w| **w != "pub") {
                names.insert(first.to_string());
            }
        }
        if t.contains("struct {") || (t.contains("struct ") && t.ends_with('{')) {
            in_struct += 1;
        } else if in_struct > 0 && t.starts_with('}') {
            in_struct -= 1;
        }
    }
}

/// `func (w *writer) Truncate(size int64) error` → Truncate.
fn method_or_func_name(t: &str) -> Option<String> {
    let rest = t.strip_prefix("func ")?.trim_start();
    let rest = if rest.starts_with('(') {
        &rest[rest.find(')')? + 1..]
    } else {
        rest
    };
    let name: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_functions_methods_fields_and_constants_are_declared() {
        let go = "package p\n\ntype Checker interface{}\n\ntype Spec struct {\n\tCwd string\n\tArgs []string\n}\n\nfunc (w *writer) Truncate(n int64) error { return nil }\n\nfunc Open() {}\n\nconst Draft = 4\n";
        let mut n = HashSet::new();
        declarations(go, &mut n);
        for name in [
            "Checker", "Spec", "Cwd", "Args", "Truncate", "Open", "Draft",
        ] {
            assert!(n.contains(name), "{name}: {n:?}");
        }
        assert!(!n.contains("Invalid"));
        let rs = "pub struct Token {\n    pub expiry: u64,\n}\nenum Kind { A }\nfn parse() {}\n";
        let mut n = HashSet::new();
        declarations(rs, &mut n);
        for name in ["Token", "expiry", "Kind", "parse"] {
            assert!(n.contains(name), "{name}: {n:?}");
        }
    }

    #[test]
    fn python_classes_that_word_their_own_message() {
        let text = r#"
class InvalidClaimError(JoseError):
    error = 'invalid_claim'

    def __init__(self, claim):
        self.claim_name = claim
        description = f'Invalid claim "{claim}"'
        super().__init__(description=description)


class MissingRequiredClaimError(InvalidTokenError):
    def __init__(self, claim: str) -> None:
        self.claim = claim

    def __str__(self) -> str:
        return f'Token is missing the "{self.claim}" claim'


class PlainError(Exception):
    def __init__(self, msg):
        super().__init__(msg)


class Other(Exception):
    pass
"#;
        let mut out = HashSet::new();
        python_self_worded(text, &mut out);
        let mut got: Vec<&str> = out.iter().map(String::as_str).collect();
        got.sort();
        assert_eq!(got, ["InvalidClaimError", "MissingRequiredClaimError"]);
    }

    #[test]
    fn string_constants_are_read_in_each_languages_form() {
        let text = r#"package p

const (
	help = "consider using cmpopts.AcyclicTransformer"
	limit = 4
)

func f() {
	const warning = "recursive set of Transformers detected"
	x := "a local value"
}
#define BANNER "proxy ready"
    private static final String USAGE = "usage: tool FILE";
const hint = 'see the manual';
const joined = `${a} and b`;
pub const NAME: &str = "errdex";
NOT_FOUND = "no such entry"
"#;
        let mut t = HashMap::new();
        string_constants(text, &mut t);
        for (name, value) in [
            ("help", "consider using cmpopts.AcyclicTransformer"),
            ("warning", "recursive set of Transformers detected"),
            ("BANNER", "proxy ready"),
            ("USAGE", "usage: tool FILE"),
            ("hint", "see the manual"),
            ("NAME", "errdex"),
            ("NOT_FOUND", "no such entry"),
        ] {
            assert_eq!(
                t.get(name).map(String::as_str),
                Some(value),
                "{name}: {t:?}"
            );
        }
        for name in ["limit", "x", "joined"] {
            assert!(!t.contains_key(name), "{name}: {t:?}");
        }
    }
}
