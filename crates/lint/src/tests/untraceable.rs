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
