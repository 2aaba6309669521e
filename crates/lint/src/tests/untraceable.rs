//! `untraceable-message` on constructs written for it: what must fire,
//! and the near misses (kept text, buffers, constants, conditions,
//! self-worded exception classes) that must not.

use super::{at, lint_files, of};

/// An exception class that words its own message from the claim it is
/// raised with: `raise InvalidClaimError('aud')` prints `Invalid claim
/// "aud"`; a `KeyError('aud')` prints `'aud'`.
const CLAIMS: &str = r#"class InvalidClaimError(Exception):
    def __init__(self, claim):
        description = f'Invalid claim "{claim}"'
        super().__init__(description)

def validate(claims):
    if 'aud' not in claims:
        raise InvalidClaimError('aud')
    raise KeyError('aud')
"#;

#[test]
fn untraceable_message_is_too_little_text_where_an_error_is_made() {
    let go = r#"package a

import (
	"errors"
	"fmt"
	"log"
	"strings"
)

var ErrUnknown = errors.New("unknown")

type parseError struct{ pos, msg string }

func (e *parseError) Error() string {
	return fmt.Sprintf("[%s]: %s", e.pos, e.msg)
}

func f(name, value, msg string, parts []string, err error) error {
	if name == "" {
		return fmt.Errorf("%s: %s", name, value)
	}
	if value == "" {
		panic("STUB")
	}
	if len(parts) > 0 {
		return errors.New(strings.Join(parts, ", "))
	}
	if msg != "" {
		return fmt.Errorf("error: %s", msg)
	}
	if debugAsserts {
		panic(fmt.Sprintf("s (%d) <= t (%d)", len(name), len(value)))
	}
	if false && len(name) > 3 {
		panic("bad n")
	}
	if len(value) > 99 {
		return fmt.Errorf("%q: %v", value, errInvalidKeyName)
	}
	log.Printf("%s=%v", name, value)
	path := fmt.Sprintf("%v.part", name)
	return fmt.Errorf("%s: %v", path, err)
}
"#;
    let py = "def h(path):\n    raise RuntimeError('plugin registry is empty')\n\ndef i(name, value):\n    raise ValueError(f'{name}: {value}')\n\ndef j(path):\n    raise RequestPath(f'{path}/')\n";
    let java = "class A {\n    Object m(Class<?> cls) {\n        Validate.notNull(cls, \"cls\");\n        return cls;\n    }\n}\n";
    let c = "const char *yes_no(int v) {\n    if (v) {\n        return \"yes\";\n    }\n    return \"no\";\n}\n";
    // Text formatted into a message buffer is a piece of a later print; a
    // line starting with `\r` is a progress meter redrawn in place; a
    // hole of `strerror` hands on the system's error text.
    let buffers = r#"#include <stdio.h>
#include <string.h>
int emit(struct conf *c, int code, const char *dsn, FILE *err) {
    char msg[64];
    snprintf(msg, sizeof(msg), "%s %d", dsn, code);
    snprintf(c->cr_msg, sizeof(c->cr_msg), "<%s> %s", c->name, dsn);
    fprintf(err, "\r%3d %s  %3d %s", code, dsn, code, dsn);
    return reply(c, msg);
}
"#;
    let strerror = "import os\n\ndef chdir(path, code):\n    raise OSError(code, '{}: {}'.format(os.strerror(code), path))\n";
    // Holes filled by the package's string constants, an assertion that
    // spells its condition, a recovered panic with its stack: each says
    // enough. `panic("oops")` does not.
    let consts = r#"package a

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
)

const help = "consider using cmpopts.AcyclicTransformer"

func check(ss []string, n int) (err error) {
	const warning = "recursive set of Transformers detected"
	if len(ss) > 1 {
		panic(fmt.Sprintf("%s:\n\t%s\n%s", warning, strings.Join(ss, "\n\t"), help))
	}
	if n != 0 {
		panic("d.nx != 0")
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	if n > 64 {
		panic(fmt.Errorf("bits (%d) > 64", n))
	}
	panic("oops")
}

func placeholder() error {
	return errors.New("/* nil */")
}
"#;
    let found = lint_files(&[
        ("a.go", go),
        ("a.py", py),
        ("A.java", java),
        ("f.c", c),
        ("buffers.c", buffers),
        ("os_error.py", strerror),
        ("consts.go", consts),
        ("claims.py", CLAIMS),
    ]);
    let mut want = at("a.go", &[20, 23]);
    want.extend(at("a.py", &[5]));
    want.extend(at("consts.go", &[28]));
    want.extend(at("claims.py", &[9]));
    let mut got = of(&found, "untraceable-message");
    got.sort();
    want.sort();
    assert_eq!(got, want, "{found:#?}");
}

#[test]
fn too_little_text_is_no_telling_word_or_one_short_one() {
    use crate::records::too_little_text;
    for t in [
        "",
        ": ",
        "error",
        "failed: ",
        "EOF",
        "STUB",
        "invalid ",
        "unexpected error: ",
    ] {
        assert!(too_little_text(t), "{t:?}");
    }
    for t in [
        "not found",
        "closed",
        "publish error: ",
        "connection refused",
    ] {
        assert!(!too_little_text(t), "{t:?}");
    }
}

#[test]
fn holes_of_a_callers_words_and_rubys_current_exception_hand_on_text() {
    let py = "def parse(value, label):\n    raise ValueError('Invalid ' + label)\n\ndef parse2(value, kind):\n    raise ValueError('Invalid ' + kind)\n";
    let js = "function usageError(prefix) {\n  return new Error(`\\n${prefix}${this.usage}`)\n}\n";
    let rb = "def open(uri)\n  begin\n    connect(uri)\n  rescue\n    raise(ConnError, \"#{uri} - #{$!.inspect}\")\n  end\nend\n";
    let found = lint_files(&[("a.py", py), ("b.js", js), ("c.rb", rb)]);
    assert_eq!(
        of(&found, "untraceable-message"),
        at("a.py", &[5]),
        "{found:#?}"
    );
}

#[test]
fn parameters_every_caller_fills_with_a_literal_are_that_text() {
    let py = "def ensure_dict(s, structure_name):\n    raise DecodeError(f'Invalid {structure_name}')\n\ndef jws(obj):\n    return ensure_dict(obj, 'JWS')\n\ndef jwe(obj):\n    return ensure_dict(obj, structure_name='JWE')\n\ndef kind_of(s, kind):\n    raise DecodeError(f'Invalid {kind}')\n\ndef any_kind(obj, k):\n    kind_of(obj, 'JWS')\n    kind_of(obj, k)\n";
    let go = "package a\n\nimport \"fmt\"\n\nfunc section(name string) error {\n\treturn fmt.Errorf(\"bad %s\", name)\n}\n\nfunc header() error { return section(\"header\") }\n\nfunc payload() error {\n\treturn section(\"payload\")\n}\n";
    // A formatted argument's own text, in a call over several lines.
    let fstring = "class Expander:\n    def expand(self, specifier, directive):\n        raise ValueError(f\"invalid `{specifier}`: {directive!r}\")\n\n    def obtain(self, field):\n        return self.expand(\n            f\"tool.dynamic.{field}\",\n            self.cfg[field],\n        )\n";
    let found = lint_files(&[("a.py", py), ("b.go", go), ("e.py", fstring)]);
    assert_eq!(
        of(&found, "untraceable-message"),
        at("a.py", &[11]),
        "{found:#?}"
    );
}

#[test]
fn argument_checks_and_unimplemented_operations_name_what_they_are() {
    let go = "package a\n\nfunc width(n int) int {\n\tif n < 1 {\n\t\tpanic(\"bad n\")\n\t}\n\tif n > 8 {\n\t\tpanic(\"bad\")\n\t}\n\treturn n\n}\n";
    let java = "class In {\n    public void mark(int limit) {\n        throw new UnsupportedOperationException(\"mark\");\n    }\n    public void reset() {\n        throw new IllegalStateException(\"mark\");\n    }\n}\n";
    let rb = "class Input\n  def gets\n    raise NotImplementedError, \"gets\"\n  end\nend\n";
    let py = "class Stream:\n    def read(self):\n        raise NotImplementedError('read')\n";
    let rs = "fn seek(pos: u64) -> u64 {\n    unimplemented!(\"seek\")\n}\n";
    let found = lint_files(&[
        ("a.go", go),
        ("In.java", java),
        ("c.rb", rb),
        ("d.py", py),
        ("e.rs", rs),
    ]);
    let mut got = of(&found, "untraceable-message");
    got.sort();
    let mut want = at("a.go", &[8]);
    want.extend(at("In.java", &[6]));
    want.sort();
    assert_eq!(got, want, "{found:#?}");
}

#[test]
fn holes_that_hand_on_another_programs_answer_are_its_words() {
    let go = "package a\n\nimport (\n\t\"fmt\"\n\t\"io\"\n\t\"net/http\"\n)\n\nfunc hash(c *http.Client, req *http.Request, name string) error {\n\tresp, err := c.Do(req)\n\tif err != nil {\n\t\treturn err\n\t}\n\tb, err := io.ReadAll(resp.Body)\n\tif err != nil {\n\t\treturn err\n\t}\n\tif resp.StatusCode != 200 {\n\t\treturn fmt.Errorf(\"unknown error: %s\", string(b))\n\t}\n\treturn fmt.Errorf(\"unknown error: %s\", name)\n}\n";
    let py = "def validate(self, name):\n    result = self.command({'validate': name})\n    info = result['result']\n    if 'corrupt' in info:\n        raise CollectionInvalid(f'{name} invalid: {info}')\n    raise CollectionInvalid(f'{name} invalid')\n";
    let found = lint_files(&[("a.go", go), ("b.py", py)]);
    let mut got = of(&found, "untraceable-message");
    got.sort();
    let mut want = at("a.go", &[21]);
    want.extend(at("b.py", &[6]));
    want.sort();
    assert_eq!(got, want, "{found:#?}");
}

#[test]
fn data_model_signals_conditions_and_assigned_literals_are_no_lost_messages() {
    let py = r#"import sys

class Node:
    def __getattr__(self, key):
        if key.startswith("_"):
            raise AttributeError(key)
        return self.children[key]

    def __getitem__(self, i):
        raise IndexError(i)

    def check(self, common, host):
        if common != host:
            raise VerificationError(repr(common) + "!=" + repr(host))

    def load(self):
        try:
            self.read()
        except Exception:
            raise CronError(f"Unexpected error: {sys.exc_info()[0]}")

    def run(self, e):
        s = "Failed to load application: %s" % e
        sys.exit("\n" + s + "\n")

    def find(self, key):
        raise AttributeError("no " + self.name)

    def lookup(self, result):
        info = result["result"]
        sys.exit("\n" + info + "\n")
"#;
    let found = lint_files(&[("a.py", py)]);
    assert_eq!(
        of(&found, "untraceable-message"),
        at("a.py", &[27, 31]),
        "{found:#?}"
    );
}
