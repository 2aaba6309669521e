//! Who calls a Python site's function, on a module written for it: calls
//! in docstrings and strings are no calls; a call after a nested `def`
//! ended, or in a module-level block, has no enclosing function; a method
//! is called on a value (`self.m(`, a value named like its class, or a
//! name only one class declares); a constructor is called by its class,
//! and so, for its text, is `__str__`; other special methods are called by
//! the runtime.

use super::{by_pattern, index_files};
use errdex_model::Record;

const APP: &str = r#"
PATTERN = """
    check_port(8080) is how a template calls it
"""


def check_port(port):
    """Checks a port.

    >>> check_port("x")
    """
    if not isinstance(port, int):
        raise TypeError("port must be an integer")


def outer():
    def inner():
        return 1

    check_port(inner())


class Builder:
    def __init__(self, path):
        if "?" in path:
            raise ValueError("query string in the path")

    def close(self):
        raise RuntimeError("builder closed twice")

    def render_page(self):
        raise RuntimeError("page could not be rendered")

    def __str__(self):
        raise RuntimeError("no text for builder")

    def build(
        self,
        strict=False,
    ) -> None:
        self.render_page()


class Server:
    def serve(self):
        def respond(status):
            raise RuntimeError("no response written")

        respond(None)


class Stream:
    def close(self):
        pass


class Builder2(Builder):
    pass


class Handler(Stream):
    def __init__(self):
        super().__init__()
        text = "check_port(1) in a string"


def use():
    b = Builder("/x")
    stream = Stream()
    stream.close()
    str(b)


if __name__ == "__main__":
    check_port(5000)


class FormReader:
    def read_form(self):
        return self.parse(
            1,
        )

    def parse(
        self,
        data,
    ):
        return data


class PartReader:
    def parse(
        self,
        data,
    ):
        raise ValueError("part too large")
"#;

fn records() -> Vec<Record> {
    index_files(&[("app.py", APP)])
}

fn callers(records: &[Record], pattern: &str) -> Vec<String> {
    by_pattern(records, pattern).sites[0].facts.callers.clone()
}

#[test]
fn python_callers_are_calls_of_code_in_their_own_block() {
    let records = records();
    // Not the docstring's doctest, not the module constant, not the
    // string; `outer` after its nested `def` ended; the `__main__` block
    // has no function.
    assert_eq!(
        callers(&records, "port must be an integer"),
        ["app.py:20 outer", "app.py:75"]
    );
    // The class is called, not `super().__init__()` of another class.
    assert_eq!(
        callers(&records, "query string in the path"),
        ["app.py:68 use"]
    );
    // `close` is declared by two classes: `stream.close()` says nothing.
    assert!(callers(&records, "builder closed twice").is_empty());
    // `self.render_page()` in the class's file.
    assert_eq!(
        callers(&records, "page could not be rendered"),
        ["app.py:41 Builder.build"]
    );
    // A nested function is no method of the class around it, and the
    // function around it calls it.
    let nested = by_pattern(&records, "no response written");
    assert_eq!(
        nested.sites[0].function.as_deref(),
        Some("serve.<locals>.respond")
    );
    assert_eq!(nested.sites[0].facts.receiver, None);
    assert_eq!(
        callers(&records, "no response written"),
        ["app.py:49 Server.serve"]
    );
    // `self.parse(` in another class calls that class's `parse`, and a
    // head written over several lines still declares a method.
    assert!(callers(&records, "part too large").is_empty());
    // `__str__` gives the text of the `Builder(…)` its callers create.
    assert_eq!(callers(&records, "no text for builder"), ["app.py:68 use"]);
}

/// A one-line function calls from its head's line: that function is the
/// caller, not the one declared above it.
#[test]
fn one_line_functions_call_from_their_head() {
    let go = "package a\n\nimport \"fmt\"\n\nfunc section(name string) error {\n\treturn fmt.Errorf(\"bad section %s\", name)\n}\n\nfunc header() error { return section(\"header\") }\n\nfunc (p *Page) body() error { return section(\"body\") }\n";
    let records = index_files(&[("a.go", go)]);
    assert_eq!(
        callers(&records, "bad section %s"),
        ["a.go:9 header", "a.go:11 Page.body"]
    );
}
