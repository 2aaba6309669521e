//! What each rule checks, why it matters, and what to write instead: the
//! text of `errdex lint --help`'s rule list, of SARIF's rule metadata and
//! of the atlas's rule pages (`/rules/ID/`).

use serde::Serialize;

/// How much a finding matters (SARIF's `level`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// A convention.
    Note,
    /// Makes errors harder to trace or handle.
    Warning,
    /// Harms users: a secret in a log, an error nobody sees.
    Error,
}

impl Level {
    /// The name SARIF and the text output use.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Note => "note",
            Level::Warning => "warning",
            Level::Error => "error",
        }
    }
}

/// One example of a rule in one language: code that fires, and its fix.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Example {
    /// The language's display name.
    pub lang: &'static str,
    /// Code the rule reports.
    pub bad: &'static str,
    /// The same code written so it does not.
    pub good: &'static str,
}

/// A rule: its id, severity and documentation.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Rule {
    /// The id findings and `--rule` use (`lost-cause`).
    pub id: &'static str,
    /// SARIF's `name`, in PascalCase.
    pub name: &'static str,
    /// How much its findings matter.
    pub level: Level,
    /// One line: what it finds.
    pub summary: &'static str,
    /// One paragraph: why it matters and what to do.
    pub explanation: &'static str,
    /// The languages it reads.
    pub languages: &'static [&'static str],
    /// One example per language where it applies.
    pub examples: &'static [Example],
}

/// Every rule, in the order they are listed.
pub static RULES: &[Rule] = &[
    Rule {
        id: "ambiguous-message",
        name: "AmbiguousMessage",
        level: Level::Warning,
        summary: "The same message text is printed at several sites, so a log line cannot tell them apart.",
        explanation: "When two statements print the same text (after their holes are filled), an operator who finds that text in a log cannot tell which of them ran, and errdex's trace lists every candidate. Make each message say what differs: the operation, the object or the step (`open config: …` against `open cache: …`). The finding lists every site and the words of each site's function that its message does not say yet. Sites in files that only differ by platform (`_linux.go`, `_windows.go`) are one site: only one of them is built.",
        languages: &["every language errdex reads"],
        examples: &[
            Example { lang: "Go", bad: "return fmt.Errorf(\"read failed: %w\", err) // in loadConfig\nreturn fmt.Errorf(\"read failed: %w\", err) // in loadCache", good: "return fmt.Errorf(\"read config: %w\", err)\nreturn fmt.Errorf(\"read cache: %w\", err)" },
            Example { lang: "Python", bad: "raise ValueError(\"bad value\")  # in parse_port\nraise ValueError(\"bad value\")  # in parse_host", good: "raise ValueError(f\"bad port {port!r}\")\nraise ValueError(f\"bad host {host!r}\")" },
            Example { lang: "Java", bad: "throw new IOException(\"read failed\"); // twice", good: "throw new IOException(\"read index: \" + path);" },
        ],
    },
    Rule {
        id: "untraceable-message",
        name: "UntraceableMessage",
        level: Level::Warning,
        summary: "An error made with too little literal text to be found from a log line.",
        explanation: "An error, exception, panic or exit message made only of holes (`%s: %s`), of generic words (`error: %s`, `unexpected error`) or of one short token (`EOF`, `oops`) cannot be traced to its statement: its text in a log matches everything or nothing. Give each message a few words of its own that say what failed, and keep variable parts in holes of a literal format. Not reported, because the log line then carries text that traces on its own: a hole that hands on an error (Ruby's `$!` too) or a caller's message or words (`Error: %v`, `%s: %w`, `'Invalid ' + label`, `'[WARNING] %s' % warning`, `${prefix}${this.usage}`), an error type's own `Error()`/`__str__`, sentinels (wrapped with context where returned), strings a function returns (a formatter's `return \"UNKNOWN\";`) argument checks named by their parameter (`Validate.notNull(cls, \"cls\")`, `panic(\"bad n\")` in a function that takes `n`), operations a class or macro says are left unimplemented on purpose (`UnsupportedOperationException(\"mark\")`, `NotImplementedError`, `unimplemented!`, a bare marker such as `Error(\"TODO\")` or `\"STUB\"`), panics, which print where they happened (Go's runtime prints the stack with each frame's file and line, Rust's hook `panicked at src/x.rs:12:5`; a Go package that calls `recover()` outside its tests, and there neither prints the stack nor panics again with what it does not handle, may turn them into errors without it, so its panics are read), errors made with the caught one as an argument (`orig_exc=e`, `new LoadException(\"read\", e)`, `{ cause: err }`: the trace or the class carries the cause's words), a message right after a log call that words the failure (`grpclog.Infof(\"Failed to extract ServerMetadata from context\")`, then `http.Error(w, \"unexpected error\", 500)`: the log holds the text), Python's `AttributeError` raised by a `@property` getter (the attribute protocol: `hasattr` and `__getattr__` handle it), exception classes of the tree's own named in several words and raised at one site (`raise NonAsciiHeaderError(…)`: Python, Java, Kotlin, Scala, C#, Ruby and PHP print the class's name with the message, and it finds the statement), holes filled by a parameter that every caller fills with a literal (`ensure_dict(obj, 'JWS')`: counted as that text), holes that hand on what another program answered (an HTTP response's body or status, a server's reply to a command, a child's output, followed through two assignments), assertions under a debug switch (`if debugAsserts { panic(…) }`), assertions that spell out their condition (`panic(\"d.nx != 0\")`) and errors that spell out the failed operation as code (`ZeroDivisionError('%s / 0')`), holes filled by the package's string constants (counted as their text), the system's error text (`strerror(errno)`) or a stack trace (`debug.Stack()`), exception classes that word their own message from what they are raised with (`raise InvalidClaimError('aud')` prints `Invalid claim \"aud\"`), and exception classes that do not call themselves errors (`raise RequestPath(path)`: control flow). Logs and prints are not read (their formats are often field values or listings), nor text kept in a name or formatted into a buffer for a later print (`msg = f\"…\"`, `snprintf(errbuf, …)`), nor output: a line that starts with a carriage return (a progress meter) or a comment placeholder (`/* nil */`). Messages built wholly at run time (`errors.New(msg)`) are listed by `errdex list --dynamic`; where their text comes from is not visible to a linter, so they are not reported.",
        languages: &["every language errdex reads"],
        examples: &[
            Example { lang: "Go", bad: "return fmt.Errorf(\"%s: %v\", name, err)", good: "return fmt.Errorf(\"load plugin %s: %w\", name, err)" },
            Example { lang: "Python", bad: "raise ValueError(f\"{name}: {value}\")", good: "raise ValueError(f\"plugin {name}: bad version {value!r}\")" },
            Example { lang: "JavaScript", bad: "throw new Error(`${name}: ${value}`)", good: "throw new Error(`plugin ${name}: bad version ${value}`)" },
        ],
    },
    Rule {
        id: "lost-cause",
        name: "LostCause",
        level: Level::Warning,
        summary: "An error is wrapped so that the cause is lost for code.",
        explanation: "A new error made from a caught one without linking it hides the cause from the code above: `errors.Is`/`errors.As`, `__cause__`, `getCause()` and stack traces no longer reach it, so callers cannot handle the cause and logs lose its stack. Link it: Go `%w` instead of `%v`/`%s`; Python `raise … from err`; Java, C# and PHP pass the caught exception as the cause argument; JavaScript `{ cause: err }`; Rust keep the source (`map_err(|e| …e…)`, `#[source]`). Ruby links causes by itself, and C has no error values to link.",
        languages: &["Go", "Python", "Java", "C#", "JavaScript", "TypeScript", "PHP", "Rust"],
        examples: &[
            Example { lang: "Go", bad: "return fmt.Errorf(\"open %s: %v\", path, err)", good: "return fmt.Errorf(\"open %s: %w\", path, err)" },
            Example { lang: "Python", bad: "except OSError as e:\n    raise ConfigError(f\"cannot read {path}\")", good: "except OSError as e:\n    raise ConfigError(f\"cannot read {path}\") from e" },
            Example { lang: "Java", bad: "catch (IOException e) {\n    throw new ConfigException(\"cannot read \" + path);\n}", good: "catch (IOException e) {\n    throw new ConfigException(\"cannot read \" + path, e);\n}" },
            Example { lang: "C#", bad: "catch (IOException e) {\n    throw new ConfigException(\"cannot read \" + path);\n}", good: "catch (IOException e) {\n    throw new ConfigException(\"cannot read \" + path, e);\n}" },
            Example { lang: "JavaScript", bad: "catch (e) {\n  throw new Error(`cannot read ${path}`);\n}", good: "catch (e) {\n  throw new Error(`cannot read ${path}`, { cause: e });\n}" },
            Example { lang: "PHP", bad: "catch (IOException $e) {\n    throw new ConfigException(\"cannot read $path\");\n}", good: "catch (IOException $e) {\n    throw new ConfigException(\"cannot read $path\", 0, $e);\n}" },
            Example { lang: "Rust", bad: "let n: u16 = s.parse().map_err(|_| Error::BadPort)?;", good: "let n: u16 = s.parse().map_err(|e| Error::BadPort(e))?;" },
        ],
    },
    Rule {
        id: "swallowed-error",
        name: "SwallowedError",
        level: Level::Error,
        summary: "A caught or checked error is neither handled nor logged nor returned.",
        explanation: "An empty handler (`if err != nil {}`, `except: pass`, `catch (e) {}`, `rescue nil`, `Err(_) => {}`) makes a failure silent: the program goes on in a state nobody checked and no log says why. Handle the error, log it, or return it. If ignoring it is right, say why in a comment inside the handler (or name the Java/C#/PHP variable `ignored`), and the rule stays quiet. In Python and Ruby, where catching one named exception and going on is the idiom (`except KeyError: pass`), only broad handlers are reported: bare `except:`/`rescue`, `Exception`, `BaseException`, `StandardError`.",
        languages: &["Go", "Python", "Java", "C#", "JavaScript", "TypeScript", "PHP", "Ruby", "Rust", "C++"],
        examples: &[
            Example { lang: "Go", bad: "if err := f.Close(); err != nil {\n}", good: "if err := f.Close(); err != nil {\n\tlog.Printf(\"close %s: %v\", name, err)\n}" },
            Example { lang: "Python", bad: "try:\n    os.remove(tmp)\nexcept Exception:\n    pass", good: "try:\n    os.remove(tmp)\nexcept FileNotFoundError:\n    pass" },
            Example { lang: "Java", bad: "try { in.close(); } catch (IOException e) {}", good: "try { in.close(); } catch (IOException ignored) {\n    // closing a read-only stream cannot lose data\n}" },
            Example { lang: "C#", bad: "try { File.Delete(tmp); } catch (IOException) { }", good: "try { File.Delete(tmp); } catch (IOException e) { log.LogWarning(e, \"cannot delete {Tmp}\", tmp); }" },
            Example { lang: "JavaScript", bad: "try { fs.unlinkSync(tmp); } catch (e) {}", good: "try { fs.unlinkSync(tmp); } catch (e) { if (e.code !== 'ENOENT') throw e; }" },
            Example { lang: "PHP", bad: "try { unlink($tmp); } catch (Exception $e) {}", good: "try { unlink($tmp); } catch (Exception $e) { error_log(\"cannot delete $tmp: \" . $e->getMessage()); }" },
            Example { lang: "Ruby", bad: "File.delete(tmp) rescue nil", good: "begin\n  File.delete(tmp)\nrescue Errno::ENOENT\n  # already gone\nend" },
            Example { lang: "Rust", bad: "if let Err(_) = fs::remove_file(&tmp) {}", good: "if let Err(e) = fs::remove_file(&tmp) {\n    log::warn!(\"cannot delete {}: {e}\", tmp.display());\n}" },
            Example { lang: "C++", bad: "try { save(); } catch (...) {}", good: "try { save(); } catch (const std::exception& e) { log_error(e.what()); }" },
        ],
    },
    Rule {
        id: "style",
        name: "MessageStyle",
        level: Level::Note,
        summary: "An error message breaks its language's conventions (Go: ST1005; Rust: lowercase, no trailing punctuation).",
        explanation: "Error strings are composed into longer messages (`open config: permission denied`), so Go's convention (staticcheck ST1005) and Rust's API guidelines (C-GOOD-ERR) ask that they start in lower case, unless with a proper noun or an acronym, and end without punctuation or a newline. Python, Java, JavaScript and the others have no such community rule, and the rule does not read them.",
        languages: &["Go", "Rust"],
        examples: &[
            Example { lang: "Go", bad: "return errors.New(\"Invalid port.\")", good: "return errors.New(\"invalid port\")" },
            Example { lang: "Rust", bad: "#[error(\"Invalid port.\")]\nBadPort,", good: "#[error(\"invalid port\")]\nBadPort," },
        ],
    },
    Rule {
        id: "leaks-secret",
        name: "LeaksSecret",
        level: Level::Error,
        summary: "A message or log prints a value named like a secret (password, token, API key, Authorization).",
        explanation: "Messages end up in logs, terminals, issue trackers and error pages, where secrets must not. A hole filled by a value named `password`, `token`, `secret`, `apiKey` or `Authorization` prints the secret itself. Print something that identifies it without revealing it (the user, a key id, the secret's name or length), or nothing. Names that only describe a secret (`secretName`, `tokenFile`, `passwordHash`, `len(token)`) are not reported, nor `credentials`, which names a user as often as a secret, nor `token` in a parser's message (`unexpected token %q`), nor values derived from a secret (`crypted_password`, a message about its hash or digest), nor a private key named by its file (`failed to load private key '%s'`), nor the password field of a password database's entry (`pw->pw_passwd`, `sp_pwdp`: a crypt hash or a lock marker), nor a `token` cut from the input by a tokenizer (`token = strtok(dn, \",=\")`), nor a value named for where it came from (`nonce_in_id_token` is a nonce), nor an OpenID Connect ID token (`id_token`: the user's identity claims, for the client to read), nor a formatted string kept as data under a name that holds no message (`storage->unique_root_dir = p_strdup_printf(…)`), nor a message that says the secret is missing (`oauth_token is missing: %r` prints what came instead). A dump's own output (`dump_config()`, a `dump()` method, `DisplayConf()`) writes values out on purpose for whoever asked, and is no message. Text for a peer is no message: a protocol line or command (`PASS %s\\r\\n`), a credential in its wire form (`Bearer %s`, `user:password` for an Authorization header).",
        languages: &["every language errdex reads"],
        examples: &[
            Example { lang: "Go", bad: "log.Errorf(\"login %s with %s failed\", user, password)", good: "log.Errorf(\"login %s failed\", user)" },
            Example { lang: "Python", bad: "logger.error(f\"auth failed, token={token}\")", good: "logger.error(f\"auth failed for key id {key_id}\")" },
            Example { lang: "JavaScript", bad: "throw new Error(`bad api key ${apiKey}`)", good: "throw new Error(`bad api key ending ${apiKey.slice(-4)}`)" },
        ],
    },
    Rule {
        id: "duplicate-sentinel",
        name: "DuplicateSentinel",
        level: Level::Warning,
        summary: "The same sentinel error text is declared in two packages.",
        explanation: "A sentinel (`var ErrNotFound = errors.New(\"not found\")`) is compared by identity: `errors.Is(err, a.ErrNotFound)` is false for `b.ErrNotFound`, though both print the same text, and a log cannot tell them apart. Declare it once and import it, or give each its package's words (`\"store: not found\"`). Languages whose errors print their qualified class name (Python, Java, C#) tell such classes apart in every log, so the rule reads Go.",
        languages: &["Go"],
        examples: &[
            Example { lang: "Go", bad: "// package store\nvar ErrNotFound = errors.New(\"not found\")\n// package cache\nvar ErrNotFound = errors.New(\"not found\")", good: "// package cache\nvar ErrNotFound = store.ErrNotFound" },
        ],
    },
];

/// The rule with this id.
pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}
