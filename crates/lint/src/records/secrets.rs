//! `leaks-secret`: holes filled by a value named like a secret.

use super::*;

/// Words a value's name ends with when it holds a secret. Not
/// `credentials`: it names an identity (`domain\user`) as often as a
/// secret.
const SECRET_WORDS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "secret",
    "token",
    "apikey",
    "authorization",
    "privatekey",
    "secretkey",
    "accesskey",
    "clientsecret",
];

/// Headers whose value is a secret.
const SECRET_HEADERS: &[&str] = &[
    "authorization",
    "proxy-authorization",
    "x-api-key",
    "cookie",
];

/// Words of a message about parsing, where `token` is the parser's.
const PARSER_WORDS: &[&str] = &[
    "unexpected",
    "expected",
    "expecting",
    "parse",
    "parsing",
    "syntax",
    "lexer",
    "scanner",
    "grammar",
    "character",
    "tokenize",
    "tokenizer",
];

/// Words of a message that prints a value derived from a secret (a hash,
/// a challenge response), not the secret.
const DERIVED_WORDS: &[&str] = &[
    "hash",
    "hashed",
    "digest",
    "md5",
    "sha1",
    "sha256",
    "sha512",
    "hmac",
    "fingerprint",
    "cram",
    "apop",
    "checksum",
];

pub(super) fn leaks_secret(
    r: &Record,
    s: &Site,
    t: &Template,
    declared: &crate::declared::Declared,
    out: &mut Vec<Finding>,
) {
    if for_a_peer(&r.message_pattern, t) || in_a_dump(s) {
        return;
    }
    let text = literal(t).to_lowercase();
    let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).collect();
    if words.iter().any(|w| DERIVED_WORDS.contains(w)) || says_it_is_absent(&text) {
        return;
    }
    let parser = words.iter().any(|w| PARSER_WORDS.contains(w));
    for seg in &t.segments {
        let Segment::Hole(h) = seg else { continue };
        let Some(arg) = h.arg.as_deref() else {
            continue;
        };
        if !matches!(h.kind, HoleKind::Any | HoleKind::Quoted | HoleKind::Hex) {
            continue; // a number, type or pointer prints no secret
        }
        let Some(word) = secret_in(arg) else { continue };
        if identifier_words(arg)
            .iter()
            .any(|w| DERIVED_NAMES.contains(&w.as_str()))
        {
            continue; // `crypted_password`: a hash of it
        }
        if password_database_hash(arg) {
            continue;
        }
        if word == "token"
            && (parser
                || !about_auth(arg, &literal(t), &s.file_path)
                || declared.cut_by_a_tokenizer(&s.file_path, s.line_number, last_identifier(arg)))
        {
            continue;
        }
        if word == "privatekey" && words.iter().any(|w| FILE_WORDS.contains(w)) {
            continue; // `Failed to load private key '%s'`: its file
        }
        // Read from the file only here, for a hole that holds a secret.
        if declared
            .assigned_name(&s.file_path, s.line_number)
            .is_some_and(|name| !names_a_message(&name))
        {
            return; // `storage->unique_root_dir = p_strdup_printf(…)`: data
        }
        out.push(finding(
            "leaks-secret",
            &s.file_path,
            s.line_number,
            format!(
                "`{}` prints `{}`, a {word}: messages reach logs and bug reports; print what identifies it (a user, a key id, a name or length), not its value",
                r.message_pattern,
                crate::syntax::one_line(arg, 60)
            ),
        ));
    }
}

/// Words of a message that names a file: a key given by its path.
const FILE_WORDS: &[&str] = &[
    "file", "path", "load", "read", "parse", "open", "der", "pem", "pkcs",
];

/// Words of a value's name that say it is derived from the secret.
const DERIVED_NAMES: &[&str] = &[
    "crypted",
    "encrypted",
    "hashed",
    "salted",
    "masked",
    "redacted",
];

/// Text for a peer, not a message: a protocol line (ending in CRLF, or
/// SASL's `\x01`), a command in capitals (`PASS %s`), a credential in
/// its wire form (`Bearer %s`, `Basic %s`, `auth=Bearer %s`), or a
/// `user:password` pair (`%s:%s`, `doveadm:%s`) that becomes an
/// Authorization header.
fn for_a_peer(pattern: &str, t: &Template) -> bool {
    let line_end = pattern.trim_end_matches('\n');
    if line_end.ends_with('\r') || pattern.ends_with('\u{1}') {
        return true;
    }
    let lits: Vec<&str> = t
        .segments
        .iter()
        .filter_map(|seg| match seg {
            Segment::Lit(l) => Some(l.as_str()),
            Segment::Hole(_) => None,
        })
        .collect();
    let words: Vec<&str> = lits.iter().flat_map(|l| l.split_whitespace()).collect();
    let command = (1..=3).contains(&words.len())
        && words
            .iter()
            .all(|w| w.len() >= 3 && w.chars().all(|c| c.is_ascii_uppercase()));
    let scheme = lits.iter().any(|l| {
        let l = l.to_lowercase();
        l.ends_with("bearer ") || l.ends_with("basic ")
    });
    let pair = matches!(t.segments.as_slice(), [.., Segment::Lit(sep), Segment::Hole(_)]
        if sep.ends_with(':') && !sep.trim_end_matches(':').contains(char::is_whitespace));
    command || scheme || pair
}

/// Words that make a `token` a credential rather than a parser's or a
/// lexer's token.
const AUTH_WORDS: &[&str] = &[
    "auth",
    "authn",
    "authz",
    "authenticate",
    "authentication",
    "authorization",
    "authorized",
    "access",
    "bearer",
    "refresh",
    "session",
    "jwt",
    "oauth",
    "oauth2",
    "csrf",
    "login",
    "api",
    "credential",
    "credentials",
    "password",
    "secret",
    "sso",
    "oidc",
    "saml",
];

/// Whether a `token` is a credential: its name, the message or the file
/// says so (`authToken`, `invalid auth token: %s`, `auth/jwt.go`).
fn about_auth(arg: &str, literal: &str, file: &str) -> bool {
    let words = identifier_words(arg)
        .into_iter()
        .chain(identifier_words(literal))
        .chain(identifier_words(file));
    words.into_iter().any(|w| AUTH_WORDS.contains(&w.as_str()))
}

/// Whether a name holds a message (`msg`, `*error_r`, `errstr`, `line`),
/// where a formatted string assigned to it is later printed or raised;
/// text kept under any other name (`unique_root_dir`, `key`, `url`) is
/// data.
fn names_a_message(name: &str) -> bool {
    const MESSAGE_WORDS: &[&str] = &[
        "msg",
        "message",
        "err",
        "error",
        "errmsg",
        "errstr",
        "reason",
        "text",
        "line",
        "output",
        "out",
        "log",
        "warning",
        "desc",
        "description",
        "detail",
        "details",
        "status",
        "str",
        "s",
        "buf",
        "buffer",
        "result",
        "ret",
        "res",
        "response",
    ];
    identifier_words(name)
        .iter()
        .any(|w| MESSAGE_WORDS.contains(&w.as_str()))
}

/// Words that join a value's name to where it came from.
const PREPOSITIONS: &[&str] = &["in", "from", "of", "for", "to", "at", "by", "with"];

/// The secret an argument holds, by its name: the last name of the
/// expression (`cfg.Password`, `authToken`, `api_key`), or a secret
/// header read by name (`r.Header.Get("Authorization")`).
pub(crate) fn secret_in(arg: &str) -> Option<&'static str> {
    let a = arg.trim();
    if a.contains("len(")
        || a.contains(".len()")
        || a.contains(".length")
        || a.contains("==")
        || a.contains("!=")
    {
        return None;
    }
    if let Some(lit) = a.split('"').nth(1) {
        let lit = lit.to_lowercase();
        return SECRET_HEADERS
            .iter()
            .find(|h| **h == lit)
            .map(|_| "secret header");
    }
    const READERS: &[&str] = &[
        "String",
        "Error",
        "Get",
        "Value",
        "str",
        "to_string",
        "ToString",
        "toString",
        "as_str",
        "value",
        "get",
        "unwrap",
        "clone",
        "expose_secret",
        "Reveal",
    ];
    let names: Vec<&str> = a
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
        })
        .collect();
    let last = names.iter().rev().find(|n| !READERS.contains(n))?;
    if last.starts_with("Err") || last.starts_with("err") {
        return None; // an error value named after a secret
    }
    if last.len() > 1 && !last.chars().any(|c| c.is_lowercase()) {
        return None; // a constant: the name of a setting (`OPT_PASSWORD`)
    }
    let mut words = identifier_words(last);
    // `nonce_in_id_token`, `key_for_token`: the value is what comes before
    // the preposition, and the secret only where it came from.
    if let Some(at) = words
        .iter()
        .skip(1)
        .position(|w| PREPOSITIONS.contains(&w.as_str()))
    {
        words.truncate(at + 1);
    }
    // An OpenID Connect ID token states who the user is, for the client
    // to read (its claims); the credentials are the access and refresh
    // tokens.
    if words.len() >= 2 && words[words.len() - 2..] == ["id", "token"] {
        return None;
    }
    let one = words.last()?.as_str();
    let two = words
        .len()
        .checked_sub(2)
        .map(|i| format!("{}{}", words[i], words[i + 1]));
    SECRET_WORDS
        .iter()
        .find(|w| **w == one || two.as_deref() == Some(**w))
        .copied()
}

/// The password field of a password database's entry (`pw->pw_passwd`
/// of `getpwnam`, `sp_pwdp` of `getspnam`, AIX's `upw_passwd`): a crypt
/// hash or a lock marker (`x`, `*`, `!`), never the password itself.
fn password_database_hash(arg: &str) -> bool {
    let name = last_identifier(arg).to_ascii_lowercase();
    name == "sp_pwdp"
        || name
            .strip_suffix("_passwd")
            .is_some_and(|prefix| prefix.ends_with("pw"))
}

/// A dump's own output (`dump_cachemgrpasswd`, `dump_wccp2_service`, a
/// `dump()` method, `DisplayConf()`): it writes the configuration or the
/// recovered entries out on purpose, for whoever asked for them; it is no
/// message or log.
fn in_a_dump(s: &Site) -> bool {
    const SHOW: &[&str] = &["display", "show", "print"];
    const CONFIG: &[&str] = &["conf", "config", "configuration", "settings"];
    s.function.as_deref().map(last_name).is_some_and(|f| {
        let words = identifier_words(f);
        let has = |set: &[&str]| words.iter().any(|w| set.contains(&w.as_str()));
        has(&["dump"]) || (has(SHOW) && has(CONFIG))
    })
}

/// A message that says the value lacks the secret (`oauth_token is
/// missing: %r`, `Response does not contain a token: %s`): it prints what
/// came instead.
fn says_it_is_absent(text: &str) -> bool {
    ["missing", "does not contain", "doesn't contain", "lacks"]
        .iter()
        .any(|w| text.contains(w))
}

/// The last name in an expression (`upw->upw_passwd` → `upw_passwd`).
fn last_identifier(expr: &str) -> &str {
    expr.trim()
        .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
        .find(|w| !w.is_empty())
        .unwrap_or("")
}
