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
    // enough, and so does `panic("oops")`, whose recover prints the stack.
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
        ("c/consts.go", consts),
        ("claims.py", CLAIMS),
    ]);
    // `panic("STUB")` prints its stack: the place finds it.
    let mut want = at("a.go", &[20]);
    want.extend(at("a.py", &[5]));
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
    // The package recovers its panics into errors, which print no stack.
    let go = "package a\n\nfunc width(n int) int {\n\tif n < 1 {\n\t\tpanic(\"bad n\")\n\t}\n\tif n > 8 {\n\t\tpanic(\"bad\")\n\t}\n\treturn n\n}\n\nfunc safe(n int) (w int, err error) {\n\tdefer func() {\n\t\tif r := recover(); r != nil {\n\t\t\terr = fmt.Errorf(\"%v\", r)\n\t\t}\n\t}()\n\treturn width(n), nil\n}\n";
    let java = "class In {\n    public void mark(int limit) {\n        throw new UnsupportedOperationException(\"mark\");\n    }\n    public void reset() {\n        throw new IllegalStateException(\"mark\");\n    }\n}\n";
    let rb = "class Input\n  def gets\n    raise NotImplementedError, \"gets\"\n  end\nend\n";
    let py = "class Stream:\n    def read(self):\n        raise NotImplementedError('read')\n";
    let rs = "fn seek(pos: u64) -> u64 {\n    unimplemented!(\"seek\")\n}\n";
    // Markers of code not written yet, in any language; `Error("done")`
    // is no marker.
    let js = "function emit(type) {\n  switch (type) {\n    case 'define':\n      throw new Error('TODO');\n    case 'assign':\n      throw new Error('Not implemented.');\n  }\n  throw new Error('done');\n}\n";
    let found = lint_files(&[
        ("f.js", js),
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
    want.extend(at("f.js", &[8]));
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

#[test]
fn panics_say_where_they_happened_and_one_site_classes_name_themselves() {
    // Go and Rust panics print their file and line; a package that
    // recovers may print neither.
    let go = "package a\n\nfunc save() {\n\tpanic(\"oops\")\n}\n";
    let recovering = "package b\n\nimport \"fmt\"\n\nfunc save() {\n\tpanic(\"oops\")\n}\n\nfunc run() (err error) {\n\tdefer func() {\n\t\tif r := recover(); r != nil {\n\t\t\terr = fmt.Errorf(\"%v\", r)\n\t\t}\n\t}()\n\tsave()\n\treturn nil\n}\n";
    // A recover that prints the stack, one in a comment and one in a test
    // keep the place.
    let stacked = "package c\n\nimport \"runtime/debug\"\n\n// Callers may recover() it.\nfunc save() {\n\tpanic(\"oops\")\n}\n\nfunc run() {\n\tdefer func() {\n\t\tif r := recover(); r != nil {\n\t\t\tdebug.PrintStack()\n\t\t}\n\t}()\n\tsave()\n}\n";
    let repanics = "package d\n\nfunc save() {\n\tpanic(\"bug\")\n}\n\nfunc run() (err error) {\n\tdefer func() {\n\t\tif r := recover(); r != nil {\n\t\t\tif e, ok := r.(parseError); ok {\n\t\t\t\terr = e\n\t\t\t\treturn\n\t\t\t}\n\t\t\tpanic(r)\n\t\t}\n\t}()\n\tsave()\n\treturn nil\n}\n";
    let test = "package a\n\nimport \"testing\"\n\nfunc TestSave(t *testing.T) {\n\tdefer func() { _ = recover() }()\n\tsave()\n}\n";
    let rs = "fn seek(pos: u64) -> u64 {\n    if pos > 9 {\n        panic!(\"oops\");\n    }\n    unreachable!()\n}\n";
    // A class of the tree's own raised at one site names it; one raised
    // twice, or the runtime's own, does not.
    let py = "class NonAsciiHeaderError(Exception):\n    pass\n\nclass BadRowError(Exception):\n    pass\n\ndef check(k, v):\n    if not k.isascii():\n        raise NonAsciiHeaderError('oops')\n    if not v:\n        raise BadRowError('oops')\n    if v == '-':\n        raise BadRowError('oops')\n    raise ConnectionRefusedError('oops')\n";
    let java = "class Parser {\n    static class TransitionNotFound extends RuntimeException {\n        TransitionNotFound(String s) { super(s); }\n    }\n    void next(String name) {\n        throw new TransitionNotFound(\"oops\");\n    }\n}\n";
    let found = lint_files(&[
        ("a/a.go", go),
        ("b/b.go", recovering),
        ("c/c.go", stacked),
        ("d/d.go", repanics),
        ("a/a_test.go", test),
        ("c.rs", rs),
        ("d.py", py),
        ("Parser.java", java),
    ]);
    let mut got = of(&found, "untraceable-message");
    got.sort();
    let mut want = at("b/b.go", &[6]);
    want.extend(at("d.py", &[11, 13, 14]));
    want.sort();
    assert_eq!(got, want, "{found:#?}");
}

#[test]
fn a_cause_handed_in_a_log_just_above_an_operation_as_code_and_a_propertys_absence_say_enough() {
    // The caught error as an argument, by keyword, position or `cause:`.
    let py = "class Doc:\n    def run(self, role):\n        try:\n            self.load(role)\n        except ParserError as e:\n            raise ParserError(\"Role '%s\" % role, orig_exc=e)\n        raise ParserError(\"Role '%s\" % role)\n\n    def warn(self, warning):\n        raise ParserError('[WARNING] %s' % warning)\n\n    @property\n    def __dict__(self):\n        try:\n            return self.obj.__dict__\n        except RuntimeError:\n            raise AttributeError('__dict__')\n\n    def keys(self):\n        raise AttributeError('keys')\n";
    let java = "class Load {\n    void read(String p) {\n        try {\n            open(p);\n        } catch (IOException e) {\n            throw new LoadException(\"read\", e);\n        }\n    }\n}\n";
    let js = "function read(p) {\n  try {\n    open(p)\n  } catch (err) {\n    throw new Error(`${p}`, { cause: err })\n  }\n}\n";
    let go = "package a\n\nimport \"net/http\"\n\nfunc h(w http.ResponseWriter, ok bool) {\n\tif !ok {\n\t\tgrpclog.Infof(\"Failed to extract ServerMetadata from context\")\n\t\thttp.Error(w, \"unexpected error\", 500)\n\t\treturn\n\t}\n\thttp.Error(w, \"unexpected error\", 500)\n}\n";
    let ops = "def div(f, g):\n    if not g:\n        raise ZeroDivisionError('%s / %s' % (f, g))\n    if f == 0:\n        raise ValueError('0**0')\n    raise ValueError('%s/%s' % (f, g))\n";
    let found = lint_files(&[
        ("ops.py", ops),
        ("doc.py", py),
        ("Load.java", java),
        ("read.js", js),
        ("h.go", go),
    ]);
    let mut got = of(&found, "untraceable-message");
    got.sort();
    let mut want = at("doc.py", &[7, 20]);
    want.extend(at("ops.py", &[6]));
    want.extend(at("h.go", &[11]));
    want.sort();
    assert_eq!(got, want, "{found:#?}");
}
