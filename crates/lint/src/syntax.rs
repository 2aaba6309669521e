//! The rules that read a file's syntax: handlers that drop the error they
//! caught (`swallowed-error`) and new errors thrown from a handler without
//! the caught one as their cause (`lost-cause`, for the languages with
//! exceptions; Go's comes from the records, Rust's from `map_err`).

use crate::{finding, Finding};
use errdex_model::Lang;
use std::path::Path;
use tree_sitter::Node;

/// Text a file must hold for either rule to find anything in it.
fn triggers(lang: Lang) -> &'static [&'static str] {
    match lang {
        Lang::Go => &["!= nil"],
        Lang::Python => &["except"],
        Lang::Ruby => &["rescue"],
        Lang::Rust => &["Err", "map_err"],
        Lang::Java | Lang::CSharp | Lang::Php | Lang::Cpp => &["catch"],
        Lang::JavaScript | Lang::TypeScript => &["catch"],
        _ => &[],
    }
}

pub(crate) fn check(path: &Path, rel: &str, lang: Lang) -> Vec<Finding> {
    let Ok(src) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    if !triggers(lang).iter().any(|t| src.contains(t)) || crate::is_generated(&src) {
        return Vec::new();
    }
    // The path picks the grammar: `.tsx` is TypeScript with TSX's.
    let grammar = errdex_lang::language_for_path(rel).unwrap_or(errdex_lang::language(lang));
    let Ok(tree) = errdex_lang::parse_guarded(grammar, &src) else {
        return Vec::new(); // the index run reports files it cannot parse
    };
    let cx = Cx {
        src: &src,
        rel,
        lang,
    };
    let mut out = Vec::new();
    let mut cursor = tree.root_node().walk();
    'walk: loop {
        let node = cursor.node();
        // Keywords share their construct's kind (Ruby's `rescue`).
        if node.is_named() {
            out.extend(cx.swallowed(node).or_else(|| cx.lost_cause(node)));
        }
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    out
}

/// `text` on one line, cut to `max` characters.
pub(crate) fn one_line(text: &str, max: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        flat
    } else {
        format!("{}…", flat.chars().take(max - 1).collect::<String>())
    }
}

struct Cx<'a> {
    src: &'a str,
    rel: &'a str,
    lang: Lang,
}

/// What a handler's body holds.
#[derive(PartialEq)]
enum Body {
    /// Nothing, or only `pass`/`...`.
    Empty,
    /// Nothing but a comment: ignoring is declared.
    Commented,
    /// Code.
    Code,
}

/// Names that declare a caught exception ignored on purpose.
fn declared_ignored(name: &str) -> bool {
    let n = name.trim_start_matches('$').to_lowercase();
    n.starts_with('_') || n.starts_with("ignore") || n.starts_with("expected") || n == "unused"
}

impl<'a> Cx<'a> {
    fn text(&self, n: Node<'_>) -> &'a str {
        n.utf8_text(self.src.as_bytes()).unwrap_or("")
    }

    fn line(n: Node<'_>) -> u32 {
        n.start_position().row as u32 + 1
    }

    /// What a block holds; comments count as declared intent.
    fn body(&self, block: Node<'_>) -> Body {
        let mut commented = false;
        let mut cursor = block.walk();
        for child in block.named_children(&mut cursor) {
            match child.kind() {
                k if k.contains("comment") => commented = true,
                "pass_statement" | "statement_list" if self.body(child) != Body::Code => {
                    commented |= self.body(child) == Body::Commented
                }
                "expression_statement" if self.text(child).trim() == "..." => {}
                _ => return Body::Code,
            }
        }
        if commented || self.text(block).contains("//") || self.text(block).contains("/*") {
            Body::Commented
        } else {
            Body::Empty
        }
    }

    fn swallowed(&self, n: Node<'_>) -> Option<Finding> {
        let what = match (self.lang, n.kind()) {
            (Lang::Go, "if_statement") => self.go_empty_check(n)?,
            (Lang::Python, "except_clause") => self.python_empty_except(n)?,
            (Lang::Ruby, "rescue") => self.ruby_empty_rescue(n)?,
            (Lang::Ruby, "rescue_modifier") => self.ruby_rescue_nil(n)?,
            (Lang::Rust, "match_arm") => self.rust_empty_err_arm(n)?,
            (Lang::Rust, "if_expression") => self.rust_empty_if_let_err(n)?,
            (Lang::JavaScript | Lang::TypeScript, "call_expression") => {
                self.js_empty_promise_catch(n)?
            }
            (_, "catch_clause") => self.empty_catch(n)?,
            _ => return None,
        };
        Some(finding(
            "swallowed-error",
            self.rel,
            Self::line(n),
            format!("{what} drops the error it caught: handle it, log it or return it (or say in a comment inside it why ignoring it is safe)"),
        ))
    }

    /// `if err != nil {}`.
    fn go_empty_check(&self, n: Node<'_>) -> Option<String> {
        let cond = self.text(n.child_by_field_name("condition")?);
        let (name, nil) = cond.split_once("!=")?;
        let name = name.trim();
        if nil.trim() != "nil" || !crate::records::is_error_name(name) {
            return None;
        }
        if n.child_by_field_name("alternative").is_some() {
            return None;
        }
        (self.body(n.child_by_field_name("consequence")?) == Body::Empty)
            .then(|| format!("`if {name} != nil {{}}`"))
    }

    /// A broad `except: pass` (bare, `Exception`, `BaseException`):
    /// catching one named exception and going on is Python's idiom
    /// (`except KeyError: pass`), so named ones are not reported.
    fn python_empty_except(&self, n: Node<'_>) -> Option<String> {
        let mut cursor = n.walk();
        let block = n
            .named_children(&mut cursor)
            .find(|c| c.kind() == "block")?;
        if self.body(block) != Body::Empty || self.text(n).contains('#') {
            return None;
        }
        let head = self.text(n).split(':').next().unwrap_or("").trim();
        let types = head.trim_start_matches("except").trim();
        let types = types.split(" as ").next().unwrap_or("").trim();
        let broad = types.is_empty()
            || types
                .trim_matches(|c| c == '(' || c == ')')
                .split(',')
                .any(|t| matches!(t.trim(), "Exception" | "BaseException"));
        broad.then(|| format!("`{}: pass`", one_line(head, 60)))
    }

    /// A broad `rescue` (no class, `StandardError`, `Exception`) with no
    /// body and no comment; as in Python, rescuing one named error and
    /// going on is the idiom.
    fn ruby_empty_rescue(&self, n: Node<'_>) -> Option<String> {
        let mut cursor = n.walk();
        if n.named_children(&mut cursor).any(|c| c.kind() == "then") {
            return None;
        }
        if let Some(classes) = n.child_by_field_name("exceptions") {
            let t = self.text(classes);
            let broad = t
                .split(',')
                .any(|c| matches!(c.trim(), "StandardError" | "Exception"));
            if !broad {
                return None;
            }
        }
        let end = n
            .next_sibling()
            .or_else(|| n.parent())
            .map_or(self.src.len(), |s| s.start_byte());
        let gap = self.src.get(n.start_byte()..end.max(n.end_byte()))?;
        (!gap.contains('#')).then(|| format!("`{}`", one_line(self.text(n), 50)))
    }

    /// `… rescue nil`.
    fn ruby_rescue_nil(&self, n: Node<'_>) -> Option<String> {
        let handler = n.child_by_field_name("handler")?;
        (self.text(handler).trim() == "nil").then(|| "`rescue nil`".to_string())
    }

    fn rust_err_pattern(&self, p: &str) -> bool {
        let p: String = p.split_whitespace().collect();
        p.strip_prefix("Err(")
            .and_then(|x| x.strip_suffix(')'))
            .is_some_and(|inner| inner == ".." || inner.starts_with('_'))
    }

    /// `Err(_) => {}` or `Err(_) => ()`.
    fn rust_empty_err_arm(&self, n: Node<'_>) -> Option<String> {
        let pattern = n.child_by_field_name("pattern")?;
        if !self.rust_err_pattern(self.text(pattern)) {
            return None;
        }
        let value = n.child_by_field_name("value")?;
        let empty = match value.kind() {
            "unit_expression" => true,
            "block" => self.body(value) == Body::Empty,
            _ => false,
        };
        empty.then(|| format!("`{} => {}`", self.text(pattern), self.text(value)))
    }

    /// `if let Err(_) = … {}`.
    fn rust_empty_if_let_err(&self, n: Node<'_>) -> Option<String> {
        let cond = n.child_by_field_name("condition")?;
        let pattern = cond.child_by_field_name("pattern")?;
        if cond.kind() != "let_condition" || !self.rust_err_pattern(self.text(pattern)) {
            return None;
        }
        if n.child_by_field_name("alternative").is_some() {
            return None;
        }
        (self.body(n.child_by_field_name("consequence")?) == Body::Empty)
            .then(|| format!("`if let {} = … {{}}`", self.text(pattern)))
    }

    /// `promise.catch(() => {})`.
    fn js_empty_promise_catch(&self, n: Node<'_>) -> Option<String> {
        let callee = n.child_by_field_name("function")?;
        if callee.kind() != "member_expression"
            || self.text(callee.child_by_field_name("property")?) != "catch"
        {
            return None;
        }
        let args = n.child_by_field_name("arguments")?;
        let handler = args.named_child(0)?;
        if !matches!(handler.kind(), "arrow_function" | "function_expression") {
            return None;
        }
        let body = handler.child_by_field_name("body")?;
        (body.kind() == "statement_block" && self.body(body) == Body::Empty)
            .then(|| "`.catch(() => {})`".to_string())
    }

    /// An empty `catch` block: Java, C#, JavaScript, TypeScript, PHP, C++.
    fn empty_catch(&self, n: Node<'_>) -> Option<String> {
        let body = n.child_by_field_name("body").or_else(|| {
            let mut c = n.walk();
            let last = n.named_children(&mut c).last();
            last.filter(|b| b.kind().ends_with("block") || b.kind() == "compound_statement")
        })?;
        if self.body(body) != Body::Empty {
            return None;
        }
        if self.catch_variable(n).is_some_and(|v| declared_ignored(&v)) {
            return None;
        }
        let head = self.src.get(n.start_byte()..body.start_byte())?;
        Some(format!("`{} {{}}`", one_line(head, 60)))
    }

    /// The name a `catch` binds the exception to, if it binds one.
    fn catch_variable(&self, n: Node<'_>) -> Option<String> {
        let param = match self.lang {
            Lang::Java => {
                named_child_of_kind(n, "catch_formal_parameter")?.child_by_field_name("name")?
            }
            Lang::CSharp => {
                named_child_of_kind(n, "catch_declaration")?.child_by_field_name("name")?
            }
            Lang::JavaScript | Lang::TypeScript => n.child_by_field_name("parameter")?,
            Lang::Php => n.child_by_field_name("name")?,
            _ => return None,
        };
        Some(self.text(param).to_string())
    }

    fn lost_cause(&self, n: Node<'_>) -> Option<Finding> {
        let what = match (self.lang, n.kind()) {
            (Lang::Python, "raise_statement") => self.python_raise_without_from(n)?,
            (Lang::Rust, "closure_expression") => self.rust_map_err_drops(n)?,
            (Lang::Java | Lang::CSharp | Lang::JavaScript | Lang::TypeScript, k)
                if k == "throw_statement" || k == "throw_expression" =>
            {
                self.throw_without_cause(n)?
            }
            (Lang::Php, "throw_expression") => self.throw_without_cause(n)?,
            _ => return None,
        };
        Some(finding("lost-cause", self.rel, Self::line(n), what))
    }

    /// The handler clause `n` runs in, if any, up to the enclosing
    /// function.
    fn handler_of(&self, n: Node<'a>) -> Option<Node<'a>> {
        let (handler, stops): (&str, &[&str]) = match self.lang {
            Lang::Python => (
                "except_clause",
                &["function_definition", "lambda", "class_definition"],
            ),
            _ => (
                "catch_clause",
                &[
                    "method_declaration",
                    "constructor_declaration",
                    "lambda_expression",
                    "local_function_statement",
                    "function_declaration",
                    "function_expression",
                    "function_definition",
                    "arrow_function",
                    "method_definition",
                    "anonymous_function",
                    "anonymous_function_creation_expression",
                    "class_body",
                    "class_declaration",
                ],
            ),
        };
        let mut at = n.parent();
        while let Some(p) = at {
            if p.kind() == handler {
                return Some(p);
            }
            if stops.contains(&p.kind()) {
                return None;
            }
            at = p.parent();
        }
        None
    }

    /// `raise X(…)` inside `except` without `from`.
    fn python_raise_without_from(&self, n: Node<'a>) -> Option<String> {
        let raised = n.named_child(0)?;
        if raised.kind() != "call" || n.child_by_field_name("cause").is_some() {
            return None;
        }
        let mut c = n.walk();
        if n.children(&mut c).any(|k| k.kind() == "from") {
            return None;
        }
        let class = self.text(raised.child_by_field_name("function")?);
        if matches!(
            class.rsplit('.').next().unwrap_or(class),
            "SystemExit"
                | "StopIteration"
                | "StopAsyncIteration"
                | "KeyboardInterrupt"
                | "GeneratorExit"
        ) {
            return None;
        }
        let handler = self.handler_of(n)?;
        let head = self.text(handler).split(':').next().unwrap_or("").trim();
        let name = head.split(" as ").nth(1).map(str::trim);
        Some(format!(
            "`raise {class}(…)` inside `{}` drops the caught exception as its cause (`__cause__`); write `raise {class}(…) from {}`",
            one_line(head, 50),
            name.unwrap_or("err (bind it with `as err`)")
        ))
    }

    /// `throw new X(…)` inside `catch (E e)` without `e` among its
    /// arguments (JavaScript: nor `{ cause: e }`).
    fn throw_without_cause(&self, n: Node<'a>) -> Option<String> {
        let created =
            named_descendant_of_kinds(n, &["object_creation_expression", "new_expression"])?;
        let handler = self.handler_of(n)?;
        let body = self.text(handler);
        if body.contains(".initCause(") || body.contains("addSuppressed(") {
            return None;
        }
        let var = self.catch_variable(handler);
        let args = created
            .child_by_field_name("arguments")
            .or_else(|| named_child_of_kind(created, "arguments"));
        if let (Some(v), Some(args)) = (&var, args) {
            let mut c = args.walk();
            let passes = args.named_children(&mut c).any(|a| {
                let a = self.text(a).trim();
                a == v || a.ends_with(&format!(": {v}")) || a.contains("cause")
            });
            if passes {
                return None;
            }
        }
        let class = created
            .child_by_field_name("type")
            .or_else(|| created.child_by_field_name("constructor"))
            .map(|t| self.text(t))
            .unwrap_or("…");
        let how = match self.lang {
            Lang::JavaScript | Lang::TypeScript => "pass `{ cause: e }`",
            Lang::Php => "pass it as `$previous`",
            _ => "pass it as the cause argument",
        };
        Some(format!(
            "`new {class}(…)` thrown inside `catch{}` does not carry the caught exception, so its cause and stack are lost; {how}",
            var.map(|v| format!(" ({v})")).unwrap_or_default()
        ))
    }

    /// `.map_err(|_| …)`.
    fn rust_map_err_drops(&self, n: Node<'_>) -> Option<String> {
        let params = n.child_by_field_name("parameters")?;
        let names = self.text(params).trim_matches('|').trim();
        if !(names == "_" || (names.starts_with('_') && !names.contains(','))) {
            return None;
        }
        let call = n.parent()?.parent()?;
        let callee = call.child_by_field_name("function")?;
        if call.kind() != "call_expression"
            || callee.kind() != "field_expression"
            || self.text(callee.child_by_field_name("field")?) != "map_err"
        {
            return None;
        }
        Some(format!(
            "`map_err(|{names}| …)` drops the source error; keep it (`map_err(|e| …e…)`, a `#[source]` field) so callers and logs see why"
        ))
    }
}

fn named_child_of_kind<'t>(n: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut c = n.walk();
    let found = n.named_children(&mut c).find(|k| k.kind() == kind);
    found
}

/// The first descendant of one of `kinds`, breadth first, two levels deep
/// (`throw new X()`, `throw_expression` in an expression statement).
fn named_descendant_of_kinds<'t>(n: Node<'t>, kinds: &[&str]) -> Option<Node<'t>> {
    let mut c = n.walk();
    let children: Vec<Node<'t>> = n.named_children(&mut c).collect();
    if let Some(k) = children.iter().find(|k| kinds.contains(&k.kind())) {
        return Some(*k);
    }
    children.iter().find_map(|k| {
        let mut c = k.walk();
        let found = k.named_children(&mut c).find(|g| kinds.contains(&g.kind()));
        found
    })
}
