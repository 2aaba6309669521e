//! What the rest of errdex needs to know about a language besides its
//! extractor: how a line declares a function (for the callers scan), how
//! the analyser words an error handed up and writes code that handles it.
//! Every language module answers each question in its [`Conventions`];
//! there is no default, so a new language cannot be silently treated like
//! another.

/// A language's answers, one value per language module.
#[derive(Debug)]
pub struct Conventions {
    /// How a source line declares a function.
    pub heads: FunctionHeads,
    /// The verb for an error handed to the caller by throwing it
    /// (`raises`, `throws`); `None` where errors are returned values.
    pub throw_verb: Option<&'static str>,
    /// How the analyser writes code that handles the error.
    pub handling: Handling,
}

/// How a line declares a function, read from bytes without parsing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FunctionHeads {
    /// `func name(` and `func (r *T) name(` at the start of a line. Calls
    /// are matched the way packages and receivers scope them: a plain
    /// function by its folder or package qualifier, a method by the value
    /// it is called on.
    Func,
    /// A keyword after optional modifiers (`def `, `fn `, `function `).
    /// Calls are matched by name alone, within the language.
    Keyword(&'static [&'static str]),
    /// A definition starting at column 0 (`type name(args)` or
    /// `name(args)`), not a prototype ending in `;`.
    ColumnZero,
    /// A method with an access modifier first (`public Type name(`).
    Modifiers,
}

/// The code fields the analyser writes for an error of the language.
#[derive(Debug, Clone, Copy)]
pub enum Handling {
    /// Errors are values compared by identity or type (sentinels,
    /// wrapping, `errors.As`): the analyser's own writer for them, which
    /// also reads an error class named `ErrX` as a sentinel variable.
    ErrorValues,
    /// Errors are caught or matched by their class.
    ByClass(HandlerCode),
    /// No code: errors are return codes the facts cannot name.
    Unwritten,
}

/// Templates of code that recognises an error by its class, each
/// rendering a complete fragment that parses in the language. In them
/// `{class}`, `{function}` and `{note}` stand for the error's class, the
/// function whose call raises it, and a comment line about the error.
#[derive(Debug, Clone, Copy)]
pub struct HandlerCode {
    /// How a line comment starts (`# `, `// `).
    pub comment: &'static str,
    /// Code that recognises the error in a handler by its class.
    pub type_guard: &'static str,
    /// The same for a class named by a path (`io::ErrorKind::NotFound`),
    /// where the language matches such a class differently.
    pub type_guard_path: Option<&'static str>,
    /// Code that handles the error where the function is called.
    pub try_catch: &'static str,
    /// The same for an error that is usually transient, where the
    /// language's snippet suggests a retry.
    pub try_catch_transient: Option<&'static str>,
}

impl HandlerCode {
    /// The type guard for `class`, with the comment `note`.
    pub fn type_guard(&self, class: &str, note: &str) -> String {
        let template = match self.type_guard_path {
            Some(path) if class.contains("::") => path,
            _ => self.type_guard,
        };
        render(template, class, "", note)
    }

    /// The handler around a call of `function` raising `class`.
    pub fn try_catch(&self, class: &str, function: &str, note: &str, transient: bool) -> String {
        let template = match self.try_catch_transient {
            Some(t) if transient => t,
            _ => self.try_catch,
        };
        render(template, class, function, note)
    }
}

/// Fills a template's `{class}`, `{function}` and `{note}` in one pass
/// (so that a note mentioning `{class}` stays as written).
fn render(template: &str, class: &str, function: &str, note: &str) -> String {
    let mut out = String::with_capacity(template.len() + note.len() + 2 * class.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let tail = &rest[open..];
        let (value, len) = [
            ("{class}", class),
            ("{function}", function),
            ("{note}", note),
        ]
        .iter()
        .find(|(p, _)| tail.starts_with(p))
        .map_or(("{", 1), |(p, v)| (*v, p.len()));
        out.push_str(value);
        rest = &tail[len..];
    }
    out.push_str(rest);
    out
}

impl FunctionHeads {
    /// The function a line declares: `name`, or `Type.name` for a method
    /// whose receiver the head names.
    pub fn declared(self, line: &str) -> Option<String> {
        match self {
            FunctionHeads::Func => func_head(line),
            FunctionHeads::Keyword(keywords) => {
                keywords.iter().find_map(|kw| after_keyword(line, kw))
            }
            FunctionHeads::ColumnZero => column_zero_head(line),
            FunctionHeads::Modifiers => modified_head(line),
        }
    }

    /// Line starts (after indentation) that make a line no call site for
    /// the callers scan: comments, and `#` lines everywhere but where
    /// definitions start at column 0 (the C family), whose `#` lines are
    /// the preprocessor's and may call.
    pub fn not_code(self) -> &'static [&'static str] {
        match self {
            FunctionHeads::ColumnZero => &["//"],
            FunctionHeads::Func | FunctionHeads::Keyword(_) | FunctionHeads::Modifiers => {
                &["//", "#"]
            }
        }
    }

    /// Whether calls are scoped by folder-packages and receivers (see
    /// [`FunctionHeads::Func`]) rather than by name alone.
    pub fn scoped_by_package(self) -> bool {
        self == FunctionHeads::Func
    }
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn ident(s: &str) -> Option<String> {
    let n: String = s
        .bytes()
        .take_while(|&b| is_ident(b))
        .map(char::from)
        .collect();
    (!n.is_empty()).then_some(n)
}

/// A `func` line: `name` or `Type.name` (`func (c *T[K]) run(` → `T.run`).
pub fn func_head(line: &str) -> Option<String> {
    let rest = line.strip_prefix("func ")?;
    let (recv, rest) = match rest.strip_prefix('(') {
        Some(r) => {
            let close = r.find(')')?;
            let ty = r[..close]
                .split_whitespace()
                .last()?
                .trim_start_matches('*')
                .split('[')
                .next()?;
            (Some(ty), r[close + 1..].trim_start())
        }
        None => (None, rest),
    };
    let name = ident(rest)?;
    Some(match recv {
        Some(t) => format!("{t}.{name}"),
        None => name,
    })
}

/// `kw name` after modifiers (`pub async fn name`, `def self.name`).
fn after_keyword(line: &str, kw: &str) -> Option<String> {
    const MODIFIERS: &[&str] = &[
        "pub(crate) ",
        "pub ",
        "async ",
        "export ",
        "default ",
        "static ",
        "private ",
        "public ",
        "protected ",
        "override ",
        "suspend ",
        "inline ",
        "final ",
        "abstract ",
    ];
    let mut rest = line.trim_start();
    while let Some(r) = MODIFIERS.iter().find_map(|m| rest.strip_prefix(m)) {
        rest = r;
    }
    let rest = rest.strip_prefix(kw)?;
    let rest = rest.strip_prefix("self.").unwrap_or(rest);
    ident(rest.trim_start_matches('&'))
}

/// `name(args)` or `type name(args)` at column 0, not a prototype.
fn column_zero_head(line: &str) -> Option<String> {
    if line.starts_with([' ', '\t', '#', '/', '*', '}', '{']) || line.trim_end().ends_with(';') {
        return None;
    }
    let paren = line.find('(')?;
    let head = line[..paren].trim_end();
    let name_start = head
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .map_or(0, |p| p + 1);
    let name = &head[name_start..];
    let name = name.rsplit("::").next().unwrap_or(name);
    (!name.is_empty() && !matches!(name, "if" | "while" | "for" | "switch" | "return"))
        .then(|| name.to_string())
}

/// `public Type name(args) {` and friends: modifiers first.
fn modified_head(line: &str) -> Option<String> {
    let t = line.trim_start();
    let modifiers = ["public ", "private ", "protected ", "static ", "internal "];
    if !modifiers.iter().any(|m| t.starts_with(m)) || t.contains(" class ") || t.contains('=') {
        return None;
    }
    let paren = t.find('(')?;
    let head = t[..paren].trim_end();
    let name = head.rsplit(' ').next()?;
    ident(name)
}

#[cfg(test)]
mod tests {
    use super::{render, FunctionHeads};

    #[test]
    fn templates_fill_in_one_pass() {
        assert_eq!(
            render("{ {class}: {function}() {note} }", "E", "f", "// {class}"),
            "{ E: f() // {class} }"
        );
    }

    #[test]
    fn func_lines_name_functions_and_methods() {
        let go = |l| FunctionHeads::Func.declared(l);
        assert_eq!(go("func run(x int) error {").as_deref(), Some("run"));
        assert_eq!(
            go("func (c *DNSController) runOnce() error {").as_deref(),
            Some("DNSController.runOnce")
        );
        assert_eq!(
            go("func (l List[T]) Len() int {").as_deref(),
            Some("List.Len")
        );
        assert_eq!(go("var x = 1"), None);
    }

    #[test]
    fn declaration_heads() {
        let def = FunctionHeads::Keyword(&["def "]);
        let cases = [
            (
                def,
                "    async def load_config(self, path):",
                Some("load_config"),
            ),
            (def, "  def self.parse_query(qs)", Some("parse_query")),
            (def, "x = load_config(p)", None),
            (
                FunctionHeads::Keyword(&["fn "]),
                "    pub(crate) fn parse_header(x: &[u8]) -> Result<()> {",
                Some("parse_header"),
            ),
            (
                FunctionHeads::Keyword(&["function ", "function* "]),
                "export async function handle(req, res) {",
                Some("handle"),
            ),
            (
                FunctionHeads::Keyword(&["fun "]),
                "    suspend fun charge(amount: Long) {",
                Some("charge"),
            ),
            (
                FunctionHeads::ColumnZero,
                "ssh_connect(struct ssh *ssh, const char *host)",
                Some("ssh_connect"),
            ),
            (FunctionHeads::ColumnZero, "int f(int);", None),
            (FunctionHeads::ColumnZero, "    if (x(1))", None),
            (
                FunctionHeads::Modifiers,
                "    public static String abbreviate(String str, int max) {",
                Some("abbreviate"),
            ),
        ];
        for (heads, line, want) in cases {
            assert_eq!(heads.declared(line).as_deref(), want, "{line}");
        }
    }
}
