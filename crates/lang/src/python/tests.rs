//! Python extraction on constructs written for each rule.

use crate::test_support::all_level_patterns_of;

#[test]
fn a_password_prompt_is_text_the_terminal_shows() {
    let s = all_level_patterns_of(
        "cli/vault.py",
        r#"
import getpass

def ask(path):
    secret = getpass.getpass("Enter the vault password: ")
    again = getpass.getpass(prompt)
    return secret
"#,
    );
    let rows: Vec<(&str, &str)> = s.iter().map(|(c, p, _)| (c.as_str(), p.as_str())).collect();
    assert_eq!(rows, [("getpass.getpass", "Enter the vault password: ")]);
}

#[test]
fn text_appended_to_a_kept_message_is_a_piece_of_it() {
    let s = all_level_patterns_of(
        "src/store/errors.py",
        r#"
class FormatError(StoreError):
    def __init__(self, message, source=None):
        if source:
            message = message + f" in {source.path}"
        super().__init__(message)

def check(msg):
    msg += " (while reading the index)"
    total = total + " more"
    count += 1
    raise IndexError(msg)
"#,
    );
    let rows: Vec<(&str, &str)> = s.iter().map(|(c, p, _)| (c.as_str(), p.as_str())).collect();
    assert_eq!(
        rows,
        [("+=", " in %v"), ("+=", " (while reading the index)")]
    );
}

#[test]
fn a_message_constant_with_named_placeholders_is_a_format() {
    let s = all_level_patterns_of(
        "src/pool/errors.py",
        r#"
class ResponseError(Exception):
    GENERIC_ERROR = "too many error responses"
    SPECIFIC_ERROR = "too many {status_code} error responses"
    JSON_ERROR = "expected {"
"#,
    );
    let got: Vec<&str> = s.iter().map(|r| r.1.as_str()).collect();
    assert!(got.contains(&"too many %v error responses"), "{got:?}");
    assert!(got.contains(&"too many error responses"), "{got:?}");
}

#[test]
fn a_message_kept_under_a_name_fills_the_hole_that_prints_it() {
    let sites = crate::test_support::sites_of(
        "app/config.py",
        r#"
def load(path, full):
    msg = f"create {path} first, then run again" if full else "nothing to do here"
    raise ValueError(f"Missing config: {msg}")
"#,
    );
    let filled: Vec<(&str, Option<&str>)> = sites
        .iter()
        .map(|s| {
            (
                s.message_pattern.as_str(),
                s.facts.fills.as_ref().map(|f| f.arg.as_str()),
            )
        })
        .collect();
    assert!(
        filled.contains(&("create %v first, then run again", Some("msg"))),
        "{filled:?}"
    );
    assert!(
        filled.contains(&("nothing to do here", Some("msg"))),
        "{filled:?}"
    );
}

#[test]
fn each_branch_of_a_kept_choice_of_messages_is_a_site() {
    let s = patterns_of(
        "src/app/pick.py",
        r#"
def pick(spec, forbidden):
    msg = f"No matching version found for {spec}." if not forbidden else "Download forbidden by policy"
    raise LookupError(msg)
"#,
    );
    let got = pattern_column(&s);
    assert!(
        got.contains(&"No matching version found for %v."),
        "{got:?}"
    );
    assert!(got.contains(&"Download forbidden by policy"), "{got:?}");
}

#[test]
fn text_converted_with_str_keeps_its_words() {
    let s = patterns_of(
        "src/app/aliases.py",
        r#"
def alias(key, e):
    if key:
        raise KeyError("'" + str(key + " already used as alias"))
    raise KeyError("lookup failed: " + str(e))
"#,
    );
    let got = pattern_column(&s);
    assert!(got.contains(&"'%v already used as alias"), "{got:?}");
    assert!(got.contains(&"lookup failed: %v"), "{got:?}");
}

#[test]
fn an_exceptions_joined_parts_and_a_message_functions_returns_are_sites() {
    let s = all_level_patterns_of(
        "src/routing/exceptions.py",
        r#"
class BuildError(RoutingException):
    def __str__(self) -> str:
        message = [f"Could not build url for endpoint {self.endpoint!r}"]
        if self.values:
            message.append(f" with values {sorted(self.values)!r}")
        message.append(".")
        parts = []
        parts.append("never returned text")
        return "".join(message)

class Undefined:
    @property
    def _undefined_message(self) -> str:
        if self._undefined_obj is missing:
            return f"{self._undefined_name!r} is undefined"
        return f"{self._undefined_name!r} has no attribute"

    def _name(self):
        return f"not a message {self.x}"
"#,
    );
    let rows: Vec<(&str, &str)> = s.iter().map(|(c, p, _)| (c.as_str(), p.as_str())).collect();
    assert_eq!(
        rows,
        [
            ("=", "Could not build url for endpoint %v"),
            ("=", " with values %v"),
            ("return", "%v is undefined"),
            ("return", "%v has no attribute"),
        ]
    );
}

#[test]
fn text_kept_under_a_name_is_a_site_where_it_flows_out() {
    let s = all_level_patterns_of(
        "src/serving.py",
        r#"
def _log(type: str, message: str, *args: t.Any, **kwargs: t.Any) -> None:
    getattr(_logger, type)(message.rstrip(), *args, **kwargs)

def show(self, file=None):
    hint = _("Try '{command}' for help.").format(command=self.path)
    unused = "text that goes nowhere at all"
    echo(
        f"{self.usage}\n{hint}",
        file=file,
    )

def startup(self):
    messages = []
    messages.append(f" * Running on {self.url}")
    _log("info", "\n".join(messages))
    _log("info", _ansi_style("Press CTRL+C to quit", "yellow"))
    _log("warning", "port %s is taken", self.port)
    click.echo(f" * Debug mode: {self.debug}")
    print(self.banner)
"#,
    );
    let rows: Vec<(&str, &str)> = s.iter().map(|(c, p, _)| (c.as_str(), p.as_str())).collect();
    assert_eq!(
        rows,
        [
            ("=", "Try '%v' for help."),
            ("echo", "%v\n%v"),
            ("=", " * Running on %v"),
            ("click.echo", " * Debug mode: %v"),
            ("_log", "Press CTRL+C to quit"),
            ("_log", "port %s is taken"),
        ]
    );
}

use super::log_level;
use crate::test_support::pattern_column;
use crate::test_support::patterns_of;
use errdex_model::{ErrorType, Severity};

#[test]
fn a_kept_text_takes_the_level_of_the_log_that_prints_it() {
    let src = r#"
def startup(self):
    messages = []
    messages.append(f" * Running on all addresses ({self.host})")
    _log("info", "\n".join(messages))
    notes = []
    notes.append(f"port {self.port} is taken, trying the next")
    logger.warning("; ".join(notes))
    problems = []
    problems.append(f"cannot bind {self.port}")
    raise OSError("; ".join(problems))
"#;
    // At the default levels the banner line is no message; the
    // warning is a warning log, the raised text an error.
    let sites = crate::test_support::sites_of("src/serving.py", src);
    let rows: Vec<(&str, ErrorType, Severity)> = sites
        .iter()
        .map(|s| (s.message_pattern.as_str(), s.error_type, s.severity))
        .collect();
    assert_eq!(
        rows,
        [
            (
                "port %v is taken, trying the next",
                ErrorType::Log,
                Severity::Warning
            ),
            ("cannot bind %v", ErrorType::Exception, Severity::Error),
        ]
    );
    assert_eq!(
        log_level(r#"_log("info", "\n".join(messages))"#),
        Some(Severity::Info)
    );
    assert_eq!(
        log_level("logging.log(logging.DEBUG, msg)"),
        Some(Severity::Debug)
    );
    assert_eq!(log_level("self.logger.error(msg)"), Some(Severity::Error));
    assert_eq!(log_level("print(msg)"), None);
    assert_eq!(log_level("raise ValueError(msg)"), None);
}

#[test]
fn raise_with_every_string_form() {
    let s = patterns_of(
        "pkg/app.py",
        r#"
def f(path, n, e):
    raise ValueError("plain %d percent")
    raise ValueError(f"cannot open {path!r}: {e}")
    raise OSError("read %s bytes from %s" % (n, path))
    raise KeyError("missing {} in {name}".format(n, name=path))
    raise RuntimeError("a" + str(n) + " b")
    raise ConfigError(_("bad config"))
    raise StopIteration
    raise
"#,
    );
    let got = pattern_column(&s);
    assert_eq!(
        got,
        vec![
            "plain %%d percent",
            "cannot open %v: %v",
            "read %s bytes from %s",
            "missing %v in %v",
            "a%v b",
            "bad config",
            "StopIteration"
        ]
    );
    assert_eq!(s[1].2, vec!["path", "e"]);
    assert_eq!(s[3].2, vec!["n", "path"]);
}

#[test]
fn an_else_keeps_every_branch_it_negates() {
    let src = r#"
def send(event, state):
    if state == "closed":
        if event == 1:
            return 1
        elif event == 2:
            return 2
        elif event == 3:
            return 3
        elif event == 4:
            return 4
        elif event == 5:
            return 5
        else:
            raise ValueError(f"cannot send {event}")
"#;
    let sites = crate::test_support::sites_of("pkg/send.py", src);
    let guards = &sites[0].facts.guards;
    // All five negations, and not the outer condition, which no
    // longer fits beside them.
    assert_eq!(guards.len(), 5, "{guards:?}");
    assert_eq!(guards[4], "not (event == 5)");
    assert!(!guards.iter().any(|g| g.contains("closed")), "{guards:?}");
}

#[test]
fn messages_kept_under_a_name_are_sites() {
    let s = patterns_of(
        "pkg/config.py",
        r#"
def load(path):
    try:
        open(path)
    except OSError as e:
        e.strerror = f"Unable to load configuration file ({e.strerror})"
        raise
    msg = "cannot parse " + path
    raise ValueError(msg)
    name = "not a message"
    reason = "Connection refused"
"#,
    );
    assert_eq!(
        pattern_column(&s),
        vec![
            "[Errno %v] Unable to load configuration file (%v): '%v'",
            "cannot parse %v"
        ]
    );
}

#[test]
fn prints_to_the_error_stream_are_sites() {
    let s = patterns_of(
        "pkg/cli.py",
        r#"
import sys
def show(self, file=None):
    if file is None:
        file = get_text_stderr()
    echo(_("Error: {message}").format(message=self.format_message()), file=file)

def main(path, out):
    print("cannot read", path, file=sys.stderr)
    click.secho(f"warning: {path} is empty", err=True)
    sys.stderr.write("usage: tool PATH\n")
    print("done", file=out)
    echo("listening")
    click.echo("ok", err=False)
"#,
    );
    assert_eq!(
        pattern_column(&s),
        vec![
            "Error: %v",
            "cannot read %v",
            "warning: %v is empty",
            "usage: tool PATH"
        ]
    );
}

#[test]
fn a_function_whose_whole_body_returns_a_literal_is_that_text_where_called() {
    let s = patterns_of(
        "src/app/policy.py",
        r#"
class Policy:
    def check(self, name):
        if not name:
            raise UsageError(self.help_text())
        raise ValueError(name + ": " + usage())

    def help_text(self):
        """Where the rules are."""
        return "See https://guides.example.org/spec for help"

    def busy(self, x):
        return f"not a constant {x}"

def usage():
    return "usage: policy check"
"#,
    );
    assert_eq!(
        pattern_column(&s),
        [
            "See https://guides.example.org/spec for help",
            "%v: usage: policy check",
        ]
    );
}

#[test]
fn text_then_a_value_written_to_stderr_is_one_line() {
    let s = patterns_of(
        "src/app/cli.py",
        r#"
import sys

def main():
    try:
        run()
    except OSError as e:
        sys.stderr.write("tool: ")
        # The cause.
        print(e, file=sys.stderr)
        sys.stderr.write("usage: tool FILE\n")
        sys.stderr.write("warning: ")
        print(e)
"#,
    );
    assert_eq!(
        pattern_column(&s),
        ["tool: %v", "usage: tool FILE", "warning: "]
    );
}
