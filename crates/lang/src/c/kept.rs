//! Messages kept or built apart from the call that prints them: texts
//! assigned to a message name (`u->err = "invalid port"`, `*error_msg =
//! sdsnew("…")`), returned from a message table or a directive handler,
//! handed as a line-protocol error reply (`-WRONGTYPE …\r\n`), formatted
//! into a message buffer (and written on at its end), or written to a
//! stream in two statements that make one line.

use super::{adjacent_literals, arguments, format_message, formats_into_buffer, is_text};
use super::{plain_message, Verbs};
use crate::message::{trim_newline, Message, MsgPart};
use crate::tree::{self, last_name, text_part, Cx};
use errdex_model::{ErrorType, Severity};
use tree_sitter::Node;

/// `sdsnew("-WRONGTYPE Operation against a key holding the wrong kind of
/// value\r\n")`: an error reply of a line protocol (Redis's RESP), an
/// error code in capitals after a `-`, ended by CRLF, handed to whatever
/// builds the reply. A client prints it without its framing
/// (`WRONGTYPE Operation against …`), so that is the message.
pub(super) fn protocol_error_reply(n: Node<'_>, cx: &mut Cx<'_>) {
    if n.parent().is_none_or(|p| p.kind() != "argument_list") {
        return;
    }
    let Some(text) = adjacent_literals(cx.text(n)) else {
        return;
    };
    let Some(reply) = text.strip_prefix('-').and_then(|t| t.strip_suffix("\r\n")) else {
        return;
    };
    let code = reply.split(' ').next().unwrap_or_default();
    if !is_error_code(code) || reply.len() == code.len() || reply.contains('%') {
        return;
    }
    cx.push_kept_message(n, "reply", vec![text_part(reply.to_string())], Vec::new());
}

/// An error code of a line protocol: two capitals or more (`ERR`,
/// `WRONGTYPE`, `NOAUTH`).
fn is_error_code(code: &str) -> bool {
    code.len() >= 2 && code.bytes().all(|c| c.is_ascii_uppercase() || c == b'_')
}

/// `if (s[0] != '-') addReplyProto(c,"-ERR ",5);` then
/// `addReplyProto(c,s,len);`: an error code written ahead of a message
/// that the next statement writes through the same call to the same
/// place. Together they are one reply (`-ERR %v`), which a client prints
/// without its `-` (`ERR unknown command 'foo'`).
pub(super) fn error_code_written_ahead(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(args) = n.parent().filter(|p| p.kind() == "argument_list") else {
        return;
    };
    let Some(code) = adjacent_literals(cx.text(n))
        .and_then(|t| t.strip_prefix('-')?.strip_suffix(' ').map(str::to_string))
    else {
        return;
    };
    let Some(call) = args.parent().filter(|c| c.kind() == "call_expression") else {
        return;
    };
    if !is_error_code(&code) {
        return;
    }
    let Some(value) = written_next_by_the_same_call(call, n, cx) else {
        return;
    };
    let message = vec![text_part(format!("{code} ")), MsgPart::Hole];
    cx.push_kept_message(n, "reply", message, vec![value]);
}

/// The value the statement after `call`'s (after the `if` it is the
/// whole branch of) writes through the same function, with the same
/// first argument, where `call` has the literal `lit`.
fn written_next_by_the_same_call(call: Node<'_>, lit: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let mut statement = call
        .parent()
        .filter(|p| p.kind() == "expression_statement")?;
    if let Some(branch_of) = statement.parent().filter(|p| p.kind() == "if_statement") {
        if branch_of.child_by_field_name("alternative").is_some() {
            return None;
        }
        statement = branch_of;
    }
    let next = tree::next_statement(statement)?;
    let other = next
        .named_child(0)
        .filter(|c| next.kind() == "expression_statement" && c.kind() == "call_expression")?;
    let name = |c: Node<'_>| c.child_by_field_name("function").map(|f| cx.text(f));
    let (ours, theirs) = (
        arguments(call.child_by_field_name("arguments")),
        arguments(other.child_by_field_name("arguments")),
    );
    let at = ours.iter().position(|a| *a == lit)?;
    let same_place =
        at > 0 && ours.first().map(|a| cx.text(*a)) == theirs.first().map(|a| cx.text(*a));
    let value = theirs.get(at).filter(|v| !is_text(**v, cx))?;
    (name(call) == name(other) && same_place).then(|| cx.text(*value).to_string())
}

/// `u->err = "invalid port";`, `*err = "BIO_new_file() failed";`: a
/// message kept in a variable that a caller prints. Also a copy of a
/// literal (`*error_msg = sdsnew("Memory overcommit must be enabled! …")`,
/// `strdup`), whose pieces may stand in `#if` branches: all are taken.
pub(super) fn message_assignment(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(right) = tree::assigned_to_message_name(n, cx) else {
        return;
    };
    if right.kind() == "call_expression" {
        if let Some(text) = copied_literal(right, cx) {
            let mut m = vec![text_part(text)];
            trim_newline(&mut m);
            cx.push_kept_message(n, "=", m, Vec::new());
        }
        return;
    }
    if !matches!(right.kind(), "string_literal" | "concatenated_string") {
        return;
    }
    let (mut m, h) = plain_message(right, cx);
    trim_newline(&mut m);
    cx.push_kept_message(n, "=", m, h);
}

/// The text of `strdup("…")`, `sdsnew("…")` and the like: a copy of the
/// literals given, preprocessor lines between them left out.
fn copied_literal(call: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let name = cx.text(call.child_by_field_name("function")?);
    if !matches!(
        name,
        "strdup" | "xstrdup" | "estrdup" | "g_strdup" | "sdsnew" | "pstrdup"
    ) {
        return None;
    }
    let args = cx.text(call.child_by_field_name("arguments")?);
    let inner = args.strip_prefix('(')?.strip_suffix(')')?;
    let code: Vec<&str> = inner
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect();
    adjacent_literals(&code.join("\n")).filter(|t| !t.is_empty())
}

/// `case CURLE_COULDNT_CONNECT: return "Couldn't connect to server";` in
/// a function returning text: a message table (a `strerror`). Or, outside
/// a `case`, in a function that returns text only when something is wrong
/// (another of its returns is `NULL` or an `…_OK` constant: nginx's
/// directive handlers `return "invalid value";` or `NGX_CONF_OK`).
pub(super) fn table_return(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(value) = n.named_child(0) else {
        return;
    };
    if !matches!(value.kind(), "string_literal" | "concatenated_string") {
        return;
    }
    let mut in_case = false;
    let mut cur = n.parent();
    while let Some(p) = cur {
        match p.kind() {
            "case_statement" => in_case = true,
            "function_definition" => break,
            _ => {}
        }
        cur = p.parent();
    }
    let Some(func) = cur else {
        return;
    };
    let body = func.child_by_field_name("body");
    let head = body.map_or("", |b| &cx.text(func)[..b.start_byte() - func.start_byte()]);
    if !head.contains("char") || !head.contains('*') {
        return;
    }
    if !in_case && !body.is_some_and(|b| returns_nothing_wrong(cx.text(b))) {
        return;
    }
    let (mut m, h) = plain_message(value, cx);
    trim_newline(&mut m);
    cx.push_kept_message(n, "return", m, h);
}

/// Whether a function body also returns `NULL` or an `…_OK` constant (its
/// text results are then errors).
fn returns_nothing_wrong(body: &str) -> bool {
    body.match_indices("return").any(|(i, _)| {
        let value = body[i + 6..].trim_start();
        let value = value.split(';').next().unwrap_or_default().trim();
        value == "NULL" || value.ends_with("_OK")
    })
}

/// `fputs("curl: ", errors);` then `vfprintf(errors, fmt, ap);`: when the
/// statement after a write of text writes a value to the same stream
/// (`vfprintf(s, v, …)`, `fputs(v, s)` of no literal, `fprintf(s, fmt,
/// …)` of a format with holes), directly or first thing in the branch of
/// an `if` (redis-cli's `Could not connect to Redis at ` and then the
/// host or the socket), the two make one line, and the value's text is
/// given as its hole.
pub(super) fn value_written_next(n: Node<'_>, stream: &str, cx: &Cx<'_>) -> Option<String> {
    let statement = n.parent().filter(|p| p.kind() == "expression_statement")?;
    let mut next = tree::next_statement(statement)?;
    if next.kind() == "if_statement" {
        let branch = next.child_by_field_name("consequence")?;
        next = match branch.kind() {
            "compound_statement" => tree::first_statement(branch)?,
            _ => branch,
        };
    }
    let call = next
        .named_child(0)
        .filter(|c| next.kind() == "expression_statement" && c.kind() == "call_expression")?;
    let name = cx.text(call.child_by_field_name("function")?);
    let args = arguments(call.child_by_field_name("arguments"));
    let (to, value) = match name {
        "vfprintf" => (args.first()?, cx.text(*args.get(1)?).to_string()),
        "fputs" | "fputs_unlocked" => {
            let value = args.first().filter(|v| !is_text(**v, cx))?;
            (args.get(1)?, cx.text(*value).to_string())
        }
        "fprintf" if args.len() > 2 => {
            let values: Vec<&str> = args[2..].iter().map(|a| cx.text(*a)).collect();
            (args.first()?, values.join(", "))
        }
        _ => return None,
    };
    (cx.text(*to) == stream).then_some(value)
}

/// `snprintf(msg, sizeof(msg), "Internal error in RDB reading offset
/// %llu, …", …)`, `msnprintf(error_buffer, …, "SSL certificate problem:
/// %s", …)`: a message formatted into a buffer named for one, which the
/// function then logs or hands on. The format is the first literal after
/// the buffer (and its size). A buffer the function hands to a password
/// prompt (`getpass(prompt)`) holds the prompt the terminal shows: kept
/// at the info level, for tracing a terminal's text.
pub(super) fn message_buffer(n: Node<'_>, args: &[Node<'_>], cx: &mut Cx<'_>) {
    let Some(buffer) = args.first() else {
        return;
    };
    let name = cx.text(*buffer);
    let reaches = |sink: &dyn Fn(&str) -> bool| {
        let bare = name.trim_start_matches('&');
        let plain = bare.chars().all(|c| c.is_alphanumeric() || c == '_');
        plain
            && cx
                .function_text_after(n)
                .is_some_and(|after| crate::flow::reaches_statement(after, bare, sink))
    };
    let message = is_message_buffer(name) || reaches(&prints_an_error);
    let prompt = !message && reaches(&prompts_for_a_password);
    if !message && !prompt {
        return;
    }
    let Some(i) = (1..args.len().min(3)).find(|&i| is_text(args[i], cx)) else {
        return;
    };
    let (mut m, mut h) = format_message(args[i], &args[i + 1..], cx, Verbs::Libc);
    if let Some((next, holes)) = buffer_written_next(n, cx.text(*buffer), cx) {
        m.extend(next);
        h.extend(holes);
    }
    trim_newline(&mut m);
    let callee = last_name(cx.text(*buffer)).to_string();
    if prompt {
        cx.push_kept_message_at(n, &callee, m, h, ErrorType::Log, Severity::Info);
    } else {
        cx.push_kept_message(n, &callee, m, h);
    }
}

/// A call that shows its first argument as a prompt and reads a password
/// (`getpass(prompt)`, `getpass_r(prompt, buf, len)`,
/// `readpassphrase(prompt, buf, len, flags)`).
fn prompts_for_a_password(statement: &str) -> bool {
    let callee = statement.split('(').next().unwrap_or_default().trim();
    let callee = callee
        .rsplit([' ', '=', '.', '>'])
        .next()
        .unwrap_or_default();
    PROMPT_READERS.contains(&callee)
}

/// Functions that print their first argument as a prompt and read a
/// password from the terminal.
const PROMPT_READERS: &[&str] = &["getpass", "getpass_r", "readpassphrase"];

/// `len = snprintf(msg, …, "Internal error … -> ", …);` then (after a
/// `va_start`) `vsnprintf(msg+len, …, reason, ap);`: a format written
/// on at the end of the same buffer by the next statement continues the
/// message. Gives what it adds: its format's text, or a hole for a
/// format handed in.
fn buffer_written_next(n: Node<'_>, buffer: &str, cx: &Cx<'_>) -> Option<(Message, Vec<String>)> {
    let statement = std::iter::successors(n.parent(), |p| p.parent())
        .take_while(|p| p.kind() != "compound_statement")
        .find(|p| matches!(p.kind(), "expression_statement" | "declaration"))?;
    let mut next = tree::next_statement(statement)?;
    while cx.text(next).starts_with("va_start") {
        next = tree::next_statement(next)?;
    }
    let mut call = None;
    tree::preorder(next, |c| {
        if call.is_none() && c.kind() == "call_expression" {
            call = Some(c);
        }
    });
    let call = call.filter(|_| next.kind() == "expression_statement")?;
    let name = cx.text(call.child_by_field_name("function")?);
    let args = arguments(call.child_by_field_name("arguments"));
    let target = args.first().map(|a| cx.text(*a))?;
    let on_end = target
        .strip_prefix(buffer)
        .is_some_and(|rest| rest.trim_start().starts_with('+'));
    if !formats_into_buffer(name) || !on_end {
        return None;
    }
    let at = if name.ends_with("nprintf") { 2 } else { 1 };
    let fmt = *args.get(at)?;
    if is_text(fmt, cx) {
        let values = args.get(at + 1..).unwrap_or_default();
        return Some(format_message(fmt, values, cx, Verbs::Libc));
    }
    Some((vec![MsgPart::Hole], vec![cx.text(fmt).to_string()]))
}

/// A statement that prints an error: `fprintf` or `fputs` to an error
/// stream (`stderr`, `errors`, a `FILE *error`), `perror`, `syslog`, or
/// a call of a function named for a level (`failf`, `log_error`).
fn prints_an_error(statement: &str) -> bool {
    let callee = statement
        .split('(')
        .next()
        .unwrap_or_default()
        .trim()
        .rsplit(['.', '>', ' '])
        .next()
        .unwrap_or_default();
    let args = || statement.split_once('(').map_or("", |(_, a)| a).split(',');
    match callee {
        "fprintf" | "fputs" | "vfprintf" | "fputs_unlocked" | "fprintf_unlocked" => args()
            .map(|a| a.trim().trim_end_matches(')').trim())
            .any(|a| crate::is_error_stream(a) || matches!(a, "error" | "err")),
        "perror" | "syslog" => true,
        "" => false,
        _ => !super::formats_into_buffer(callee) && crate::level_from_name(callee).is_some(),
    }
}

/// A buffer named for a message: `msg`, `errbuf`, `error_buffer`,
/// `errmsg`, `msgbuf` (after any `&`, `->` or `.`).
fn is_message_buffer(target: &str) -> bool {
    let name = target
        .trim_start_matches('&')
        .rsplit(['.', '>'])
        .next()
        .unwrap_or(target)
        .to_ascii_lowercase();
    crate::is_message_name(&name)
        || name
            .split('_')
            .any(|w| matches!(w, "err" | "error" | "errbuf" | "msg" | "msgbuf" | "errmsg"))
}
