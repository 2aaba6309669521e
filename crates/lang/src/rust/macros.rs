//! Rust's macros: panics, anyhow, `log`/`tracing` and stderr prints,
//! calls of the project's own message macros and their `macro_rules!`
//! definitions, and the items hidden in item-position macros
//! (`cfg_rt! { … }`), parsed again on their own.

use super::*;

/// The macro's name without its path (`log::error` → `error`).
pub(super) fn macro_name<'a>(n: Node<'_>, cx: &Cx<'a>) -> Option<(&'a str, &'a str)> {
    let m = n.child_by_field_name("macro")?;
    let path = cx.text(m);
    Some((path, last_name(path)))
}

pub(super) fn token_tree(n: Node<'_>) -> Option<Node<'_>> {
    let mut cur = n.walk();
    let tt = n
        .named_children(&mut cur)
        .find(|c| c.kind() == "token_tree");
    tt
}

/// Panics, anyhow, logging, stderr prints, calls of project message
/// macros, and the items hidden in item-position macros.
pub(super) fn macro_call(n: Node<'_>, cx: &mut Cx<'_>) {
    let (Some((path, name)), Some(tt)) = (macro_name(n, cx), token_tree(n)) else {
        return;
    };
    let args = macro_args(tt);
    let callee = format!("{path}!");
    let panic = |cx: &Cx<'_>| cx.site(n, &callee, ErrorType::Panic, Severity::Critical);
    match name {
        "panic" => {
            if in_test_code(n, cx) {
                return;
            }
            let msg = format_args_message(&args, cx)
                .unwrap_or_else(|| (vec![text_part("explicit panic")], Vec::new()));
            let site = panic(cx);
            push(cx, site, msg.0, msg.1, n);
        }
        "unreachable" | "todo" | "unimplemented" => {
            if in_test_code(n, cx) {
                return;
            }
            // What the standard library prints before the message.
            let prefix = match name {
                "unreachable" => "internal error: entered unreachable code",
                "todo" => "not yet implemented",
                _ => "not implemented",
            };
            let msg = match format_args_message(&args, cx) {
                Some(m) => prefixed(&format!("{prefix}: "), m),
                None => (vec![text_part(prefix)], Vec::new()),
            };
            let site = panic(cx);
            push(cx, site, msg.0, msg.1, n);
        }
        "assert" | "assert_eq" | "assert_ne" => {
            let skip = if name == "assert" { 1 } else { 2 };
            if args.len() < skip || in_test_code(n, cx) {
                return;
            }
            let msg = format_args_message(&args[skip..], cx);
            // What the standard library prints: the message, else the
            // condition as written; `assert_eq!` adds both values.
            let (m, h) = if name == "assert" {
                msg.unwrap_or_else(|| {
                    let cond = one_line(args[0].text(cx));
                    (
                        vec![text_part(format!("assertion failed: {cond}"))],
                        Vec::new(),
                    )
                })
            } else {
                let op = if name == "assert_eq" { "==" } else { "!=" };
                let head = format!("assertion `left {op} right` failed");
                let (mut m, mut h) = match msg {
                    Some(msg) => prefixed(&format!("{head}: "), msg),
                    None => (vec![text_part(head)], Vec::new()),
                };
                m.push(text_part("\n  left: "));
                m.push(MsgPart::Hole);
                m.push(text_part("\n right: "));
                m.push(MsgPart::Hole);
                h.push(one_line(args[0].text(cx)));
                h.push(one_line(args[1].text(cx)));
                (m, h)
            };
            let site = panic(cx);
            push(cx, site, m, h, n);
        }
        "bail" | "anyhow" | "eyre" | "format_err" => {
            if in_test_code(n, cx) {
                return;
            }
            let Some((m, h)) = format_args_message(&args, cx) else {
                return;
            };
            let mut site = cx.site(n, &callee, ErrorType::Exception, Severity::Error);
            site.facts.returned |= name == "bail";
            push(cx, site, m, h, n);
        }
        "ensure" => {
            if args.is_empty() || in_test_code(n, cx) {
                return;
            }
            // Without a message anyhow prints the condition.
            let (m, h) = format_args_message(&args[1..], cx).unwrap_or_else(|| {
                let cond = one_line(args[0].text(cx));
                (
                    vec![text_part(format!("Condition failed: `{cond}`"))],
                    Vec::new(),
                )
            });
            let mut site = cx.site(n, &callee, ErrorType::Exception, Severity::Error);
            site.facts.returned = true;
            push(cx, site, m, h, n);
        }
        "error" | "warn" | "info" | "debug" | "trace" => {
            if let Some(sev) = log_level(name, cx) {
                log_site(n, &callee, sev, &args, cx);
            }
        }
        // `log!(Level::Error, …)`, `event!(Level::ERROR, …)`.
        "log" | "event" => {
            let level = args
                .first()
                .map(|a| last_name(a.text(cx)).to_ascii_lowercase());
            if let Some(sev) = level.as_deref().and_then(|l| log_level(l, cx)) {
                log_site(n, &callee, sev, &args[1..], cx);
            }
        }
        "eprintln" | "eprint" => {
            if in_test_code(n, cx) {
                return;
            }
            if let Some((m, h)) = format_args_message(&args, cx) {
                // `eprintln!("warning: …")` is a warning by its own word.
                let warning = args[0].literal(cx).is_some_and(|f| {
                    let f = f.trim_start().to_ascii_lowercase();
                    f.starts_with("warning") || f.starts_with("warn:")
                });
                let sev = if warning {
                    Severity::Warning
                } else {
                    Severity::Error
                };
                let site = cx.site(n, &callee, ErrorType::Log, sev);
                push(cx, site, m, h, n);
            }
        }
        "write" | "writeln" => {
            // In `impl Display for SomeError`: the error's text.
            let Some(class) = display_impl(n, cx) else {
                pieces::write_piece(n, name, &args, cx);
                return;
            };
            let Some(fmt) = args.get(1).and_then(|a| a.literal(cx)) else {
                return;
            };
            if in_test_code(n, cx) {
                return;
            }
            let (m, h) = format_message(&fmt, &args[2..], cx);
            let mut site = cx.site(n, &callee, ErrorType::Exception, Severity::Error);
            site.error_class = Some(class);
            push(cx, site, m, h, n);
        }
        "format" | "format_args" | "print" | "println" | "vec" | "matches" | "concat"
        | "stringify" | "include_str" | "macro_rules" => {}
        _ => {
            if is_item_macro(n, tt) {
                reparse(n, tt, cx);
            } else {
                message_macro_call(n, path, name, &args, cx);
            }
        }
    }
}

/// Records a site; one whose literal text has no word in it (`"{}\n{}"`,
/// `"{}: {}"`) says nothing to search for and is listed as dynamic.
pub(super) fn push(cx: &mut Cx<'_>, site: RawSite, m: Message, h: Vec<String>, n: Node<'_>) {
    let worded = m.iter().any(|p| match p {
        MsgPart::Text { text, .. } => text.chars().any(char::is_alphanumeric),
        MsgPart::Const { .. } => true,
        MsgPart::Hole => false,
    });
    if worded {
        cx.push(site, m, h, n);
    } else {
        cx.push(site, vec![MsgPart::Hole], Vec::new(), n);
    }
}

/// The severity of a log macro, or `None` when its level is not wanted.
pub(super) fn log_level(name: &str, cx: &Cx<'_>) -> Option<Severity> {
    match name {
        "error" => Some(Severity::Error),
        "warn" | "warning" => Some(Severity::Warning),
        "info" if cx.opts.all_levels => Some(Severity::Info),
        "debug" | "trace" if cx.opts.all_levels => Some(Severity::Debug),
        _ => None,
    }
}

/// `error!(target: "x", field = ?y, "msg {}", z)`: the first argument that
/// is a string literal alone is the format.
pub(super) fn log_site(
    n: Node<'_>,
    callee: &str,
    sev: Severity,
    args: &[Arg<'_>],
    cx: &mut Cx<'_>,
) {
    if in_test_code(n, cx) {
        return;
    }
    let site = cx.site(n, callee, ErrorType::Log, sev);
    match args.iter().position(|a| a.literal(cx).is_some()) {
        Some(i) => {
            let fmt = args[i].literal(cx).unwrap_or_default();
            let (m, h) = format_message(&fmt, &args[i + 1..], cx);
            push(cx, site, m, h, n);
        }
        // Fields only (`error!(%err)`): nothing literal to look for.
        None => push(cx, site, vec![MsgPart::Hole], Vec::new(), n),
    }
}

/// `fail!("bad {}", x)`: a call of a macro whose name implies a level;
/// it becomes a site if the repository defines such a message macro.
pub(super) fn message_macro_call(
    n: Node<'_>,
    path: &str,
    name: &str,
    args: &[Arg<'_>],
    cx: &mut Cx<'_>,
) {
    let plain = !path.contains("::")
        || ["crate::", "$crate::", "self::", "super::"]
            .iter()
            .any(|p| path.strip_prefix(p) == Some(name));
    if !plain || crate::level_from_name(name).is_none() || in_test_code(n, cx) {
        return;
    }
    let Some(i) = args.iter().position(|a| a.literal(cx).is_some()) else {
        return;
    };
    let fmt = args[i].literal(cx).unwrap_or_default();
    let (m, h) = format_message(&fmt, &args[i + 1..], cx);
    let site = cx.site(n, &format!("{path}!"), ErrorType::Log, Severity::Error);
    cx.wrapper_call(name, i, site, m, h, n);
}

/// `macro_rules! fail { ($($arg:tt)*) => { … format!($($arg)*) … } }`: a
/// message macro whose calls are sites. The format is the argument that
/// binds a `$fmt:literal`/`$msg:expr`, or that starts `$($arg:tt)*`.
pub(super) fn wrapper_def(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(name) = n.child_by_field_name("name").map(|x| cx.text(x)) else {
        return;
    };
    let mut found: Vec<(usize, bool)> = Vec::new();
    let mut cur = n.walk();
    for rule in n.named_children(&mut cur) {
        let (Some(left), Some(right)) = (
            rule.child_by_field_name("left"),
            rule.child_by_field_name("right"),
        ) else {
            continue;
        };
        let body = cx.text(right);
        let formats = [
            "format_args!",
            "format!",
            "println!",
            "print!",
            "eprintln!",
            "eprint!",
            "write!",
            "writeln!",
            "panic!",
            "error!",
            "warn!",
            "info!",
            "debug!",
            "trace!",
            "log!",
            "event!",
            "bail!",
            "anyhow!",
        ];
        if !formats.iter().any(|f| body.contains(f)) {
            continue;
        }
        let Some(index) = format_param(left, cx) else {
            continue;
        };
        let returns_error = [
            "Err(",
            "bail!",
            "anyhow!",
            "eyre!",
            "::custom(",
            "Error::new(",
        ]
        .iter()
        .any(|w| body.contains(w));
        if !found.contains(&(index, returns_error)) {
            found.push((index, returns_error));
        }
    }
    // The rules' bodies hold sites of their own (`error!("internal
    // error: {:?}", $e)`), tokens to the grammar until parsed again.
    let mut cur = n.walk();
    let bodies: Vec<Node<'_>> = n
        .named_children(&mut cur)
        .filter_map(|r| r.child_by_field_name("right"))
        .filter(|b| cx.text(*b).contains('!') || cx.text(*b).contains("Err("))
        .collect();
    for body in bodies {
        reparse(n, body, cx);
    }
    let name = name.to_string();
    for (index, returns_error) in found {
        cx.wrapper_def(&name, index, returns_error);
    }
}

/// The argument index of a macro rule's format parameter.
pub(super) fn format_param(pattern: Node<'_>, cx: &Cx<'_>) -> Option<usize> {
    let mut commas = 0;
    let mut cur = pattern.walk();
    let children: Vec<Node<'_>> = pattern.children(&mut cur).collect();
    for (i, c) in children.iter().enumerate() {
        match c.kind() {
            "," => commas += 1,
            "token_binding_pattern" => {
                let var = c
                    .child_by_field_name("name")
                    .map(|v| cx.text(v).trim_start_matches('$'))
                    .unwrap_or("");
                let ty = c.child_by_field_name("type").map(|t| cx.text(t));
                let fmt_name = matches!(
                    var,
                    "fmt" | "format" | "msg" | "message" | "lit" | "literal" | "f" | "s"
                );
                let variadic_after = children[i + 1..]
                    .iter()
                    .any(|x| x.kind() == "token_repetition_pattern");
                if (ty == Some("literal") || fmt_name && ty == Some("expr")) && variadic_after {
                    return Some(commas);
                }
            }
            "token_repetition_pattern" if cx.text(*c).contains(":tt") => return Some(commas),
            _ => {}
        }
    }
    None
}

/// Whether a macro call stands where items do and holds items
/// (`cfg_rt! { pub fn spawn… }`).
pub(super) fn is_item_macro(n: Node<'_>, tt: Node<'_>) -> bool {
    let item_level = n
        .parent()
        .is_some_and(|p| matches!(p.kind(), "source_file" | "declaration_list"));
    let braced = tt.child(0).is_some_and(|c| c.kind() == "{");
    item_level && braced && {
        let mut cur = tt.walk();
        let has_items = tt
            .children(&mut cur)
            .any(|c| matches!(c.kind(), "fn" | "impl" | "mod" | "enum" | "struct"));
        has_items
    }
}

/// Parses the inside of a token tree (an item macro's items, a macro
/// rule's body) as Rust, in the file's own coordinates, and walks it like
/// the rest of the file. `n` is the macro around it.
pub(super) fn reparse(n: Node<'_>, tt: Node<'_>, cx: &mut Cx<'_>) {
    thread_local! {
        static PARSER: RefCell<Parser> = RefCell::new(Parser::new());
    }
    if in_test_code(n, cx) {
        return;
    }
    let (start, end) = (tt.start_position(), tt.end_position());
    let range = tree_sitter::Range {
        start_byte: tt.start_byte() + 1,
        end_byte: tt.end_byte() - 1,
        start_point: tree_sitter::Point::new(start.row, start.column + 1),
        end_point: tree_sitter::Point::new(end.row, end.column.saturating_sub(1)),
    };
    let src = cx.src;
    let tree: Option<Tree> = PARSER.with(|p| {
        let mut p = p.borrow_mut();
        p.set_language(&(SYNTAX.grammar)()).ok()?;
        p.set_included_ranges(&[range]).ok()?;
        let t = p.parse(src, None);
        p.set_included_ranges(&[]).ok()?;
        t
    });
    let Some(tree) = tree.filter(|t| crate::guard::too_deep(t.root_node()).is_none()) else {
        return;
    };
    tree::preorder(tree.root_node(), |n| visit(n, cx));
}
