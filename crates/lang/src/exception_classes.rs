//! What a Python exception raised with several arguments prints. With one
//! argument, `str(exc)` is that argument's text; with two or more it is
//! the arguments tuple as Python writes it (`('Connection aborted.',
//! RemoteDisconnected('Remote end closed connection without response'))`),
//! unless the class, or a class it derives from, writes its own text
//! (`__init__`, `__str__`) or is an `OSError` (`[Errno 2] …`). Which of
//! these a class of the repository is, only the whole repository tells:
//! a site raised with several arguments carries the tuple around its
//! message ([`ArgsTuple`]), and [`apply_exception_classes`] puts it on
//! where the class prints its arguments.

use crate::message::{Message, MsgPart};
use crate::FileFacts;
use std::collections::HashMap;

/// A class defined in the repository, as far as its printed text goes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ClassDef {
    /// Its name.
    pub name: String,
    /// Its base classes' last names, in order.
    pub bases: Vec<String>,
    /// Whether it defines `__str__`, or an `__init__` that does not hand
    /// its positional arguments on unchanged (`super().__init__(*args)`).
    pub prints_own: bool,
}

/// The text around a message that an exception raised with several
/// arguments prints: the other arguments, each as Python's `repr` writes
/// it, and the brackets.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ArgsTuple {
    /// The raised class as written (`ProtocolError`, `exc.ProtocolError`).
    pub class: String,
    /// `('` and the arguments before the message.
    pub before: Message,
    /// The values of `before`'s holes.
    pub before_args: Vec<String>,
    /// `', ` and the arguments after the message, then `)`.
    pub after: Message,
    /// The values of `after`'s holes.
    pub after_args: Vec<String>,
    /// The quote `repr` writes the message between.
    pub quote: char,
}

/// Built-in exceptions whose text is `BaseException.__str__`'s: the
/// arguments tuple when there are several.
const PRINTS_ARGS: &[&str] = &[
    "BaseException",
    "Exception",
    "ArithmeticError",
    "AssertionError",
    "AttributeError",
    "BufferError",
    "EOFError",
    "FloatingPointError",
    "GeneratorExit",
    "ImportError",
    "IndexError",
    "KeyError",
    "KeyboardInterrupt",
    "LookupError",
    "MemoryError",
    "ModuleNotFoundError",
    "NameError",
    "NotImplementedError",
    "OverflowError",
    "RecursionError",
    "ReferenceError",
    "RuntimeError",
    "StopAsyncIteration",
    "StopIteration",
    "SystemError",
    "SystemExit",
    "TypeError",
    "UnboundLocalError",
    "UnicodeError",
    "ValueError",
    "ZeroDivisionError",
    "Warning",
    "BytesWarning",
    "DeprecationWarning",
    "EncodingWarning",
    "FutureWarning",
    "ImportWarning",
    "PendingDeprecationWarning",
    "ResourceWarning",
    "RuntimeWarning",
    "SyntaxWarning",
    "UnicodeWarning",
    "UserWarning",
];

/// Built-in exceptions that write their own text: the `OSError` family
/// (`[Errno 2] No such file or directory`), syntax, Unicode and group
/// errors.
const PRINTS_OWN: &[&str] = &[
    "OSError",
    "EnvironmentError",
    "IOError",
    "BlockingIOError",
    "BrokenPipeError",
    "ChildProcessError",
    "ConnectionAbortedError",
    "ConnectionError",
    "ConnectionRefusedError",
    "ConnectionResetError",
    "FileExistsError",
    "FileNotFoundError",
    "InterruptedError",
    "IsADirectoryError",
    "NotADirectoryError",
    "PermissionError",
    "ProcessLookupError",
    "TimeoutError",
    "SyntaxError",
    "IndentationError",
    "TabError",
    "UnicodeDecodeError",
    "UnicodeEncodeError",
    "UnicodeTranslateError",
    "BaseExceptionGroup",
    "ExceptionGroup",
];

/// Bases that give a class no text of their own.
const NEUTRAL: &[&str] = &["object", "ABC", "Generic", "Protocol"];

/// How deep a chain of repository classes is followed.
const MAX_DEPTH: usize = 8;

/// What `str()` of a class's instance raised with several arguments is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Printed {
    /// The arguments tuple.
    Args,
    /// Text the class writes.
    Own,
    /// Nothing either way (`object`, a mixin with no text).
    Neutral,
    /// Not known: a class of another package.
    Unknown,
}

/// Puts the arguments tuple around the messages of the sites raised with
/// several arguments whose class prints it; the others keep their
/// message.
pub fn apply_exception_classes(files: &mut [FileFacts]) {
    let classes: Vec<ClassDef> = files.iter().flat_map(|f| f.classes.clone()).collect();
    let by_name = index(&classes);
    for f in files.iter_mut() {
        for s in &mut f.sites {
            let Some(tuple) = s.args_tuple.take() else {
                continue;
            };
            if printed(last_name(&tuple.class), &by_name, 0) != Printed::Args {
                continue;
            }
            let ArgsTuple {
                before,
                before_args,
                after,
                after_args,
                quote,
                ..
            } = *tuple;
            let quoted = repr_message(std::mem::take(&mut s.message), quote);
            s.message = [before, quoted, after].concat();
            s.site.args = [before_args, std::mem::take(&mut s.site.args), after_args].concat();
        }
    }
}

/// A string's text as `repr` writes it between `quote`s: backslashes,
/// line ends and tabs escaped, and the quote itself.
pub(crate) fn repr_message(message: Message, quote: char) -> Message {
    let escape = |text: &str| {
        let mut out = String::with_capacity(text.len());
        for c in text.chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if c == quote => {
                    out.push('\\');
                    out.push(c);
                }
                c => out.push(c),
            }
        }
        out
    };
    (message.into_iter())
        .map(|p| match p {
            MsgPart::Text { text, format } => MsgPart::Text {
                text: escape(&text),
                format,
            },
            p => p,
        })
        .collect()
}

fn index(classes: &[ClassDef]) -> HashMap<&str, Vec<&ClassDef>> {
    let mut by_name: HashMap<&str, Vec<&ClassDef>> = HashMap::new();
    for c in classes {
        by_name.entry(c.name.as_str()).or_default().push(c);
    }
    by_name
}

/// A repository class of the name comes before the built-in one it
/// shadows (requests' `ConnectionError` is not the `OSError` one); classes
/// of one name that disagree tell nothing.
fn printed(name: &str, by_name: &HashMap<&str, Vec<&ClassDef>>, depth: usize) -> Printed {
    if depth > MAX_DEPTH {
        return Printed::Unknown;
    }
    if let Some(defs) = by_name.get(name) {
        let mut answers = defs.iter().map(|d| printed_by(d, by_name, depth));
        let first = answers.next().unwrap_or(Printed::Unknown);
        return if answers.all(|a| a == first) {
            first
        } else {
            Printed::Unknown
        };
    }
    match printed_builtin(name) {
        Printed::Unknown if NEUTRAL.contains(&name) => Printed::Neutral,
        printed => printed,
    }
}

/// A class prints the arguments when it writes no text and every base
/// either prints them or gives no text.
fn printed_by(def: &ClassDef, by_name: &HashMap<&str, Vec<&ClassDef>>, depth: usize) -> Printed {
    if def.prints_own {
        return Printed::Own;
    }
    let mut result = Printed::Neutral;
    for base in &def.bases {
        // A class derived from one of its own name (`class ConnectionError(
        // ConnectionError)` after an import) means the other one.
        let answer = if base == &def.name {
            printed_builtin(base)
        } else {
            printed(last_name(base), by_name, depth + 1)
        };
        match answer {
            Printed::Own | Printed::Unknown => return answer,
            Printed::Args => result = Printed::Args,
            Printed::Neutral => {}
        }
    }
    result
}

fn printed_builtin(name: &str) -> Printed {
    if PRINTS_ARGS.contains(&name) {
        Printed::Args
    } else if PRINTS_OWN.contains(&name) {
        Printed::Own
    } else {
        Printed::Unknown
    }
}

fn last_name(class: &str) -> &str {
    class.rsplit('.').next().unwrap_or(class)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether Python prints an exception of `class` (as written) raised
    /// with several arguments as the arguments tuple.
    fn prints_args_tuple(class: &str, classes: &[ClassDef]) -> bool {
        printed(last_name(class), &index(classes), 0) == Printed::Args
    }

    fn class(name: &str, bases: &[&str], prints_own: bool) -> ClassDef {
        ClassDef {
            name: name.into(),
            bases: bases.iter().map(|b| b.to_string()).collect(),
            prints_own,
        }
    }

    #[test]
    fn built_in_exceptions_print_the_tuple_except_os_and_syntax_errors() {
        assert!(prints_args_tuple("ValueError", &[]));
        assert!(prints_args_tuple("builtins.RuntimeError", &[]));
        assert!(prints_args_tuple("UserWarning", &[]));
        assert!(!prints_args_tuple("OSError", &[]));
        assert!(!prints_args_tuple("FileNotFoundError", &[]));
        assert!(!prints_args_tuple("UnicodeDecodeError", &[]));
    }

    #[test]
    fn a_repository_class_prints_the_tuple_through_its_bases() {
        let classes = [
            class("HTTPError", &["Exception"], false),
            class("ProtocolError", &["HTTPError"], false),
            class("PoolError", &["HTTPError"], true),
            class("EmptyPoolError", &["PoolError"], false),
            class("Mixin", &[], false),
            class("MixedError", &["Mixin", "ValueError"], false),
            class("ThirdPartyError", &["click.ClickException"], false),
            class("RequestException", &["IOError"], false),
        ];
        assert!(prints_args_tuple("exceptions.ProtocolError", &classes));
        assert!(prints_args_tuple("MixedError", &classes));
        assert!(!prints_args_tuple("PoolError", &classes));
        assert!(!prints_args_tuple("EmptyPoolError", &classes));
        assert!(!prints_args_tuple("ThirdPartyError", &classes));
        assert!(!prints_args_tuple("RequestException", &classes));
        assert!(!prints_args_tuple("NotDefinedHere", &classes));
    }

    #[test]
    fn a_repository_class_shadows_the_built_in_of_its_name() {
        let classes = [
            class("RequestException", &["IOError"], false),
            class("ConnectionError", &["RequestException"], false),
            class("Loop", &["Loop"], false),
        ];
        assert!(!prints_args_tuple("ConnectionError", &classes));
        let own = [class("ValueError", &["Exception"], true)];
        assert!(!prints_args_tuple("ValueError", &own));
        assert!(!prints_args_tuple("Loop", &classes));
    }

    #[test]
    fn repr_escapes_backslashes_line_ends_tabs_and_its_quote() {
        let text = |t: &str| MsgPart::Text {
            text: t.into(),
            format: false,
        };
        let m = vec![text("it's \"a\"\n\tpath\\"), MsgPart::Hole];
        assert_eq!(
            repr_message(m.clone(), '\''),
            [text("it\\'s \"a\"\\n\\tpath\\\\"), MsgPart::Hole]
        );
        assert_eq!(repr_message(vec![text("it's")], '"'), [text("it's")]);
    }

    #[test]
    fn classes_of_one_name_that_disagree_tell_nothing() {
        let classes = [
            class("ParseError", &["ValueError"], false),
            class("ParseError", &["Exception"], true),
        ];
        assert!(!prints_args_tuple("ParseError", &classes));
    }
}
