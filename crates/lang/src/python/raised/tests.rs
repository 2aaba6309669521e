//! Exceptions built outside a `raise`, and what one built with several
//! arguments prints, on constructs written for each rule.

use crate::test_support::patterns_of;
use crate::{language_for_path, resolve_package, ExtractOptions};

fn rows(s: &[(String, String, Vec<String>)]) -> Vec<(&str, &str)> {
    s.iter().map(|(c, p, _)| (c.as_str(), p.as_str())).collect()
}

#[test]
fn a_built_in_exception_raised_with_several_arguments_prints_their_tuple() {
    let s = patterns_of(
        "app/check.py",
        r#"
def check(value, e):
    if not value:
        raise ValueError("empty value", 3, None, True)
    if value == "x":
        raise RuntimeError(value, f"cannot read {value}")
    if value == "y":
        raise RuntimeError("it's not there", e)
    if value == "z":
        raise KeyError("missing key", e) from e
    raise ValueError("first line\nsecond 'line' \"quoted\"", "C:\\temp")
"#,
    );
    assert_eq!(
        rows(&s),
        [
            ("ValueError", "('empty value', 3, None, True)"),
            ("RuntimeError", "(%v, 'cannot read %v')"),
            ("RuntimeError", "(\"it's not there\", %v)"),
            ("KeyError", "('missing key', %v)"),
            (
                "ValueError",
                r#"('first line\nsecond \'line\' "quoted"', 'C:\\temp')"#
            ),
        ]
    );
    assert_eq!(s[1].2, ["value", "value"]);
}

#[test]
fn one_argument_keywords_and_os_errors_print_no_tuple() {
    let s = patterns_of(
        "app/check.py",
        r#"
def check(path, e):
    if not path:
        raise ValueError("empty path")
    if path == "-":
        raise ValueError("bad path", code=2)
    if path == "/":
        raise OSError(2, "No such file or directory")
    raise FileNotFoundError("no such file", path)
"#,
    );
    assert_eq!(
        rows(&s),
        [
            ("ValueError", "empty path"),
            ("ValueError", "bad path"),
            ("OSError", "No such file or directory"),
            ("FileNotFoundError", "no such file"),
        ]
    );
}

#[test]
fn an_exception_built_outside_a_raise_is_a_site() {
    let s = patterns_of(
        "app/pool.py",
        r#"
def urlopen(conn, e):
    try:
        conn.send()
    except OSError as e:
        new_e = ProtocolError("Connection aborted.", e)
        retries.increment(error=new_e)
    errors.append(ValidationError("the name is too long"))
    warnings.warn(DeprecationWarning("urlopen is old"))
    raise TimeoutError("read timed out")

def make_error(name):
    return LookupError(f"no entry named {name}")
"#,
    );
    assert_eq!(
        rows(&s),
        [
            ("ProtocolError", "Connection aborted."),
            ("ValidationError", "the name is too long"),
            ("TimeoutError", "read timed out"),
            ("LookupError", "no entry named %v"),
        ]
    );
}

#[test]
fn a_text_kept_under_a_name_is_printed_in_the_tuple_it_is_raised_in() {
    let s = patterns_of(
        "app/reader.py",
        r#"
def read(e, partial):
    if partial:
        arg = "Response may not contain content."
    else:
        arg = f"Connection broken: {e!r}"
    raise RuntimeError(arg, e) from e
"#,
    );
    assert_eq!(
        rows(&s),
        [
            ("=", "('Response may not contain content.', %v)"),
            ("=", "('Connection broken: %v', %v)"),
        ]
    );
}

#[test]
fn an_exceptions_repr_is_a_site() {
    let s = patterns_of(
        "app/errors.py",
        r#"
class IncompleteRead(HTTPError):
    def __repr__(self):
        return "IncompleteRead(%i bytes read, %i more expected)" % (self.partial, self.expected)
"#,
    );
    assert_eq!(
        rows(&s),
        [(
            "IncompleteRead",
            "IncompleteRead(%i bytes read, %i more expected)"
        )]
    );
}

/// Patterns of several files of one repository, its classes known across
/// them.
fn repository_patterns(files: &[(&str, &str)]) -> Vec<String> {
    let opts = ExtractOptions::default();
    let mut facts: Vec<_> = files
        .iter()
        .map(|(path, src)| language_for_path(path).unwrap().extract(path, src, &opts))
        .collect();
    crate::exception_classes::apply_exception_classes(&mut facts);
    let mut out: Vec<String> = (resolve_package(facts).0.into_iter())
        .map(|s| format!("{}:{}", s.file_path, s.message_pattern))
        .collect();
    out.sort();
    out
}

#[test]
fn a_repository_class_prints_the_tuple_unless_it_or_a_base_writes_its_text() {
    let classes = r#"
class HTTPError(Exception):
    """Base of the package's errors."""

class ProtocolError(HTTPError):
    pass

class PoolError(HTTPError):
    def __init__(self, pool, message):
        self.pool = pool
        super().__init__(f"{pool}: {message}")

class ClosedPoolError(PoolError):
    pass

class RequestException(IOError):
    def __init__(self, *args, **kwargs):
        self.response = kwargs.pop("response", None)
        super().__init__(*args, **kwargs)

class PassingError(ValueError):
    def __init__(self, *args, **kwargs):
        self.request = kwargs.pop("request", None)
        super().__init__(*args, **kwargs)
"#;
    let raises = r#"
from .exceptions import ProtocolError, ClosedPoolError, RequestException, PassingError
from click import ClickException

def run(pool, e):
    if pool.closed:
        raise ClosedPoolError(pool, "Pool is closed.")
    if e:
        raise ProtocolError("Connection aborted.", e)
    if pool.bad:
        raise RequestException("request failed", e)
    if pool.worse:
        raise PassingError("request refused", e)
    raise ClickException("cannot run", e)
"#;
    let got = repository_patterns(&[("pkg/exceptions.py", classes), ("pkg/pool.py", raises)]);
    assert_eq!(
        got,
        [
            "pkg/exceptions.py:%v: %v",
            "pkg/pool.py:('Connection aborted.', %v)",
            "pkg/pool.py:('request refused', %v)",
            "pkg/pool.py:Pool is closed.",
            "pkg/pool.py:cannot run",
            "pkg/pool.py:request failed",
        ]
    );
}
