//! Which function a call calls, by its package's import path: the
//! specs of loggers and error constructors (`klog.V(2).Infof`, a logger
//! handed as the first argument, prints to standard error).

use super::*;

impl<'a> FileCx<'a> {
    pub(super) fn callee(&self, call: Node<'_>) -> Callee<'a> {
        let Some(f) = call.child_by_field_name("function") else {
            return Callee::Other;
        };
        match f.kind() {
            "identifier" if self.text(f) == "panic" => Callee::Panic,
            "selector_expression" => {
                let (Some(op), Some(field)) = (
                    f.child_by_field_name("operand"),
                    f.child_by_field_name("field"),
                ) else {
                    return Callee::Other;
                };
                let func = self.text(field);
                match op.kind() {
                    "identifier" => match self.imports.get(self.text(op)) {
                        Some(path) => match self.import_path(path) {
                            "" => Callee::Method {
                                recv: self.text(op),
                                func,
                            },
                            // Borrow from a static table for 'a: known import
                            // paths outlive the file context.
                            known => Callee::Pkg { path: known, func },
                        },
                        None => Callee::Method {
                            recv: self.text(op),
                            func,
                        },
                    },
                    "call_expression" if self.is_klog_v(op) => Callee::KlogVerbose { func },
                    "selector_expression" | "call_expression" => Callee::Method {
                        recv: self.text(op),
                        func,
                    },
                    _ => Callee::Other,
                }
            }
            _ => Callee::Other,
        }
    }

    /// Import paths that matter are all static strings; mapping to them
    /// gives the callee a lifetime independent of the import map.
    pub(super) fn import_path(&self, path: &str) -> &'a str {
        const KNOWN: &[&str] = &[
            "fmt",
            "errors",
            "golang.org/x/xerrors",
            "github.com/pkg/errors",
            "google.golang.org/grpc/status",
            "google.golang.org/grpc",
            "google.golang.org/grpc/codes",
            "log",
            "net/http",
            "k8s.io/klog",
            "k8s.io/klog/v2",
            "github.com/golang/glog",
        ];
        KNOWN.iter().copied().find(|k| *k == path).unwrap_or("")
    }

    pub(super) fn is_klog_v(&self, call: Node<'_>) -> bool {
        let Some(f) = call.child_by_field_name("function") else {
            return false;
        };
        if f.kind() != "selector_expression" {
            return false;
        }
        let (Some(op), Some(field)) = (
            f.child_by_field_name("operand"),
            f.child_by_field_name("field"),
        ) else {
            return false;
        };
        self.text(field) == "V"
            && op.kind() == "identifier"
            && self
                .imports
                .get(self.text(op))
                .is_some_and(|p| KLOG_PATHS.contains(&p.as_str()))
    }

    pub(super) fn spec_of(&self, call: Node<'_>) -> Option<(Spec, String)> {
        match self.callee(call) {
            Callee::Pkg { path, func } => {
                let s = self
                    .stderr_print(call, path, func)
                    .or_else(|| spec(path, func))
                    .or_else(|| self.logger_first(call, func))
                    .or_else(|| {
                        let logging = KLOG_PATHS.contains(&path) || path == "log";
                        (self.all_levels && logging)
                            .then(|| info_spec(func))
                            .flatten()
                    })?;
                // Name the callee by package, not by local alias, so records
                // read the same whatever a file called its import.
                Some((s, format!("{}.{func}", default_import_name(path))))
            }
            Callee::KlogVerbose { func } => {
                let s = match func {
                    "ErrorS" => klog_spec(func)?,
                    _ if self.all_levels => {
                        let mut s = klog_spec(func).or_else(|| info_spec(func))?;
                        if s.sev == Severity::Info || s.needs_error_arg {
                            // Verbose info is debug output.
                            s.sev = Severity::Debug;
                            s.needs_error_arg = false;
                        }
                        s
                    }
                    "InfoS" => klog_spec(func)?,
                    _ => return None,
                };
                Some((s, format!("klog.V().{func}")))
            }
            Callee::Method { recv, func } => {
                let s = self
                    .logger_first(call, func)
                    .or_else(|| method_spec(recv, func, self.all_levels))?;
                // Only with a literal message: `x.Error()` and `c.Error(err)`
                // are not log calls.
                let args = call_args(call);
                let first = args.get(s.msg)?;
                let literal = matches!(
                    first.kind(),
                    "interpreted_string_literal" | "raw_string_literal"
                ) || (first.kind() == "binary_expression"
                    && self
                        .message_of(*first, false)
                        .iter()
                        .any(|p| matches!(p, MsgPart::Text { .. })));
                if !literal {
                    return None;
                }
                // `s.lg` → `lg`; `logrus.WithError(err)` → `WithError(…)`.
                let short = match recv.split_once('(') {
                    Some((head, _)) => format!("{}(…)", head.rsplit('.').next().unwrap_or(head)),
                    None => recv.rsplit('.').next().unwrap_or(recv).to_string(),
                };
                Some((s, format!("{short}.{func}")))
            }
            Callee::Panic | Callee::Other => None,
        }
    }

    /// `channelz.Infof(logger, id, "Channel switches to new LB policy %q",
    /// name)`: a level-named function handed its logger first, whose
    /// message is the first string literal after it (within three).
    pub(super) fn logger_first(&self, call: Node<'_>, func: &str) -> Option<Spec> {
        let args = call_args(call);
        args.first().filter(|a| {
            a.kind() == "identifier" && self.text(**a).to_ascii_lowercase().contains("log")
        })?;
        let at = args.iter().take(4).position(|a| {
            matches!(
                a.kind(),
                "interpreted_string_literal" | "raw_string_literal"
            )
        })?;
        let mut s = method_spec("x", func, self.all_levels)?;
        s.msg = at;
        Some(s)
    }

    /// `fmt.Fprintln(os.Stderr, "Error:", err)`: a CLI's error output, a
    /// site whose message is the printed operands.
    pub(super) fn stderr_print(&self, call: Node<'_>, path: &str, func: &str) -> Option<Spec> {
        let style = match (path, func) {
            ("fmt", "Fprintf") => Style::Format,
            ("fmt", "Fprint") => Style::Print,
            ("fmt", "Fprintln") => Style::Println,
            _ => return None,
        };
        let args = call_args(call);
        let stream = *args.first()?;
        // A CLI framework's writer (urfave/cli's `a.Writer`) may be any
        // stream: an error value among the operands makes it error output.
        let prints_error = || args[1..].iter().any(|a| is_error_value(self.text(*a)));
        (crate::is_error_stream(self.text(stream)) || prints_error()).then_some(Spec::new(
            1,
            style,
            ErrorType::Log,
            Severity::Error,
        ))
    }
}
