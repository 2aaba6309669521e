//! The repository's own printf wrappers in Go: a function that hands its
//! format and values to a logger or `fmt.Errorf` (`func logf(format
//! string, args ...interface{})`) makes each call of it a site, decided
//! once every file is parsed.

use super::*;

impl<'a> FileCx<'a> {
    /// A call of an unknown function whose name implies a level or ends
    /// in `f`, with a literal argument: a site if the repository defines
    /// that function as a printf wrapper (decided once every file is
    /// parsed; one whose name implies no level must return an error).
    pub(super) fn maybe_wrapper_call(&mut self, call: Node<'_>) {
        let name = match self.callee(call) {
            // Logger methods were decided by `method_spec` (a non-literal
            // message or a test receiver is not a site).
            Callee::Method { recv, func }
                if method_spec("x", func, true).is_none() && !is_test_receiver(recv) =>
            {
                func
            }
            Callee::Method { .. } => return,
            Callee::Other => match call.child_by_field_name("function") {
                Some(f) if f.kind() == "identifier" => self.text(f),
                _ => return,
            },
            _ => return,
        };
        // A printf-named function (`ToGRPCf`, `NotFoundf`: the names Go's
        // vet checks as printf wrappers) may build an error: a site if the
        // repository defines it so.
        let Some((_, sev)) = crate::level_from_name(name).or_else(|| {
            name.ends_with('f')
                .then_some((ErrorType::Exception, Severity::Error))
        }) else {
            return;
        };
        if !self.all_levels && matches!(sev, Severity::Info | Severity::Debug) {
            return;
        }
        let args = call_args(call);
        let Some(i) = args.iter().position(|a| {
            matches!(
                a.kind(),
                "interpreted_string_literal" | "raw_string_literal"
            )
        }) else {
            return;
        };
        let mut site = self.site(call, name.to_string(), ErrorType::Log, sev);
        site.args = args
            .iter()
            .skip(i + 1)
            .map(|a| self.text(*a).to_string())
            .collect();
        let message = self.message_of(args[i], true);
        self.facts.wrapper_calls.push(WrapperCall {
            name: name.to_string(),
            format_index: i,
            site: PendingSite {
                site,
                message,
                expression: self.text(args[i]).to_string(),
                args_tuple: None,
            },
            level: None,
        });
    }

    /// `func logf(format string, args ...interface{})`: remember it as a
    /// wrapper.
    pub(super) fn wrapper_def(&mut self, decl: Node<'_>) {
        let (Some(name), Some(params)) = (
            decl.child_by_field_name("name"),
            decl.child_by_field_name("parameters"),
        ) else {
            return;
        };
        let decls = named_children(params);
        let Some(last) = decls.last() else {
            return;
        };
        let variadic_any = last.kind() == "variadic_parameter_declaration"
            && last.child_by_field_name("type").is_some_and(|t| {
                matches!(
                    self.text(t).replace(' ', "").as_str(),
                    "interface{}" | "any"
                )
            });
        if !variadic_any || decls.len() < 2 {
            return;
        }
        let prev = decls[decls.len() - 2];
        if prev.child_by_field_name("type").map(|t| self.text(t)) != Some("string") {
            return;
        }
        // Parameters before the variadic one, counting `a, b string` as two.
        let count = |d: &Node<'_>| {
            let mut cur = d.walk();
            d.children_by_field_name("name", &mut cur).count().max(1)
        };
        let before: usize = decls[..decls.len() - 1].iter().map(count).sum();
        // A wrapper that returns an error builds one (`mkerr`); one that
        // returns nothing logs.
        let returns_error = decl.child_by_field_name("result").is_some_and(|r| {
            let t = self.text(r);
            t == "error"
                || t.ends_with("Error")
                || t.ends_with("Err")
                || t.starts_with("*") && t.ends_with("Error")
        });
        let param_name = |d: Node<'_>| d.child_by_field_name("name").map(|n| self.text(n));
        let frame = match (
            param_name(prev),
            param_name(*last),
            decl.child_by_field_name("body"),
        ) {
            (Some(format), Some(values), Some(body)) => self.wrapper_frame(body, format, values),
            _ => None,
        };
        self.facts.wrappers.push(WrapperDef {
            name: self.text(name).to_string(),
            format_index: before - 1,
            returns_error,
            known_logger: method_spec("x", self.text(name), true).is_some(),
            level: None,
            frame,
        });
    }

    /// The wrapper's own text around the caller's message: a formatting
    /// call in `body` with a literal format, one of whose values is
    /// `fmt.Sprintf(format, values...)` of the wrapper's parameters.
    pub(super) fn wrapper_frame(
        &self,
        body: Node<'_>,
        format: &str,
        values: &str,
    ) -> Option<WrapperFrame> {
        let inner = format!("fmt.Sprintf({format},{values}...)");
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            if n.kind() == "call_expression" {
                let args = call_args(n);
                let at = args
                    .iter()
                    .position(|a| self.text(*a).replace(' ', "") == inner);
                let lit = args.iter().position(|a| {
                    matches!(
                        a.kind(),
                        "interpreted_string_literal" | "raw_string_literal"
                    )
                });
                if let (Some(at), Some(lit)) = (at, lit) {
                    return self.frame_around(&args, lit, at);
                }
            }
            stack.extend(named_children(n));
        }
        None
    }

    /// Splits the format literal `args[lit]` at the verb whose value is
    /// `args[at]`.
    pub(super) fn frame_around(
        &self,
        args: &[Node<'_>],
        lit: usize,
        at: usize,
    ) -> Option<WrapperFrame> {
        let text = string_literal(args[lit], self.src)?;
        let verbs = crate::literal_args::format_verbs(&text, Lang::Go)?;
        let k = at.checked_sub(lit + 1)?;
        let &(s, e) = verbs.get(k)?;
        let values: Vec<String> = args[lit + 1..]
            .iter()
            .map(|a| self.text(*a).to_string())
            .collect();
        Some(WrapperFrame {
            before: text[..s].to_string(),
            before_args: values[..k].to_vec(),
            after: text[e..].to_string(),
            after_args: values.get(k + 1..)?.to_vec(),
        })
    }
}
