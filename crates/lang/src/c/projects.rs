//! The message functions of particular C projects and libraries: BSD's
//! `err`/`warn` family, nginx's `ngx_log_error` and its kin, PostgreSQL's
//! `ereport`, the project's own message functions, OpenSSH's
//! `do_log2`.

use super::*;

/// BSD `err(code, fmt, …)`, `errx`, `errc(code, error, fmt, …)` exit;
/// `warn(fmt, …)`, `warnx`, `warnc(error, fmt, …)` log. The variants
/// without `x` append ": " and the error text.
pub(super) fn bsd_err(n: Node<'_>, name: &str, args: &[Node<'_>], cx: &mut Cx<'_>) {
    let exits = name.starts_with("err");
    let fmt_at = usize::from(exits) + usize::from(name.ends_with('c'));
    let Some(fmt) = args.get(fmt_at) else {
        return;
    };
    // `err(1, NULL)` prints the error text alone.
    let (mut m, mut h) = if cx.text(*fmt) == "NULL" {
        (Vec::new(), Vec::new())
    } else {
        format_message(*fmt, &args[fmt_at + 1..], cx, Verbs::Libc)
    };
    if !name.ends_with('x') {
        let error = if name.ends_with('c') {
            format!("strerror({})", cx.text(args[fmt_at - 1]))
        } else {
            "strerror(errno)".to_string()
        };
        if m.is_empty() {
            m.push(MsgPart::Hole);
            h.push(error);
        } else if m.iter().all(|p| matches!(p, MsgPart::Hole)) {
            // A format only known at run time: nothing literal to add.
        } else {
            with_errno(&mut m, &mut h, &error);
        }
    }
    let (ty, sev) = if exits {
        (ErrorType::Exit, Severity::Critical)
    } else {
        (ErrorType::Log, Severity::Warning)
    };
    let site = cx.site(
        n,
        cx.text(n.child_by_field_name("function").unwrap_or(n)),
        ty,
        sev,
    );
    push(cx, site, m, h, n);
}

/// nginx: `ngx_log_error(level, log, err, fmt, …)` and its kin. A
/// nonzero `err` appends " (errno: strerror)"; `ngx_conf_log_error`
/// appends where in the configuration file, and `ngx_ssl_error`
/// OpenSSL's error queue (` (SSL: error:…)`) before the errno.
pub(super) fn nginx(n: Node<'_>, name: &str, args: &[Node<'_>], cx: &mut Cx<'_>) {
    let Some(fmt) = args.get(3) else {
        return;
    };
    let sev = if name.starts_with("ngx_log_debug") {
        Severity::Debug
    } else {
        level_of_arg(args[0], cx).unwrap_or(Severity::Error)
    };
    if !wanted(sev, cx) {
        return;
    }
    let (mut m, mut h) = format_message(*fmt, &args[4..], cx, Verbs::Nginx);
    if !m.iter().all(|p| matches!(p, MsgPart::Hole)) {
        if name == "ngx_ssl_error" {
            // OpenSSL's error queue, before the errno nginx appends.
            trim_newline(&mut m);
            m.extend([text_part(" (SSL:"), MsgPart::Hole, text_part(")")]);
            h.push("ERR_error_string(ERR_get_error())".into());
        }
        ngx_errno(&mut m, &mut h, cx.text(args[2]));
        if name == "ngx_conf_log_error" {
            m.push(MsgPart::Text {
                text: " in %s:%d".into(),
                format: true,
            });
            h.push("cf->conf_file->file.name.data".into());
            h.push("cf->conf_file->line".into());
        }
    }
    let callee = cx.text(n.child_by_field_name("function").unwrap_or(n));
    let site = cx.site(n, callee, ErrorType::Log, sev);
    push(cx, site, m, h, n);
}

/// nginx's " (%d: %s)" after a message whose `err` is not 0.
pub(super) fn ngx_errno(m: &mut Message, h: &mut Vec<String>, err: &str) {
    if err == "0" || m.iter().all(|p| matches!(p, MsgPart::Hole)) {
        return;
    }
    trim_newline(m);
    m.push(text_part(" ("));
    m.push(MsgPart::Text {
        text: "%d".into(),
        format: true,
    });
    m.push(text_part(": "));
    m.push(MsgPart::Hole);
    m.push(text_part(")"));
    h.push(err.to_string());
    h.push(format!("strerror({err})"));
}

/// Postgres's message parts, inside an `ereport`.
pub(super) fn is_ereport_part(name: &str) -> bool {
    name.starts_with("errmsg")
        || name.starts_with("errdetail")
        || name.starts_with("errhint")
        || name.starts_with("errcontext")
        || matches!(
            name,
            "errcode" | "errcode_for_file_access" | "errcode_for_socket_access"
        )
}

/// Postgres: `ereport(ERROR, (errcode(ERRCODE_X), errmsg("…", …)))`,
/// the inner parentheses optional. The code is the site's code.
pub(super) fn ereport(n: Node<'_>, name: &str, args: &[Node<'_>], cx: &mut Cx<'_>) {
    let level_at = usize::from(name == "ereport_domain");
    let Some(level) = args.get(level_at) else {
        return;
    };
    let sev = level_of(cx.text(*level)).unwrap_or(Severity::Error);
    if !wanted(sev, cx) {
        return;
    }
    let mut msg: Option<Node<'_>> = None;
    let mut code: Option<String> = None;
    let mut stack: Vec<Node<'_>> = args[level_at + 1..].to_vec();
    while let Some(a) = stack.pop() {
        if a.kind() == "call_expression" {
            let f = a.child_by_field_name("function").map(|f| cx.text(f));
            match f {
                Some(m) if m.starts_with("errmsg") => msg = Some(a),
                Some("errcode") => {
                    code = arguments(a.child_by_field_name("arguments"))
                        .first()
                        .map(|c| cx.text(*c).to_string());
                }
                _ => {}
            }
            continue;
        }
        let mut cur = a.walk();
        stack.extend(a.named_children(&mut cur));
    }
    let Some(msg) = msg else {
        return;
    };
    let margs = arguments(msg.child_by_field_name("arguments"));
    // `errmsg_plural(singular, plural, n, …)`: the singular form.
    let rest = if cx.text(msg).starts_with("errmsg_plural") {
        margs.get(3..).unwrap_or(&[])
    } else {
        margs.get(1..).unwrap_or(&[])
    };
    let Some(fmt) = margs.first() else {
        return;
    };
    let (m, h) = format_message(*fmt, rest, cx, Verbs::Libc);
    let callee = cx.text(n.child_by_field_name("function").unwrap_or(n));
    let mut site = cx.site(n, callee, ErrorType::Log, sev);
    site.error_code = code;
    push(cx, site, m, h, n);
}

/// A call of a name that implies a level, with a literal argument: a
/// site if the project defines a message function of that name whose
/// format sits there. OpenSSH's `_f` variants print the function's name
/// first, and its `_r`/`_fr` ones append ": " and `ssh_err(r)`.
pub(super) fn message_function_call(n: Node<'_>, name: &str, args: &[Node<'_>], cx: &mut Cx<'_>) {
    // Names in printf's style (`helpf`, `notef`) may print at a level
    // their body tells.
    let printf_named = name.len() > 3 && name.ends_with('f');
    if crate::level_from_name(name).is_none() && !printf_named || formats_into_buffer(name) {
        return;
    }
    let Some(i) = args.iter().position(|a| is_text(*a, cx)) else {
        return;
    };
    let (mut m, mut h) = format_message(args[i], &args[i + 1..], cx, Verbs::Libc);
    let site = cx.site(n, name, ErrorType::Log, Severity::Error);
    if name.ends_with("_f") || name.ends_with("_fr") {
        if let Some(func) = &site.function {
            m.insert(0, text_part(format!("{func}: ")));
        }
    }
    if (name.ends_with("_r") || name.ends_with("_fr")) && i == 1 {
        trim_newline(&mut m);
        let error = format!("ssh_err({})", cx.text(args[0]));
        with_errno(&mut m, &mut h, &error);
    }
    trim_newline(&mut m);
    // `serverLog(LL_WARNING, fmt, …)`: a level argument before the format
    // sets the level, whatever the name implies.
    let level = args[..i].iter().find_map(|a| level_of(cx.text(*a)));
    if cx.compiled_out(n) {
        return;
    }
    cx.wrapper_call(name, i, site, m, h, n);
    cx.wrapper_call_level(level);
}

/// OpenSSH's `do_log2(level, fmt, …)` (`do_log2_r(r, level, fmt, …)`):
/// `sshlog` at a level passed in, often a variable
/// (`loglevel = SYSLOG_LEVEL_ERROR`), read as nginx's levels are. The
/// `_f` and `_r` variants decorate as `error_f` and `error_r` do.
pub(super) fn openssh_do_log2(n: Node<'_>, name: &str, args: &[Node<'_>], cx: &mut Cx<'_>) {
    let with_r = name.ends_with("_r") || name.ends_with("_fr");
    let level_at = usize::from(with_r);
    let (Some(level), Some(fmt)) = (args.get(level_at), args.get(level_at + 1)) else {
        return;
    };
    let sev = level_of_arg(*level, cx).unwrap_or(Severity::Error);
    if !wanted(sev, cx) {
        return;
    }
    let (mut m, mut h) = format_message(*fmt, &args[level_at + 2..], cx, Verbs::Libc);
    let site = cx.site(n, name, ErrorType::Log, sev);
    if name.ends_with("_f") || name.ends_with("_fr") {
        if let Some(func) = &site.function {
            m.insert(0, text_part(format!("{func}: ")));
        }
    }
    if with_r {
        trim_newline(&mut m);
        let error = format!("ssh_err({})", cx.text(args[0]));
        with_errno(&mut m, &mut h, &error);
    }
    push(cx, site, m, h, n);
}
