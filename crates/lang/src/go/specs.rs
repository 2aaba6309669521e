//! What each callee the Go reader knows means: which argument is the
//! message, how the arguments make it (a format, `Sprint` operands, one
//! text), the error type and severity, and where a gRPC code or an HTTP
//! status sits. Error constructors and wrappers by package, loggers by
//! method name, klog and glog by verbosity.

use errdex_model::{ErrorType, Severity};

/// How a call's arguments make the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Style {
    /// `Xf(format, args...)`: the message argument is a format string.
    Format,
    /// `X(args...)`: `fmt.Sprint` of the arguments from the message on.
    Print,
    /// `Xln(args...)`: `fmt.Sprintln`, operands separated by spaces.
    Println,
    /// One plain-text argument (`errors.New(text)`).
    Plain,
}

/// What a known callee means.
#[derive(Debug, Clone, Copy)]
pub(super) struct Spec {
    pub(super) msg: usize,
    pub(super) style: Style,
    pub(super) ty: ErrorType,
    pub(super) sev: Severity,
    /// Argument holding a `codes.X` value.
    pub(super) code_arg: Option<usize>,
    /// Argument holding an HTTP status.
    pub(super) status_arg: Option<usize>,
    /// Only a site when some argument carries an error (`klog.InfoS`).
    pub(super) needs_error_arg: bool,
}

impl Spec {
    pub(super) const fn new(msg: usize, style: Style, ty: ErrorType, sev: Severity) -> Self {
        Spec {
            msg,
            style,
            ty,
            sev,
            code_arg: None,
            status_arg: None,
            needs_error_arg: false,
        }
    }

    const fn exc(msg: usize, style: Style) -> Self {
        Spec::new(msg, style, ErrorType::Exception, Severity::Error)
    }

    const fn with_code(mut self, arg: usize) -> Self {
        self.code_arg = Some(arg);
        self
    }
}

pub(super) const KLOG_PATHS: &[&str] = &["k8s.io/klog", "k8s.io/klog/v2", "github.com/golang/glog"];

/// The meaning of `pkg.Func` for an import path, if it produces an error
/// message.
pub(super) fn spec(path: &str, func: &str) -> Option<Spec> {
    use Style::*;
    match path {
        "fmt" => (func == "Errorf").then_some(Spec::exc(0, Format)),
        "errors" => (func == "New").then_some(Spec::exc(0, Plain)),
        "golang.org/x/xerrors" => match func {
            "New" => Some(Spec::exc(0, Plain)),
            "Errorf" => Some(Spec::exc(0, Format)),
            _ => None,
        },
        "github.com/pkg/errors" => match func {
            "New" => Some(Spec::exc(0, Plain)),
            "Errorf" => Some(Spec::exc(0, Format)),
            "Wrap" | "WithMessage" => Some(Spec::exc(1, Plain)),
            "Wrapf" | "WithMessagef" => Some(Spec::exc(1, Format)),
            _ => None,
        },
        "google.golang.org/grpc/status" => match func {
            "Error" | "New" => Some(Spec::exc(1, Plain).with_code(0)),
            "Errorf" | "Newf" => Some(Spec::exc(1, Format).with_code(0)),
            _ => None,
        },
        "google.golang.org/grpc" => (func == "Errorf").then_some(Spec::exc(1, Format).with_code(0)),
        "log" => {
            let (ty, rest) = if let Some(rest) = func.strip_prefix("Fatal") {
                (ErrorType::Log, rest)
            } else if let Some(rest) = func.strip_prefix("Panic") {
                (ErrorType::Panic, rest)
            } else {
                return None;
            };
            let style = match rest {
                "" => Print,
                "f" => Format,
                "ln" => Println,
                _ => return None,
            };
            Some(Spec::new(0, style, ty, Severity::Critical))
        }
        "net/http" => (func == "Error").then_some(Spec {
            status_arg: Some(2),
            ..Spec::new(1, Plain, ErrorType::Http, Severity::Error)
        }),
        _ if KLOG_PATHS.contains(&path) => klog_spec(func),
        _ => None,
    }
}

/// With `--log-levels all`: info-level calls of klog/glog and `log`.
pub(super) fn info_spec(func: &str) -> Option<Spec> {
    use Style::*;
    let (base, depth) = match func.strip_suffix("Depth") {
        Some(b) => (b, 1),
        None => (func, 0),
    };
    let style = match base {
        "Info" | "Print" => Print,
        "Infof" | "Printf" => Format,
        "Infoln" | "Println" => Println,
        "InfoS" => Plain,
        _ => return None,
    };
    Some(Spec::new(depth, style, ErrorType::Log, Severity::Info))
}

/// `t`, `b`, `tb`, `f` (also as `s.t`): a test's `testing.T` and friends,
/// whose `Errorf`/`Fatalf` fail a test rather than log.
pub(super) fn is_test_receiver(recv: &str) -> bool {
    matches!(
        recv.rsplit('.').next().unwrap_or(recv),
        "t" | "b" | "tb" | "f"
    )
}

/// Loggers known only by their method names (capnslog's `plog.Fatalf`,
/// zap's `lg.Warn("msg", fields...)`, logrus's `log.WithError(err).Error`):
/// the name sets the level. Calls on `t`/`b` (tests) are not logs, and an
/// `Errorf` of an errors-like package makes an error value.
pub(super) fn method_spec(recv: &str, func: &str, all_levels: bool) -> Option<Spec> {
    use Style::*;
    if is_test_receiver(recv) {
        return None;
    }
    let (level, style) = if let Some(l) = func.strip_suffix("ln") {
        (l, Println)
    } else if let Some(l) = func.strip_suffix('f') {
        (l, Format)
    } else if let Some(l) = func.strip_suffix('w') {
        (l, Plain)
    } else {
        (func, Plain)
    };
    let (ty, sev) = match level {
        "Error" => (ErrorType::Log, Severity::Error),
        "Warn" | "Warning" => (ErrorType::Log, Severity::Warning),
        "Fatal" | "Critical" => (ErrorType::Log, Severity::Critical),
        "Panic" | "DPanic" => (ErrorType::Panic, Severity::Critical),
        "Info" | "Notice" | "Print" if all_levels => (ErrorType::Log, Severity::Info),
        "Debug" | "Trace" if all_levels => (ErrorType::Log, Severity::Debug),
        _ => return None,
    };
    // `errs.Errorf(...)` on an errors-like package or variable builds an
    // error; a call chain (`log.WithError(err).Errorf`) is a logger.
    let plain_recv = !recv.contains(['(', '.']);
    if style == Format
        && level == "Error"
        && plain_recv
        && recv.to_ascii_lowercase().contains("err")
    {
        return Some(Spec::exc(0, Format));
    }
    Some(Spec::new(0, style, ty, sev))
}

/// klog and glog: `Error`, `Errorf`, `Errorln`, `ErrorDepth`, `ErrorfDepth`…
/// for the Error, Warning, Fatal and Exit levels, plus the structured
/// `ErrorS(err, msg, kv...)` and `InfoS(msg, kv...)` when it carries an error.
pub(super) fn klog_spec(func: &str) -> Option<Spec> {
    use Style::*;
    match func {
        "ErrorS" => return Some(Spec::new(1, Plain, ErrorType::Log, Severity::Error)),
        "ErrorSDepth" => return Some(Spec::new(2, Plain, ErrorType::Log, Severity::Error)),
        "InfoS" => {
            return Some(Spec {
                needs_error_arg: true,
                ..Spec::new(0, Plain, ErrorType::Log, Severity::Warning)
            })
        }
        _ => {}
    }
    let (base, depth) = match func.strip_suffix("Depth") {
        Some(b) => (b, 1),
        None => (func, 0),
    };
    let (level, style) = if let Some(l) = base.strip_suffix("ln") {
        (l, Println)
    } else if let Some(l) = base.strip_suffix('f') {
        (l, Format)
    } else {
        (base, Print)
    };
    let sev = match level {
        "Error" => Severity::Error,
        "Warning" => Severity::Warning,
        "Fatal" | "Exit" => Severity::Critical,
        _ => return None,
    };
    Some(Spec::new(depth, style, ErrorType::Log, sev))
}
