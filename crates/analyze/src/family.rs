//! Error families (`backgroundTag`): what kind of failure a message
//! describes, judged from its literal words and the name of the call whose
//! error it wraps. Each family carries what is generally true of that kind
//! of failure; the analysis says "usually" when it uses it, because the
//! code only shows the message, not the environment.

/// One family of errors.
#[derive(Debug, PartialEq, Eq)]
pub struct Family {
    /// The slug (`port-already-in-use`).
    pub slug: &'static str,
    /// Lowercase phrases that put a message in the family. A phrase
    /// matches at word starts; a trailing `*` lets its last word run on
    /// (`pars*` matches "parse" and "parsing").
    pub phrases: &'static [&'static str],
    /// What the family is, one sentence.
    pub meaning: &'static str,
    /// Where it usually comes from.
    pub situations: &'static str,
    /// What usually fixes it, best first.
    pub solutions: &'static [&'static str],
    /// How to keep it from happening.
    pub prevention: &'static [&'static str],
    /// Whether trying again later can succeed.
    pub transient: bool,
    /// Whether it is expected operation, not a fault (severity info).
    pub expected: bool,
}

macro_rules! family {
    ($slug:literal, [$($p:literal),*], $meaning:literal, $sit:literal,
     [$($s:literal),*], [$($t:literal),*], transient: $tr:literal, expected: $ex:literal) => {
        Family {
            slug: $slug,
            phrases: &[$($p),*],
            meaning: $meaning,
            situations: $sit,
            solutions: &[$($s),*],
            prevention: &[$($t),*],
            transient: $tr,
            expected: $ex,
        }
    };
}

/// Families in the order they are tried: specific before general.
pub static FAMILIES: &[Family] = &[
    family!("graceful-shutdown",
        ["stop requested", "shutting down", "shutdown", "server closed", "is stopping",
         "being stopped", "stopped", "draining", "terminating"],
        "The component is stopping on purpose and tells its caller to stop too.",
        "Usually seen while a process receives a stop signal, a controller is told to stop, or a server is closed during shutdown.",
        ["If the process is being stopped or restarted on purpose, nothing needs fixing: this is the clean-shutdown path.",
         "If it appears while nobody stopped the process, find what requested the stop (signal, parent context, supervisor) in the logs just before it."],
        ["Treat this error as a normal end of work in callers, not as a failure.",
         "Log it at info level so dashboards do not count shutdowns as errors."],
        transient: false, expected: true),
    family!("context-canceled",
        ["context canceled", "canceled", "cancelled", "cancel*", "aborted"],
        "The operation stopped because its caller gave up on it (a cancelled context or request).",
        "Usually seen when a client disconnects, a parent operation fails or times out, or the process shuts down while work is in flight.",
        ["Look at what cancelled the parent operation: the log lines just before this one usually show it.",
         "If callers cancel too early, give the operation a longer deadline."],
        ["Pass one context through an operation so cancellation is deliberate and traceable.",
         "Do not report cancellation caused by shutdown as an error."],
        transient: false, expected: true),
    family!("timeout",
        ["timeout", "timed out", "time out", "deadline exceeded", "deadline"],
        "An operation did not finish in the time it was given.",
        "Usually seen when a remote service is slow or overloaded, the network drops packets, or a timeout is configured too short for the work.",
        ["Check that the remote side is up and answering quickly (latency, load).",
         "Raise the timeout if the work legitimately takes longer.",
         "Retry with backoff: timeouts are often transient."],
        ["Set timeouts from measured latencies, with headroom.",
         "Retry idempotent operations with exponential backoff."],
        transient: true, expected: false),
    family!("port-already-in-use",
        ["address already in use", "port already in use", "already in use", "bind", "listen*"],
        "The program could not listen on a network address, most often because another process already holds the port.",
        "Usually seen when two instances start on one host, an earlier instance is still exiting, or two services are configured with the same port.",
        ["Find what holds the port (`ss -ltnp` or `lsof -i :PORT`) and stop it, or configure a different port.",
         "If an earlier instance is still shutting down, wait for it to exit before starting again.",
         "Check that the address exists on this host and that the process may bind it (ports below 1024 need privileges)."],
        ["Give every service its own port in configuration.",
         "Run one instance per host or network namespace."],
        transient: false, expected: false),
    family!("dns-resolution",
        ["no such host", "dns", "resolve host*", "resolving host*", "dns lookup", "lookup host", "hostname"],
        "A host name could not be resolved to an address.",
        "Usually seen with a misspelled host name, a DNS server that is down or unreachable, or a name that only resolves inside another network.",
        ["Check the host name for typos and resolve it by hand (`getent hosts NAME`, `dig NAME`).",
         "Check the resolver configuration (`/etc/resolv.conf`) and that the DNS server is reachable."],
        ["Use names that resolve in every environment the program runs in.",
         "Monitor the DNS servers the program depends on."],
        transient: true, expected: false),
    family!("connection-refused",
        ["connection refused", "connection reset", "no route", "unreachable", "dial*", "connect*",
         "broken pipe", "eof"],
        "The program could not reach, or lost, a network peer.",
        "Usually seen when the remote service is down or restarting, a firewall blocks the port, or the address or port is wrong.",
        ["Check that the remote service is running and listening on the address the program uses.",
         "Check firewalls and network policies between the two.",
         "Retry with backoff if the peer is restarting."],
        ["Start dependencies before the services that need them, or retry at start-up.",
         "Use health checks so traffic only goes to ready peers."],
        transient: true, expected: false),
    family!("tls-certificate",
        ["certificate", "x509", "tls", "ssl", "cert", "certs", "private key", "key file", "ca file"],
        "A TLS certificate or key could not be loaded or was not accepted.",
        "Usually seen with expired or not-yet-valid certificates, a certificate for another host name, a missing CA, or key files in the wrong format or path.",
        ["Check the certificate's validity dates and names (`openssl x509 -in FILE -noout -text`).",
         "Check that the key matches the certificate and that the CA that signed it is trusted by the peer.",
         "Check the file paths and permissions the program was given."],
        ["Automate certificate renewal and alert before expiry.",
         "Keep certificate, key and CA paths in one place of the configuration."],
        transient: false, expected: false),
    family!("permission-denied",
        ["permission denied", "permission", "forbidden", "not permitted", "access denied"],
        "The program was not allowed to do something: a file mode, an account's rights or a policy forbids it.",
        "Usually seen when the process runs as another user than expected, files were created by another user, or an access policy denies the account.",
        ["Check which identity the operation runs as (operating-system user, account, role or token) and which rights it holds for what the message names.",
         "Grant the needed right to that identity rather than using an all-powerful one."],
        ["Create files and directories with the user that will use them.",
         "Keep the rights a deployment needs in its manifests, reviewed with the code."],
        transient: false, expected: false),
    family!("authentication",
        ["unauthorized", "unauthenticated", "authenticat*", "credential*", "password", "invalid token", "token expired", "expired token", "bad token", "login"],
        "The caller could not prove who it is, or its credentials were rejected.",
        "Usually seen with expired tokens, wrong or rotated passwords, or a client that sends no credentials.",
        ["Check that the credentials the program uses are present, current and for the right account.",
         "Renew expired tokens or certificates."],
        ["Rotate credentials with automation that updates every consumer.",
         "Fail early at start-up when credentials are missing."],
        transient: false, expected: false),
    family!("unavailable",
        ["unavailable", "not ready", "no leader", "not started", "not running", "busy", "try again", "retry"],
        "A service the operation needs is not ready to serve it yet.",
        "Usually seen during start-up, leader elections, rolling restarts or overload.",
        ["Wait and retry: the condition is usually temporary.",
         "If it lasts, check the health of the service the message names."],
        ["Retry with backoff and make readiness visible to load balancers."],
        transient: true, expected: false),
    family!("not-found",
        ["not found", "no such", "does not exist", "doesn't exist", "not exist", "missing"],
        "Something the operation needs is not there: a file, key, record or name it looked up.",
        "Usually seen after a typo in a name or path, when something was deleted or not created yet, or when two components disagree about names.",
        ["Check that what the operation looked up exists under the name it used.",
         "If it should have been created by an earlier step, check that step's logs."],
        ["Validate names and paths from configuration at start-up.",
         "Create what is required before using it, or handle its absence explicitly."],
        transient: false, expected: false),
    family!("already-exists",
        ["already exists", "already exist", "duplicate", "already registered", "already"],
        "Something the operation would create exists already.",
        "Usually seen when an operation is repeated (a retry after a partial success), or two actors create the same name.",
        ["Check whether the existing item is the one you meant to create; if so, the earlier attempt succeeded.",
         "Use another name, or delete the existing item first if it is stale."],
        ["Make creation idempotent: treat an identical existing item as success.",
         "Generate unique names where collisions are possible."],
        transient: false, expected: false),
    family!("unsupported",
        ["not supported", "unsupported", "not implemented", "unimplemented"],
        "The request asks for something this build or version does not do.",
        "Usually seen when client and server versions differ, or when a configuration enables a feature this build lacks.",
        ["Check the versions of both sides and the documentation of the feature.",
         "Turn the option off or upgrade to a version that supports it."],
        ["Check capabilities or versions before using optional features."],
        transient: false, expected: false),
    family!("too-large",
        ["too large", "too big", "exceeds", "larger than"],
        "An input is larger than a limit allows.",
        "Usually seen with inputs larger than expected, or a limit configured lower than legitimate inputs need.",
        ["Check which limit applies and the size of the input against it.",
         "Send less (split the input), or raise the limit if the input is legitimate."],
        ["Bound inputs at the edge of the system and say the limit in the error."],
        transient: false, expected: false),
    family!("resource-exhausted",
        ["too many", "quota", "exhausted", "out of memory", "no space", "limit exceeded", "exceeded", "overflow"],
        "A limit was reached: size, count, rate, memory or disk.",
        "Usually seen under load spikes, with inputs larger than expected, or when a limit is configured lower than the workload needs.",
        ["Check which limit the message names and the actual value against it.",
         "Raise the limit if the workload is legitimate, or reduce the input or rate."],
        ["Monitor usage against limits and alert before they are hit.",
         "Bound inputs at the edge of the system."],
        transient: true, expected: false),
    family!("conflict",
        ["conflict", "mismatch", "compacted", "revision", "modified", "out of date", "stale", "version"],
        "The state changed or differs from what the operation expected.",
        "Usually seen with concurrent writers, a cached copy that went stale, or components at different versions.",
        ["Read the current state again and retry the operation against it.",
         "If versions differ, bring the components to compatible versions."],
        ["Use compare-and-swap or optimistic concurrency and retry on conflict."],
        transient: true, expected: false),
    family!("parse-error",
        ["pars*", "unmarshal*", "decod*", "syntax", "malformed", "invalid character", "unexpected end", "json", "yaml",
         "proto", "wiretype", "illegal tag", "integer overflow", "unexpected eof"],
        "Input could not be read in the format the program expects.",
        "Usually seen with hand-edited configuration, truncated or corrupted files, or data written by another version.",
        ["Validate the input named in the message with a tool for its format (for example `jq .` for JSON).",
         "Look for truncation or encoding problems if the input was transferred or generated."],
        ["Validate configuration files in CI before deploying them.",
         "Version data formats and reject unknown versions explicitly."],
        transient: false, expected: false),
    family!("invalid-argument",
        ["invalid", "must be", "must not", "must have", "cannot be empty", "can't be empty", "required", "unknown",
         "expected", "unexpected", "illegal", "out of range", "bad", "wrong", "empty", "negative", "not valid"],
        "A value given to the operation is not acceptable.",
        "Usually seen with a wrong flag or configuration value, or a caller that passes data the function does not accept.",
        ["Check the value the message names against what the code accepts.",
         "Fix the flag, configuration entry or caller that provides it."],
        ["Validate inputs where they enter the program and report all problems at once."],
        transient: false, expected: false),
    family!("closed-resource",
        ["closed", "already closed", "use of closed", "is closed", "was closed", "been closed"],
        "The operation used something (a connection, file, channel or client) after it was closed.",
        "Usually seen during shutdown, or when one part of the program closes a shared resource another part still uses.",
        ["Check the order of shutdown: close shared resources only after their users stop.",
         "If it happens outside shutdown, find where the resource is closed early."],
        ["Give each shared resource one owner that closes it last."],
        transient: false, expected: false),
    family!("io-error",
        ["read file", "write file", "open file", "create file", "remove file", "rename file", "file", "files",
         "directory", "directories", "disk", "mkdir", "fsync", "no space left", "read only file system", "i o error"],
        "Reading or writing a file or stream failed.",
        "Usually seen with missing paths, full disks, wrong permissions or failing storage.",
        ["Check the path in the message: that it exists, has space, and is writable by the process.",
         "Check the system logs (`dmesg`) for storage errors."],
        ["Check free space and permissions at start-up for the paths the program writes."],
        transient: false, expected: false),
];

/// Panics whose words name no environment cause: the code reached a state
/// its author ruled out.
pub static BROKEN_INVARIANT: Family = family!("broken-invariant", [],
    "The program reached a state its code treats as impossible, so it panics: a bug, corrupted data, or a use the code does not support.",
    "Usually seen when a caller passes arguments or state the code rules out, after data was corrupted or written by another version, or when a code path its authors thought unreachable is reached.",
    ["Keep the whole panic message and stack trace: the frames below the panic name the caller that reached it, and what it passed.",
     "Fix that caller if it is yours; if it is the project's own code, report it to the project with the stack trace."],
    ["Check the conditions the code panics on before calling it, or have it return an error instead of panicking."],
    transient: false, expected: false);

/// The families of messages that fit none of [`FAMILIES`], by how they
/// surface.
pub static FALLBACK: Family = family!("operation-failed", [],
    "An operation of the program failed.",
    "The message and the code around it are the only evidence; the analysis names no environment cause.",
    ["Read the whole log line: text after the message is usually the underlying cause."],
    ["Handle the error where the operation is called and add context to it."],
    transient: false, expected: false);

/// Lowercase words of `text`, letters and digits only.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Splits an identifier into lowercase words (`serveReadiness` → `serve
/// readiness`, `ErrStopRequested` → `err stop requested`).
pub fn identifier_words(id: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in id.chars() {
        if !c.is_alphanumeric() {
            if !out.ends_with(' ') && !out.is_empty() {
                out.push(' ');
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower {
            out.push(' ');
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        out.extend(c.to_lowercase());
    }
    out.trim().to_string()
}

/// A phrase split into words once: `(family, words, last word open)`.
struct Phrase {
    family: &'static Family,
    words: Vec<&'static str>,
    open: bool,
}

/// Every family's phrases, longest first (earlier families first among
/// equals), so the first phrase that matches is the answer.
fn phrases() -> &'static [Phrase] {
    static PHRASES: std::sync::OnceLock<Vec<Phrase>> = std::sync::OnceLock::new();
    PHRASES.get_or_init(|| {
        let mut out: Vec<Phrase> = FAMILIES
            .iter()
            .flat_map(|f| {
                f.phrases.iter().map(move |p| {
                    let (p, open) = match p.strip_suffix('*') {
                        Some(p) => (p, true),
                        None => (*p, false),
                    };
                    Phrase {
                        family: f,
                        words: p.split(' ').filter(|w| !w.is_empty()).collect(),
                        open,
                    }
                })
            })
            .collect();
        // Stable: among equal lengths, family order stays.
        out.sort_by_key(|p| std::cmp::Reverse(p.words.len()));
        out
    })
}

fn phrase_matches(words: &[String], p: &Phrase) -> bool {
    if p.words.is_empty() || p.words.len() > words.len() {
        return false;
    }
    words.windows(p.words.len()).any(|w| {
        w.iter().zip(&p.words).enumerate().all(|(i, (got, want))| {
            if p.open && i + 1 == w.len() {
                got.starts_with(want)
            } else {
                got == want
            }
        })
    })
}

/// The words of `literal` that describe a failure. A message that says
/// the code did not attempt an operation (`Did not attempt to load JSON
/// data because …`) describes no failure of it: only its reason counts,
/// without the values it quotes (`'application/json'`).
pub fn failure_words(literal: &str) -> String {
    let lower = literal.to_lowercase();
    let declined = [
        "did not attempt",
        "not attempting",
        "will not attempt",
        "refusing to",
    ];
    if !declined.iter().any(|d| lower.contains(d)) {
        return literal.to_string();
    }
    let reason = lower.split_once("because ").map_or("", |(_, r)| r);
    let mut out = String::new();
    let mut quote: Option<char> = None;
    for c in reason.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if matches!(c, '\'' | '"' | '`') => quote = Some(c),
            None => out.push(c),
        }
    }
    out
}

/// Single words that name their family on their own. Any other one-word
/// phrase only hints at it: "closed" in "the application closed the
/// input stream", "already" in "headers already set", "dial" in "failed
/// to configure dialer" describe no environment failure.
const TELLING_WORDS: &[&str] = &[
    "timeout",
    "deadline",
    "x509",
    "tls",
    "ssl",
    "certificate",
    "unauthorized",
    "unauthenticated",
    "forbidden",
    "dns",
    "quota",
    "exhausted",
    "unavailable",
    "duplicate",
    "unsupported",
    "unimplemented",
    "conflict",
    "syntax",
    "malformed",
    "fsync",
    "mkdir",
];

/// The family of the longest phrase (in words) found in the first of
/// `texts` that has one (the message's literal words, then the wrapped
/// call's name); earlier families win ties. Longest first, so "must not
/// be empty" in "listen address must not be empty" outweighs "listen".
/// With it, whether the phrase tells the family (several words, or one
/// of [`TELLING_WORDS`]) rather than hints at it.
pub fn classify_telling(texts: &[&str]) -> (&'static Family, bool) {
    for text in texts {
        let words = words(text);
        if let Some(p) = phrases().iter().find(|p| phrase_matches(&words, p)) {
            let telling = p.words.len() > 1 || (!p.open && TELLING_WORDS.contains(&p.words[0]));
            return (p.family, telling);
        }
    }
    (&FALLBACK, false)
}

/// The family an HTTP status names, when it names one.
pub fn by_status(status: u16) -> Option<&'static Family> {
    by_slug(match status {
        400 | 422 => "invalid-argument",
        401 => "authentication",
        403 => "permission-denied",
        404 | 410 => "not-found",
        409 | 412 => "conflict",
        408 | 504 => "timeout",
        413 => "too-large",
        429 => "resource-exhausted",
        501 => "unsupported",
        502 | 503 => "unavailable",
        _ => return None,
    })
}

/// A family by slug.
pub fn by_slug(slug: &str) -> Option<&'static Family> {
    FAMILIES
        .iter()
        .chain([&FALLBACK, &BROKEN_INVARIANT])
        .find(|f| f.slug == slug)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_size_over_a_limit_is_not_transient() {
        let (family, _) = classify_telling(&["request entity too large"]);
        assert_eq!(family.slug, "too-large");
        assert!(!family.transient, "the same input fails on every retry");
        assert_eq!(
            classify_telling(&["message size exceeds %d"]).0.slug,
            "too-large"
        );
        assert_eq!(
            classify_telling(&["too many requests"]).0.slug,
            "resource-exhausted"
        );
        assert_eq!(by_status(413).map(|f| f.slug), Some("too-large"));
        // `too long` is mostly time (`took too long`), no size.
        assert_ne!(
            classify_telling(&["apply request took too long"]).0.slug,
            "too-large"
        );
    }

    #[test]
    fn an_operation_not_attempted_is_no_failure_of_it() {
        assert_eq!(
            failure_words("Did not attempt to load JSON data because the request Content-Type was not 'application/json'."),
            "the request content-type was not ."
        );
        assert_eq!(failure_words("invalid JSON: %v"), "invalid JSON: %v");
    }

    #[test]
    fn messages_fall_into_families() {
        let slug = |m: &str| classify_telling(&[m]).0.slug;
        assert_eq!(slug("stop requested"), "graceful-shutdown");
        assert_eq!(
            slug("listen tcp %s: bind: address already in use"),
            "port-already-in-use"
        );
        assert_eq!(slug("failed to resolve host %q"), "dns-resolution");
        assert_eq!(slug("failed to resolve %q"), "operation-failed");
        assert_eq!(slug("unknown output format %q"), "invalid-argument");
        assert_eq!(
            slug("proto: wrong wireType = %d for field Key"),
            "parse-error"
        );
        assert_eq!(slug("write /var/x: read-only file system"), "io-error");
        assert_eq!(slug("request timed out after %v"), "timeout");
        assert_eq!(slug("key %q not found"), "not-found");
        assert_eq!(slug("failed to parse config: %w"), "parse-error");
        assert_eq!(slug("invalid cluster size %d"), "invalid-argument");
        assert_eq!(slug("serving readiness probe: %w"), "operation-failed");
        assert_eq!(slug("context canceled"), "context-canceled");
        assert_eq!(slug("listen address must not be empty"), "invalid-argument");
        assert_eq!(slug("invalid character %q in JSON"), "parse-error");
        assert_eq!(by_status(409).unwrap().slug, "conflict");
    }

    #[test]
    fn one_word_hints_do_not_tell_a_family() {
        let telling = |m: &str| classify_telling(&[m]);
        assert_eq!(
            telling("listen tcp %s: bind: address already in use"),
            (by_slug("port-already-in-use").unwrap(), true)
        );
        assert!(telling("request timed out").1);
        assert!(telling("x509: bad certificate").1);
        for hint in [
            "Headers already set",
            "The application closed the input stream!",
            "failed to configure dialer: %v",
            "found hash mismatch",
        ] {
            assert!(!telling(hint).1, "{hint}");
        }
        // A limit on values is not a permission.
        assert_eq!(
            telling("Negative chunk length not allowed").0.slug,
            "invalid-argument"
        );
    }

    #[test]
    fn identifiers_split_into_words() {
        assert_eq!(identifier_words("serveReadiness"), "serve readiness");
        assert_eq!(identifier_words("c.StopRequested"), "c stop requested");
        assert_eq!(identifier_words("ErrHTTPTimeout"), "err httptimeout");
    }

    #[test]
    fn every_family_is_complete() {
        for f in FAMILIES.iter().chain([&FALLBACK, &BROKEN_INVARIANT]) {
            assert!(
                !f.meaning.is_empty() && !f.situations.is_empty(),
                "{}",
                f.slug
            );
            assert!(
                !f.solutions.is_empty() && !f.prevention.is_empty(),
                "{}",
                f.slug
            );
            assert_eq!(by_slug(f.slug), Some(f));
        }
    }
}
