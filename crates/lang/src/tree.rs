//! What every tree-sitter language module shares: parsing, one walk over
//! the tree that hands each node to the language's [`Syntax::visit`],
//! pushing sites, and the facts around a site (enclosing function and
//! class, guards, loops, the call a `catch` handles, comments) read from
//! node kinds the language names in its [`Syntax`]; also the small readers
//! the languages share (callees, parameters, named arguments, HTTP
//! statuses). The facts around a site are read in `tree/facts.rs`,
//! messages in `expr.rs`. Go keeps its own walk (see
//! `go/mod.rs`).

use crate::message::{Message, MsgPart};
use crate::{ExtractOptions, FileFacts, PendingSite, WrapperCall, WrapperDef};
use errdex_model::{ErrorType, Lang, RawSite, Severity};
use std::cell::RefCell;
use tree_sitter::{Node, Parser};

mod facts;
mod fields_given;
mod nodes;
mod passed;
mod test_code;

use facts::site_facts;
#[cfg(test)]
use facts::strip_comment;
pub(crate) use nodes::*;
pub(crate) use test_code::*;

/// A language's part of the walk: the node kinds that carry the facts of
/// a site, and what it does with each node.
pub(crate) struct Syntax {
    /// Looks at one node and pushes the sites it makes.
    pub visit: fn(Node<'_>, &mut Cx<'_>),
    /// The language.
    pub lang: Lang,
    /// The source as the parser should see it, same length, same lines
    /// (C blanks conditional directives inside expressions); `None`
    /// keeps it as written.
    pub prepare: fn(&str) -> Option<String>,
    /// Its grammar.
    pub grammar: fn() -> tree_sitter::Language,
    /// Function and method definitions (with a `name` field, or a
    /// declarator the language's [`Syntax::names`] reads).
    pub functions: &'static [&'static str],
    /// Class-like definitions (class, struct, impl, module, object).
    pub classes: &'static [&'static str],
    /// Loops.
    pub loops: &'static [&'static str],
    /// Conditionals with a `condition` field (`if`, `elif`, `while`).
    pub conditionals: &'static [&'static str],
    /// Statements that hand the error to the caller (`return`, `raise`,
    /// `throw`).
    pub returns: &'static [&'static str],
    /// Exception handlers (`except`, `catch`, `rescue`): a site inside one
    /// wraps the failure of the first call of the `try` body.
    pub catches: &'static [&'static str],
    /// Comments.
    pub comments: &'static [&'static str],
    /// How a local name is assigned text, for the holes it fills
    /// ([`crate::locals`]); `None` where the reader follows names itself
    /// or the language is not read so yet.
    pub locals: Option<&'static crate::locals::LocalTexts>,
    /// How function and class definitions name what they define.
    pub names: Names,
}

/// How a language's definitions name what they define.
#[derive(Clone, Copy)]
pub(crate) struct Names {
    /// The name of a function definition node.
    pub function: fn(Node<'_>, &Cx<'_>) -> Option<String>,
    /// The name of a class-like definition node.
    pub class: fn(Node<'_>, &Cx<'_>) -> Option<String>,
}

/// The usual names: a function's `name` field, a class's `name` or
/// `type` field.
pub(crate) const NAME_FIELDS: Names = Names {
    function: name_field,
    class: name_or_type_field,
};

/// A function's name: its `name` field.
pub(crate) fn name_field(f: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    f.child_by_field_name("name")
        .map(|n| cx.text(n).to_string())
}

/// A class's name: its `name` or `type` field.
pub(crate) fn name_or_type_field(c: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    c.child_by_field_name("name")
        .or_else(|| c.child_by_field_name("type"))
        .map(|n| cx.text(n).to_string())
}

/// The state of one file's walk.
pub(crate) struct Cx<'a> {
    /// Repository-relative path.
    pub path: &'a str,
    /// The source.
    pub src: &'a [u8],
    /// The same source as text: slicing it checks two char boundaries,
    /// where decoding the bytes of every node again would scan them all.
    source: &'a str,
    /// What to look for.
    pub opts: ExtractOptions,
    /// What the file contributes so far.
    pub facts: FileFacts,
    syntax: &'static Syntax,
    /// Kept messages by the local name they are kept under: (index in
    /// `facts.sites`, name), for [`Cx::fill_kept_names`].
    kept_names: Vec<(usize, String)>,
    /// [`crate::expr::Messages::has_text`] of the nodes the current
    /// visit asked about: reading a chain of n concatenations asks of each
    /// level, and each answer would descend the rest of the chain again.
    text_memo: RefCell<std::collections::HashMap<usize, bool>>,
}

/// Bytes of a function after a statement that [`Cx::function_text_after`]
/// gives: a message kept in a name is output within a few statements.
const FLOW_WINDOW: usize = 16 * 1024;

/// Longest expression kept for a dynamic site.
const MAX_EXPRESSION: usize = 200;

impl<'a> Cx<'a> {
    /// Whether `n` has literal text, as `compute` says the first time the
    /// current visit asks.
    pub fn remembered_text(&self, n: Node<'_>, compute: impl FnOnce() -> bool) -> bool {
        if let Some(&known) = self.text_memo.borrow().get(&n.id()) {
            return known;
        }
        let known = compute();
        self.text_memo.borrow_mut().insert(n.id(), known);
        known
    }

    /// The whole file's text.
    pub fn source(&self) -> &'a str {
        self.source
    }

    /// Whether `n` defines a function or method.
    pub fn is_function(&self, n: Node<'_>) -> bool {
        self.syntax.functions.contains(&n.kind())
    }

    /// The name a function definition gives, as the language reads it.
    pub fn function_name(&self, f: Node<'_>) -> Option<String> {
        (self.syntax.names.function)(f, self)
    }

    /// The text of the function around `n` after `n` (`None` outside
    /// any): where [`crate::flow`] looks for what becomes of a name.
    pub fn function_text_after(&self, n: Node<'_>) -> Option<&'a str> {
        let mut f = n.parent();
        while let Some(q) = f.filter(|q| !self.syntax.functions.contains(&q.kind())) {
            f = q.parent();
        }
        let f = f?;
        // The flows read here are local: a function that is a whole
        // bundle (minified code in one wrapper) is read as far as the
        // window, not to its end from every site.
        let mut end = f.end_byte().min(n.end_byte() + FLOW_WINDOW);
        while !self.source.is_char_boundary(end) {
            end -= 1;
        }
        self.source.get(n.end_byte()..end)
    }

    /// The language of the file.
    pub fn lang(&self) -> Lang {
        self.syntax.lang
    }

    /// Source text of a node.
    pub fn text(&self, n: Node<'_>) -> &'a str {
        self.source.get(n.byte_range()).unwrap_or_default()
    }

    /// A site at node `n`, with the facts around it.
    pub fn site(&self, n: Node<'_>, callee: &str, ty: ErrorType, sev: Severity) -> RawSite {
        let around = site_facts(n, self);
        let lang = self.syntax.lang;
        crate::new_site(self.path, lang, n, callee.to_string(), (ty, sev), around)
    }

    /// Records a site with its message; one with no literal text at all
    /// is listed as dynamic.
    pub fn push(&mut self, site: RawSite, mut message: Message, args: Vec<String>, n: Node<'_>) {
        if self.compiled_out(n) {
            return;
        }
        crate::guard_prefix::write_known_prefixes(&site.facts.guards, &mut message, &args);
        let expression = clip(self.text(n));
        if let Some((variants, keep)) = self.local_variants(n, &message, &args) {
            let pushed = self.push_variants(&site, variants, &expression);
            if pushed && !keep {
                return;
            }
        }
        self.push_read(site, message, args, expression);
    }

    /// Records the messages a local name's texts make of a message
    /// ([`crate::locals`]), each sited at its text. Whether any was.
    fn push_variants(
        &mut self,
        site: &RawSite,
        variants: Vec<crate::locals::Variant<'_>>,
        expression: &str,
    ) -> bool {
        let mut pushed = false;
        for v in variants {
            let at = v.at.start_position();
            let line = at.row as u32 + 1;
            // A text already kept as a message on its line is traced
            // there: the variant would only repeat it with glue.
            if self.kept_on(line) {
                continue;
            }
            let mut one = site.clone();
            (one.line_number, one.column) = (line, at.column as u32 + 1);
            self.push_read(one, v.message, v.args, expression.to_string());
            pushed = true;
        }
        pushed
    }

    /// [`Cx::push_kept_message`] for a text that has words only through a
    /// local name's texts (`usage = f"{prefix}{prog} "` after `prefix =
    /// "Usage: "`): those messages alone, not the glue the name fills;
    /// nothing when no text of the name gives a word on a line not kept
    /// already.
    pub fn push_kept_variants(
        &mut self,
        n: Node<'_>,
        callee: &str,
        message: Message,
        args: Vec<String>,
    ) {
        if self.compiled_out(n) {
            return;
        }
        let Some((variants, _)) = self.local_variants(n, &message, &args) else {
            return;
        };
        let gives_words = variants.iter().any(|v| {
            crate::flow::words(&v.message) > 0
                && !self.kept_on(v.at.start_position().row as u32 + 1)
        });
        if !gives_words {
            return;
        }
        let mut site = self.site(n, callee, ErrorType::Exception, Severity::Error);
        site.facts.kept = true;
        let expression = clip(self.text(n));
        self.push_variants(&site, variants, &expression);
    }

    /// Whether a message kept under a name is sited on `line`.
    fn kept_on(&self, line: u32) -> bool {
        (self.facts.sites.iter()).any(|p| p.site.facts.kept && p.site.line_number == line)
    }

    /// [`crate::locals::variants`] of a message built at `n`, in this
    /// language.
    pub(crate) fn local_variants<'t>(
        &self,
        n: Node<'t>,
        message: &Message,
        args: &[String],
    ) -> Option<(Vec<crate::locals::Variant<'t>>, bool)> {
        crate::locals::variants(n, self, message, args, self.syntax.locals?)
    }

    /// Records a site with its message, one per text of a hole that
    /// chooses between two.
    fn push_read(
        &mut self,
        mut site: RawSite,
        message: Message,
        args: Vec<String>,
        expression: String,
    ) {
        if let Some(alts) = crate::alternatives::alternatives(self.syntax.lang, &message, &args) {
            for (message, args) in alts {
                let mut one = site.clone();
                one.args = args;
                self.facts.push_site(one, message, expression.clone());
            }
            return;
        }
        site.args = args;
        self.facts.push_site(site, message, expression);
    }

    /// Whether `n` sits in a `#if 0` block or a test build's block
    /// (`#ifdef TESTING`, `#if defined(UNIT_TEST) || …`), outside its
    /// `#else`: text the compiler never sees, or sees only in builds that
    /// run the program's own tests, which users of the program never meet.
    pub fn compiled_out(&self, n: Node<'_>) -> bool {
        let mut child = n;
        while let Some(p) = child.parent() {
            let in_first_branch =
                p.child_by_field_name("alternative").map(|a| a.id()) != Some(child.id());
            let off = match p.kind() {
                "preproc_if" => p
                    .child_by_field_name("condition")
                    .is_some_and(|c| off_in_product_builds(self.text(c))),
                "preproc_ifdef" => {
                    !self
                        .text(p)
                        .trim_start_matches(['#', ' ', '\t'])
                        .starts_with("ifndef")
                        && p.child_by_field_name("name")
                            .is_some_and(|name| test_build_macro(self.text(name)))
                }
                _ => false,
            };
            if off && in_first_branch {
                return true;
            }
            child = p;
        }
        false
    }

    /// Records a message kept under a name or in a table (`msg = "…"`,
    /// `case X: return "…";`), raised or printed elsewhere: a site unless
    /// it is exactly an operating-system error text, which a log cannot
    /// tell from the OS's own.
    pub fn push_kept_message(
        &mut self,
        n: Node<'_>,
        callee: &str,
        message: Message,
        args: Vec<String>,
    ) {
        self.push_kept_message_at(
            n,
            callee,
            message,
            args,
            ErrorType::Exception,
            Severity::Error,
        );
    }

    /// [`Cx::push_kept_message`] for a text whose later output tells its
    /// kind and level (`_log("info", "\n".join(messages))`).
    pub fn push_kept_message_at(
        &mut self,
        n: Node<'_>,
        callee: &str,
        message: Message,
        args: Vec<String>,
        error_type: ErrorType,
        severity: Severity,
    ) {
        if crate::message::is_os_error_text(&message) {
            return;
        }
        let mut site = self.site(n, callee, error_type, severity);
        site.facts.kept = true;
        self.push(site, message, args, n);
    }

    /// [`Cx::push_kept_message`] for a text kept under the local `name`
    /// (`var dirs = roots.length > 1 ? 'directories …' : 'directory "' +
    /// root + '"'`): where a message of the same function prints `name`
    /// in a hole, the text is a layer there ([`Cx::fill_kept_names`]).
    pub fn push_kept_message_as(
        &mut self,
        n: Node<'_>,
        callee: &str,
        message: Message,
        args: Vec<String>,
        name: &str,
    ) {
        let before = self.facts.sites.len();
        self.push_kept_message(n, callee, message, args);
        if self.facts.sites.len() > before {
            self.kept_names.push((before, name.to_string()));
        }
    }

    /// Marks each text kept under a name as filling the hole that a
    /// message of its function prints that name in ([`errdex_model::Fill`]):
    /// such a text is short beside the whole value, yet a layer of it.
    fn fill_kept_names(&mut self) {
        for (i, name) in std::mem::take(&mut self.kept_names) {
            let Some(function) = self.facts.sites[i].site.function.clone() else {
                continue;
            };
            let printed = self.facts.sites.iter().enumerate().any(|(j, p)| {
                j != i
                    && p.site.function.as_deref() == Some(function.as_str())
                    && p.site.args.iter().any(|a| a == &name)
            });
            if printed {
                self.facts.sites[i].site.facts.fills = Some(errdex_model::Fill {
                    function: last_name(&function).to_string(),
                    arg: name,
                });
            }
        }
    }

    /// Records a call that becomes a site if a message function of its
    /// name is defined anywhere in the repository.
    pub fn wrapper_call(
        &mut self,
        name: &str,
        format_index: usize,
        site: RawSite,
        message: Message,
        args: Vec<String>,
        n: Node<'_>,
    ) {
        let mut site = site;
        site.args = args;
        self.facts.wrapper_calls.push(WrapperCall {
            name: name.to_string(),
            format_index,
            site: PendingSite {
                site,
                message,
                expression: clip(self.text(n)),
                args_tuple: None,
            },
            level: None,
        });
    }

    /// Gives the call just recorded by [`Cx::wrapper_call`] the level its
    /// own argument names.
    pub fn wrapper_call_level(&mut self, level: Option<Severity>) {
        if let Some(c) = self.facts.wrapper_calls.last_mut() {
            c.level = level;
        }
    }

    /// Records a message function defined in this file.
    pub fn wrapper_def(&mut self, name: &str, format_index: usize, returns_error: bool) {
        self.facts.wrappers.push(WrapperDef {
            name: name.to_string(),
            format_index,
            returns_error,
            known_logger: false,
            level: None,
            frame: None,
        });
    }

    /// Gives the message function just recorded by [`Cx::wrapper_def`]
    /// the level its body prints at.
    pub fn wrapper_def_level(&mut self, level: Option<Severity>) {
        if let Some(w) = self.facts.wrappers.last_mut() {
            w.level = level;
        }
    }
}

fn clip(s: &str) -> String {
    match s.char_indices().nth(MAX_EXPRESSION) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// [`Syntax::prepare`] for languages that parse their source as written.
pub(crate) fn as_written(_: &str) -> Option<String> {
    None
}

/// Parses a file and walks it with the language's visitor.
pub(crate) fn extract(
    syntax: &'static Syntax,
    path: &str,
    source: &str,
    opts: &ExtractOptions,
) -> FileFacts {
    thread_local! {
        static PARSER: RefCell<Parser> = RefCell::new(Parser::new());
    }
    let prepared = (syntax.prepare)(source);
    let source = prepared.as_deref().unwrap_or(source);
    let kept_key = opts
        .reuse_trees
        .then(|| (syntax as *const Syntax as usize, path.to_string()));
    let start = kept_key
        .as_ref()
        .and_then(|k| crate::kept_trees::take_for(k, source));
    let tree = PARSER.with(|p| {
        let mut p = p.borrow_mut();
        match p.set_language(&(syntax.grammar)()) {
            Ok(()) => crate::guard::parse_from(&mut p, source, start.as_ref()),
            Err(_) => Ok(None),
        }
    });
    if let (Some(key), Ok(Some(tree))) = (kept_key, &tree) {
        crate::kept_trees::keep(key, source, tree.clone());
    }
    let tree = match tree {
        Ok(Some(tree)) => tree,
        Ok(None) => {
            return FileFacts {
                syntax_errors: 1,
                ..FileFacts::default()
            }
        }
        Err(why) => return FileFacts::refused(why),
    };
    if let Some(why) = crate::guard::too_deep(tree.root_node()) {
        return FileFacts::refused(why);
    }
    let mut cx = Cx {
        path,
        src: source.as_bytes(),
        source,
        opts: opts.clone(),
        facts: FileFacts {
            scope: path.to_string(),
            ..FileFacts::default()
        },
        syntax,
        kept_names: Vec::new(),
        text_memo: RefCell::default(),
    };
    let mut errors = 0usize;
    preorder(tree.root_node(), |n| {
        if n.is_error() || n.is_missing() {
            errors += 1;
        }
        // A visit can add constants, which change what has text.
        cx.text_memo.get_mut().clear();
        (syntax.visit)(n, &mut cx);
        if !cx.opts.custom.is_empty() {
            custom_call(n, &mut cx);
        }
    });
    crate::fills::handed_pieces(tree.root_node(), &mut cx);
    cx.fill_kept_names();
    cx.facts.syntax_errors = errors;
    cx.facts
}

/// Calls `f` on every node under `root`, in preorder, without recursion:
/// deep expression trees (generated code, minified JS) must not overflow
/// the stack.
pub(crate) fn preorder<'t>(root: Node<'t>, mut f: impl FnMut(Node<'t>)) {
    let mut cursor = root.walk();
    'walk: loop {
        f(cursor.node());
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
}

/// A call of a message function the project declared in `errdex.toml`.
/// Call nodes are told apart by kind (`call`, `call_expression`,
/// `method_invocation`, `invocation_expression`, `macro_invocation`…), so
/// this works the same in every language.
fn custom_call(n: Node<'_>, cx: &mut Cx<'_>) {
    let k = n.kind();
    if !(k.contains("call") || k.contains("invocation")) {
        return;
    }
    let Some(f) = ["function", "name", "method", "macro"]
        .iter()
        .find_map(|field| n.child_by_field_name(field))
    else {
        return;
    };
    let callee = cx.text(f);
    let name = last_name(callee).trim_end_matches('!');
    let lang = cx.syntax.lang;
    let custom = cx.opts.custom.clone();
    let Some(cf) = custom
        .iter()
        .find(|c| (c.name == name || c.name == callee) && c.lang.is_none_or(|l| l == lang))
    else {
        return;
    };
    // The language's own rules may have made this call a site already.
    let pos = n.start_position();
    if cx
        .facts
        .sites
        .iter()
        .rev()
        .take(4)
        .any(|p| p.site.line_number == pos.row as u32 + 1 && p.site.column == pos.column as u32 + 1)
    {
        return;
    }
    let list = n.child_by_field_name("arguments").or_else(|| {
        let mut cur = n.walk();
        let found = n
            .named_children(&mut cur)
            .find(|c| c.kind().contains("argument") || c.kind() == "token_tree");
        found
    });
    let args = arguments(list);
    let site = cx.site(n, callee, cf.error_type, cf.severity);
    let (message, holes) = match args.get(cf.message) {
        Some(m) => match plain_literal(cx.text(*m)) {
            Some(text) => {
                let holes = if cf.format {
                    args[cf.message + 1..]
                        .iter()
                        .map(|a| cx.text(*a).to_string())
                        .collect()
                } else {
                    Vec::new()
                };
                (
                    vec![MsgPart::Text {
                        text,
                        format: cf.format,
                    }],
                    holes,
                )
            }
            None => (vec![MsgPart::Hole], vec![cx.text(*m).to_string()]),
        },
        None => (vec![MsgPart::Hole], Vec::new()),
    };
    cx.push(site, message, holes, n);
}

/// The text of a plain string literal in any of the languages (`"…"`,
/// `'…'`, `` `…` ``, `r"…"`, `@"…"`, `L"…"`), escapes decoded; `None` for
/// anything else (an interpolation, a name, a call).
fn plain_literal(t: &str) -> Option<String> {
    let body = t.trim_start_matches(['r', 'b', 'u', 'L', '@', 'R', 'U']);
    let q = body.chars().next()?;
    if !matches!(q, '"' | '\'' | '`') || body.len() < 2 || !body.ends_with(q) {
        return None;
    }
    let inner = &body[1..body.len() - 1];
    if q == '`' && inner.contains("${") {
        return None;
    }
    Some(if t.starts_with(['r', '@', 'R']) {
        inner.to_string()
    } else {
        decode_c_escapes(inner)
    })
}

/// A language module built on the shared walk: the visitor, the file
/// endings, what counts as a test file, and the printf rules its stored
/// patterns follow.
pub(crate) struct TreeLanguage {
    /// The language's node kinds and visitor.
    pub syntax: &'static Syntax,
    /// File endings it claims.
    pub extensions: &'static [&'static str],
    /// Whether a path is a test file.
    pub is_test: fn(&str) -> bool,
    /// The printf rules of its patterns.
    pub printf: crate::formats::Printf,
    /// What the rest of errdex knows of the language.
    pub conventions: &'static crate::Conventions,
}

impl crate::LanguageSupport for TreeLanguage {
    fn lang(&self) -> Lang {
        self.syntax.lang
    }

    fn extensions(&self) -> &'static [&'static str] {
        self.extensions
    }

    fn is_test_path(&self, path: &str) -> bool {
        (self.is_test)(path)
    }

    fn grammar(&self) -> tree_sitter::Language {
        (self.syntax.grammar)()
    }

    fn template(&self, pattern: &str, args: &[String], _callee: &str) -> errdex_model::Template {
        crate::formats::printf_template(
            pattern,
            args,
            self.printf,
            crate::formats::looks_like_error,
        )
    }

    fn extract(&self, path: &str, source: &str, opts: &ExtractOptions) -> FileFacts {
        extract(self.syntax, path, source, opts)
    }

    fn conventions(&self) -> &'static crate::Conventions {
        self.conventions
    }
}

#[cfg(test)]
mod tests;
