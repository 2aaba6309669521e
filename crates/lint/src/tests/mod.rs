//! Each rule on constructs written for it, in every language where it
//! applies: what must fire, and near misses that must not.

use crate::{lint, Finding, Input};

mod untraceable;

/// Lints a tree made of `files` (path, text) as `errdex lint` does.
fn lint_files(files: &[(&str, &str)]) -> Vec<Finding> {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let mut opts = errdex_extract::Options::new(dir.path(), "2026-01-01T00:00:00.000Z");
    opts.all_levels = true;
    opts.repo = Some("t/t".into());
    let indexed = errdex_extract::index(&opts, &errdex_extract::NoProgress).unwrap();
    let list = errdex_extract::source_files(&opts).unwrap();
    lint(
        &Input {
            root: dir.path(),
            dataset: &indexed.dataset,
            files: &list,
        },
        &[],
    )
}

/// The (file, line) of each finding of `rule`.
fn of(found: &[Finding], rule: &str) -> Vec<(String, u32)> {
    found
        .iter()
        .filter(|f| f.rule == rule)
        .map(|f| (f.file.clone(), f.line))
        .collect()
}

fn at(file: &str, lines: &[u32]) -> Vec<(String, u32)> {
    lines.iter().map(|l| (file.to_string(), *l)).collect()
}

const GO_LOST: &str = r#"package a

import (
	"errors"
	"fmt"
)

func open(path string) error {
	f, err := load(path)
	if err != nil {
		return fmt.Errorf("open settings file %s: %v", path, err)
	}
	if err := f.Check(); err != nil {
		return fmt.Errorf("check settings file %s: %w", path, err)
	}
	if werr := f.Write(); werr != nil {
		return fmt.Errorf("write settings file %s: %s", path, werr.Error())
	}
	return fmt.Errorf("settings file %s has %v entries", path, f.Count())
}

var errOther = errors.New("other settings problem")
"#;

#[test]
fn lost_cause_in_go_is_an_error_formatted_without_w() {
    let found = lint_files(&[("a.go", GO_LOST)]);
    assert_eq!(
        of(&found, "lost-cause"),
        at("a.go", &[11, 17]),
        "{found:#?}"
    );
}

const PYTHON_LOST: &str = r#"import sys

def read(path):
    try:
        return open(path).read()
    except OSError as e:
        raise ConfigError(f"cannot read settings {path}")

def read_linked(path):
    try:
        return open(path).read()
    except OSError as e:
        raise ConfigError(f"cannot read settings {path}") from e

def reraise(path):
    try:
        return open(path).read()
    except OSError:
        raise

def leave(path):
    try:
        return open(path).read()
    except OSError:
        raise SystemExit(2)

def nested(path):
    try:
        return open(path).read()
    except OSError as e:
        def later():
            raise ConfigError("raised later, not here")
        return later
"#;

#[test]
fn lost_cause_in_python_is_a_raise_in_except_without_from() {
    let found = lint_files(&[("a.py", PYTHON_LOST)]);
    assert_eq!(of(&found, "lost-cause"), at("a.py", &[7]), "{found:#?}");
}

const JAVA_LOST: &str = r#"class Settings {
    String read(String path) {
        try {
            return load(path);
        } catch (IOException e) {
            throw new ConfigException("cannot read settings " + path);
        }
    }
    String readLinked(String path) {
        try {
            return load(path);
        } catch (IOException e) {
            throw new ConfigException("cannot read settings " + path, e);
        }
    }
    String again(String path) throws IOException {
        try {
            return load(path);
        } catch (IOException e) {
            throw e;
        }
    }
    String message(String path) {
        try {
            return load(path);
        } catch (IOException e) {
            throw new ConfigException(e.getMessage());
        }
    }
}
"#;

#[test]
fn lost_cause_in_java_is_a_new_exception_in_catch_without_the_caught_one() {
    let found = lint_files(&[("Settings.java", JAVA_LOST)]);
    assert_eq!(
        of(&found, "lost-cause"),
        at("Settings.java", &[6, 27]),
        "{found:#?}"
    );
}

const CSHARP_LOST: &str = r#"class Settings {
    string Read(string path) {
        try { return Load(path); }
        catch (IOException) { throw new ConfigException("cannot read settings " + path); }
    }
    string ReadLinked(string path) {
        try { return Load(path); }
        catch (IOException e) { throw new ConfigException("cannot read settings " + path, e); }
    }
}
"#;

#[test]
fn lost_cause_in_csharp_is_a_new_exception_without_its_inner_one() {
    let found = lint_files(&[("Settings.cs", CSHARP_LOST)]);
    assert_eq!(
        of(&found, "lost-cause"),
        at("Settings.cs", &[4]),
        "{found:#?}"
    );
}

const JS_LOST: &str = r#"function read(path) {
  try {
    return load(path);
  } catch (e) {
    throw new Error(`cannot read settings ${path}`);
  }
}
function readLinked(path) {
  try {
    return load(path);
  } catch (e) {
    throw new Error(`cannot read settings ${path}`, { cause: e });
  }
}
function again(path) {
  try {
    return load(path);
  } catch (e) {
    throw e;
  }
}
"#;

#[test]
fn lost_cause_in_javascript_and_typescript_is_a_new_error_without_cause() {
    let found = lint_files(&[("a.js", JS_LOST), ("b.ts", JS_LOST)]);
    let mut want = at("a.js", &[5]);
    want.extend(at("b.ts", &[5]));
    assert_eq!(of(&found, "lost-cause"), want, "{found:#?}");
}

const PHP_LOST: &str = r#"<?php
function read($path) {
    try {
        return load($path);
    } catch (IOException $e) {
        throw new ConfigException("cannot read settings $path");
    }
}
function readLinked($path) {
    try {
        return load($path);
    } catch (IOException $e) {
        throw new ConfigException("cannot read settings $path", 0, $e);
    }
}
"#;

#[test]
fn lost_cause_in_php_is_a_new_exception_without_previous() {
    let found = lint_files(&[("a.php", PHP_LOST)]);
    assert_eq!(of(&found, "lost-cause"), at("a.php", &[6]), "{found:#?}");
}

const RUST_LOST: &str = r#"fn port(s: &str) -> Result<u16, Error> {
    let n: u16 = s.parse().map_err(|_| Error::BadPort)?;
    let m: u16 = s.parse().map_err(|e| Error::Parse(e))?;
    Ok(n + m)
}
"#;

#[test]
fn lost_cause_in_rust_is_map_err_that_drops_the_source() {
    let found = lint_files(&[("src/lib.rs", RUST_LOST)]);
    assert_eq!(
        of(&found, "lost-cause"),
        at("src/lib.rs", &[2]),
        "{found:#?}"
    );
}

const GO_SWALLOWED: &str = r#"package a

func close(f *File) error {
	if err := f.Close(); err != nil {
	}
	if err := f.Sync(); err != nil {
		// Sync fails on pipes, where there is nothing to flush.
	}
	if err := f.Flush(); err != nil {
		return err
	}
	if n != nil {
	}
	return nil
}
"#;

#[test]
fn swallowed_error_in_go_is_an_empty_err_check() {
    let found = lint_files(&[("a.go", GO_SWALLOWED)]);
    assert_eq!(
        of(&found, "swallowed-error"),
        at("a.go", &[4]),
        "{found:#?}"
    );
}

const PYTHON_SWALLOWED: &str = r#"def clean(tmp):
    try:
        os.remove(tmp)
    except Exception:
        pass
    try:
        import yaml
    except ImportError:
        pass
    try:
        os.remove(tmp)
    except FileNotFoundError:
        pass  # already gone
    try:
        os.remove(tmp)
    except:
        ...
    try:
        return cache[key]
    except KeyError:
        pass
    try:
        os.remove(tmp)
    except OSError as e:
        log.warning("cannot remove %s: %s", tmp, e)
"#;

#[test]
fn swallowed_error_in_python_is_except_pass() {
    let found = lint_files(&[("a.py", PYTHON_SWALLOWED)]);
    assert_eq!(
        of(&found, "swallowed-error"),
        at("a.py", &[4, 16]),
        "{found:#?}"
    );
}

const JAVA_SWALLOWED: &str = r#"class A {
    void close() {
        try { in.close(); } catch (IOException e) {}
        try { in.close(); } catch (IOException ignored) {}
        try { in.close(); } catch (IOException e) {
            // a read-only stream loses nothing
        }
        try { in.close(); } catch (IOException e) { log.warn("close", e); }
    }
}
"#;

#[test]
fn swallowed_error_in_java_is_an_empty_catch() {
    let found = lint_files(&[("A.java", JAVA_SWALLOWED)]);
    assert_eq!(
        of(&found, "swallowed-error"),
        at("A.java", &[3]),
        "{found:#?}"
    );
}

const CSHARP_SWALLOWED: &str = r#"class A {
    void Clean() {
        try { File.Delete(tmp); } catch (IOException) { }
        try { File.Delete(tmp); } catch (IOException e) { /* already gone */ }
        try { File.Delete(tmp); } catch (IOException e) { log.LogWarning(e, "delete"); }
    }
}
"#;

#[test]
fn swallowed_error_in_csharp_is_an_empty_catch() {
    let found = lint_files(&[("A.cs", CSHARP_SWALLOWED)]);
    assert_eq!(
        of(&found, "swallowed-error"),
        at("A.cs", &[3]),
        "{found:#?}"
    );
}

const JS_SWALLOWED: &str = r#"function clean(tmp) {
  try { fs.unlinkSync(tmp); } catch (e) {}
  try { fs.unlinkSync(tmp); } catch (e) { /* already gone */ }
  try { fs.unlinkSync(tmp); } catch (e) { if (e.code !== 'ENOENT') throw e; }
  fetchIt().catch(() => {});
  fetchIt().catch((e) => console.error(e));
}
"#;

#[test]
fn swallowed_error_in_javascript_and_typescript_is_an_empty_catch_or_promise_catch() {
    let found = lint_files(&[("a.js", JS_SWALLOWED), ("b.ts", JS_SWALLOWED)]);
    let mut want = at("a.js", &[2, 5]);
    want.extend(at("b.ts", &[2, 5]));
    assert_eq!(of(&found, "swallowed-error"), want, "{found:#?}");
}

const PHP_SWALLOWED: &str = r#"<?php
function clean($tmp) {
    try { unlink($tmp); } catch (Exception $e) {}
    try { unlink($tmp); } catch (Exception $ignored) {}
    try { unlink($tmp); } catch (Exception $e) { error_log($e->getMessage()); }
}
"#;

#[test]
fn swallowed_error_in_php_is_an_empty_catch() {
    let found = lint_files(&[("a.php", PHP_SWALLOWED)]);
    assert_eq!(
        of(&found, "swallowed-error"),
        at("a.php", &[3]),
        "{found:#?}"
    );
}

const RUBY_SWALLOWED: &str = r#"def clean(tmp)
  File.delete(tmp) rescue nil
  begin
    File.delete(tmp)
  rescue => e
  end
  begin
    File.delete(tmp)
  rescue Errno::ENOENT
    # already gone
  end
  begin
    File.delete(tmp)
  rescue => e
    warn "cannot delete #{tmp}: #{e}"
  end
  begin
    File.delete(tmp)
  rescue Errno::ENOENT
  end
end
"#;

#[test]
fn swallowed_error_in_ruby_is_an_empty_rescue_or_rescue_nil() {
    let found = lint_files(&[("a.rb", RUBY_SWALLOWED)]);
    assert_eq!(
        of(&found, "swallowed-error"),
        at("a.rb", &[2, 5]),
        "{found:#?}"
    );
}

const RUST_SWALLOWED: &str = r#"fn clean(tmp: &Path) {
    if let Err(_) = fs::remove_file(tmp) {}
    match fs::remove_file(tmp) {
        Ok(()) => {}
        Err(_) => {}
    }
    match fs::remove_file(tmp) {
        Ok(()) => {}
        Err(e) => log::warn!("cannot delete: {e}"),
    }
}
"#;

#[test]
fn swallowed_error_in_rust_is_an_empty_err_arm() {
    let found = lint_files(&[("src/lib.rs", RUST_SWALLOWED)]);
    assert_eq!(
        of(&found, "swallowed-error"),
        at("src/lib.rs", &[2, 5]),
        "{found:#?}"
    );
}

const CPP_SWALLOWED: &str = r#"void save_all() {
    try { save(); } catch (...) {}
    try { save(); } catch (...) { throw; }
}
"#;

#[test]
fn swallowed_error_in_cpp_is_an_empty_catch() {
    let found = lint_files(&[("a.cpp", CPP_SWALLOWED)]);
    assert_eq!(
        of(&found, "swallowed-error"),
        at("a.cpp", &[2]),
        "{found:#?}"
    );
}

const GO_STYLE: &str = r#"package a

import (
	"errors"
	"fmt"
	"log"
)

var errCap = errors.New("Invalid port number")
var errDot = errors.New("invalid port number.")
var errAcronym = errors.New("HTTP request to the registry failed")
var errProper = errors.New("Kubernetes API server unreachable")
var errFine = errors.New("invalid port number given")
var errType = errors.New("Checker is not registered for this port")

type Checker interface{}

type writer struct{}

func (w *writer) Truncate(n int64) error {
	return errors.New("Truncate: unsupported size")
}

func f(n int) error {
	log.Fatalf("Cannot start the listener.")
	return fmt.Errorf("Bad listener count %d", n)
}
"#;

#[test]
fn style_in_go_is_st1005_on_error_values_only() {
    let found = lint_files(&[("a.go", GO_STYLE)]);
    assert_eq!(of(&found, "style"), at("a.go", &[9, 10, 26]), "{found:#?}");
}

const RUST_STYLE: &str = r#"#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("Invalid port number")]
    BadPort,
    #[error("invalid host name.")]
    BadHost,
    #[error("invalid user name")]
    BadUser,
}
"#;

#[test]
fn style_in_rust_is_lowercase_without_trailing_punctuation() {
    let found = lint_files(&[("src/lib.rs", RUST_STYLE)]);
    assert_eq!(of(&found, "style"), at("src/lib.rs", &[3, 5]), "{found:#?}");
}

const GO_SECRET: &str = r#"package a

import (
	"fmt"

	"github.com/sirupsen/logrus"
)

func login(user, password, token string, cfg *Config) error {
	logrus.Infof("login attempt for %s with %s", user, password)
	logrus.Errorf("auth rejected for %s: token=%s", user, token)
	if cfg.APIKey == "" {
		return fmt.Errorf("unexpected token %q in the query", token)
	}
	if len(token) < 8 {
		return fmt.Errorf("token of %d bytes is too short, key %s", len(token), cfg.APIKey)
	}
	if cfg.Lexer != nil {
		return fmt.Errorf("plan stage %s cannot take %v", cfg.Stage, cfg.Lexer.Token)
	}
	if cfg.Auth {
		return fmt.Errorf("registry answered: %w", ErrInvalidAuthorization)
	}
	return fmt.Errorf("secret %s not found in namespace %s", cfg.SecretName, cfg.Namespace)
}
"#;

#[test]
fn leaks_secret_in_go_is_a_hole_filled_by_a_secret() {
    let found = lint_files(&[("a.go", GO_SECRET)]);
    assert_eq!(
        of(&found, "leaks-secret"),
        at("a.go", &[10, 11, 16]),
        "{found:#?}"
    );
}

const PYTHON_SECRET: &str = r#"import logging
logger = logging.getLogger(__name__)

def auth(user, token, password_file):
    logger.error(f"auth failed for {user}, token={token}")
    raise ValueError(f"cannot read the password file {password_file}")
"#;

#[test]
fn leaks_secret_leaves_out_settings_digests_and_protocol_lines() {
    let c = r#"#include <stdio.h>
void f(const char *passwd, const char *authorization, int STRING_SSH_PRIVATE_KEY, const char *credentials) {
    fprintf(stderr, "smtp auth cram-md5 response \"%s\"\n", passwd);
    fprintf(stderr, "cannot read the key file option %d\n", STRING_SSH_PRIVATE_KEY);
    fprintf(stderr, "Authorization: Basic %s\r\n", authorization);
    fprintf(stderr, "login refused for password %s\n", passwd);
    fprintf(stderr, "ntlm authentication for %s failed\n", credentials);
}
"#;
    let found = lint_files(&[("a.c", c)]);
    assert_eq!(of(&found, "leaks-secret"), at("a.c", &[6]), "{found:#?}");
}

#[test]
fn leaks_secret_leaves_out_credentials_in_their_wire_form_and_hashes() {
    let c = r#"#include <stdio.h>
char *t_strdup_printf(const char *format, ...) __attribute__((format(printf, 1, 2)));
void str_printfa(struct str *s, const char *format, ...) __attribute__((format(printf, 2, 3)));
void buf_printf(struct buffer *b, const char *format, ...) __attribute__((format(printf, 2, 3)));
void f(struct client *c, const char *crypted_password, const char *password) {
    send_line(c, t_strdup_printf("PASS %s\r\n", c->proxy_password));
    str_printfa(c->out, "auth=Bearer %s\x01", c->password);
    header = t_strdup_printf("Bearer %s", c->token_secret);
    buf_printf(&c->out, "%s:%s", c->username, c->password);
    value = t_strdup_printf("doveadm:%s", c->doveadm_password);
    fprintf(stderr, "password mismatch for %s: '%s'\n", c->user, crypted_password);
    fprintf(stderr, "password mismatch: %s != stored\n", password);
    o_stream_nsend_str(c->output, t_strdup_printf(
        "PASS %s\r\n", c->proxy_password));
    fprintf(stderr, "BAD PASSWORD: %s\n", password);
    fprintf(stderr, "TLS: Failed to load private key '%s'\n", c->private_key);
    fprintf(stderr, "TLS: using private key %s\n", c->private_key);
}
"#;
    let found = lint_files(&[("a.c", c)]);
    assert_eq!(
        of(&found, "leaks-secret"),
        at("a.c", &[12, 15, 17]),
        "{found:#?}"
    );
}

#[test]
fn leaks_secret_leaves_out_dumps_password_database_hashes_and_input_tokens() {
    let c = r#"#include <stdio.h>
#include <string.h>
void storeAppendPrintf(struct entry *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void dump_cachemgrpasswd(struct entry *e, const char *name, struct list *l) {
    storeAppendPrintf(e, "%s %s", name, l->passwd);
}
static void DisplayConf(struct conf *c) {
    printf("\tBinding Password: %s\n", c->passwd);
}
char *p_strdup_printf(struct pool *p, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void settings_key(struct storage *st, const char **error_r) {
    st->unique_root_dir = p_strdup_printf(st->pool, "%s://%s:%s@%s", st->scheme, st->user, st->password, st->host);
    *error_r = p_strdup_printf(st->pool, "login %s with password %s failed", st->user, st->password);
}
static int check_user(struct passwd *pw, struct spwd *sp, struct userpw *upw, const char *password) {
    fprintf(stderr, "invalid password field '%s'\n", pw->pw_passwd);
    fprintf(stderr, "shadow entry for %s is '%s'\n", pw->pw_name, sp->sp_pwdp);
    fprintf(stderr, "pw mismatch: %s != %s\n", password, upw->upw_passwd);
    return 0;
}
static void check_rdn(char *dn, const char *auth_token) {
    char *token = strtok(dn, ",=");
    while (token != NULL) {
        fprintf(stderr, "ppm: checking if the %s part of the RDN matches the auth password\n", token);
        token = strtok(NULL, ",=");
    }
    fprintf(stderr, "auth: rejected session token %s\n", auth_token);
}
"#;
    let python = r#"class Vault:
    def dump(self):
        print('Password        : %s' % (self.password))

def login(user, password):
    print('login failed for %s with password %s' % (user, password))

def claims(credentials, log):
    log.error('Invalid id_token {0}'.format(credentials.id_token))

def check(nonce, result, token, password_for_user):
    nonce_in_id_token = result.get("nonce")
    if nonce != nonce_in_id_token:
        raise ValueError('The nonce in id token ("%s") should match ("%s")' % (nonce_in_id_token, nonce))
    if 'oauth_token' not in token:
        raise ValueError(f'oauth_token is missing: {token!r}')
    raise ValueError(f'refused {password_for_user}')
"#;
    let found = lint_files(&[("a.c", c), ("vault.py", python)]);
    let mut want = at("a.c", &[13, 18, 27]);
    want.extend(at("vault.py", &[6, 17]));
    assert_eq!(of(&found, "leaks-secret"), want, "{found:#?}");
}

const JS_SECRET: &str = r#"function check(apiKey, keyId) {
  throw new Error(`bad api key ${apiKey}`);
}
function check2(apiKey, keyId) {
  throw new Error(`bad api key with id ${keyId}`);
}
"#;

#[test]
fn leaks_secret_in_python_and_javascript() {
    let found = lint_files(&[("a.py", PYTHON_SECRET), ("b.js", JS_SECRET)]);
    let mut want = at("a.py", &[5]);
    want.extend(at("b.js", &[2]));
    assert_eq!(of(&found, "leaks-secret"), want, "{found:#?}");
}

#[test]
fn ambiguous_message_lists_the_other_sites_and_ignores_platform_copies() {
    let config = "package a\n\nimport \"fmt\"\n\nfunc loadConfig() error {\n\treturn fmt.Errorf(\"read the file failed: %w\", err)\n}\n";
    let cache = "package a\n\nimport \"fmt\"\n\nfunc loadCache() error {\n\treturn fmt.Errorf(\"read the file failed: %w\", err)\n}\n";
    let linux = "package a\n\nimport \"fmt\"\n\nfunc mount() error {\n\treturn fmt.Errorf(\"mount table unavailable: %w\", err)\n}\n";
    let found = lint_files(&[
        ("config.go", config),
        ("cache.go", cache),
        ("mount_linux.go", linux),
        ("mount_windows.go", linux),
        (
            "p.py",
            "def a():\n    raise ValueError('bad value given')\n\ndef b():\n    raise ValueError('bad value given')\n",
        ),
        (
            "q.py",
            "def a():\n    raise PermissionDenied\n\ndef b():\n    raise PermissionDenied()\n",
        ),
    ]);
    let mut want = at("cache.go", &[6]);
    want.extend(at("config.go", &[6]));
    want.extend(at("p.py", &[2, 5]));
    assert_eq!(of(&found, "ambiguous-message"), want, "{found:#?}");
    let f = found
        .iter()
        .find(|f| f.rule == "ambiguous-message" && f.file == "config.go")
        .unwrap();
    assert_eq!(f.related.len(), 1);
    assert_eq!(
        (f.related[0].file.as_str(), f.related[0].line),
        ("cache.go", 6)
    );
    assert!(f.message.contains("config"), "{}", f.message);
}

#[test]
fn odd_text_in_messages_never_panics() {
    let c = "#include <stdio.h>\nvoid f(const char *a, const char *b) {\n    fprintf(stderr, \"%s\\n\" /* méthode… */ \"%s…\", a, b);\n    fprintf(stderr, a);\n}\n";
    let py = "def f(a):\n    raise ValueError('… ' + a + '…')\n";
    // A long format of literals and comments, whose expression the index
    // cuts with `…`.
    let parts: String = (0..12)
        .map(|i| format!("        \"%s\\n\" /* Part{i} */\n"))
        .collect();
    let long = format!(
        "char *aprintf(const char *f, ...);\nvoid g(const char *a) {{\n    char *s = aprintf(\n{parts}        , a, a, a, a, a, a, a, a, a, a, a, a);\n}}\n"
    );
    lint_files(&[
        ("a.c", c),
        ("d.c", long.as_str()),
        ("a.py", py),
        ("b.js", "throw new Error(`${a}…`);\n"),
    ]);
}

#[test]
fn duplicate_sentinel_is_one_text_declared_in_two_packages() {
    let store =
        "package store\n\nimport \"errors\"\n\nvar ErrNotFound = errors.New(\"not found\")\n";
    let cache = "package cache\n\nimport \"errors\"\n\nvar ErrMissing = errors.New(\"not found\")\nvar ErrFull = errors.New(\"cache is full\")\n";
    let one = "package one\n\nimport \"errors\"\n\nvar ErrFull = errors.New(\"queue is full\")\n";
    let found = lint_files(&[
        ("store/errors.go", store),
        ("cache/errors.go", cache),
        ("one/errors.go", one),
    ]);
    let mut want = at("cache/errors.go", &[5]);
    want.extend(at("store/errors.go", &[5]));
    assert_eq!(of(&found, "duplicate-sentinel"), want, "{found:#?}");
}

#[test]
fn generated_files_have_no_findings() {
    let gen = format!("// Code generated by protoc-gen-go. DO NOT EDIT.\n\n{GO_LOST}");
    let found = lint_files(&[("a.pb.go", gen.as_str())]);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn fingerprints_stay_when_lines_move_and_tell_equal_findings_apart() {
    let before = lint_files(&[("a.go", GO_SWALLOWED)]);
    let moved = format!("// a comment\n// and another\n{GO_SWALLOWED}");
    let after = lint_files(&[("a.go", moved.as_str())]);
    assert_eq!(before.len(), after.len());
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(b.fingerprint, a.fingerprint);
        assert_eq!(a.line, b.line + 2);
    }
    let twice = "package a\n\nfunc f() {\n\tif err := a(); err != nil {\n\t}\n\tif err := a(); err != nil {\n\t}\n}\n";
    let found = lint_files(&[("b.go", twice)]);
    assert_eq!(found.len(), 2);
    assert_ne!(found[0].fingerprint, found[1].fingerprint);
}

#[test]
fn every_rule_has_a_paragraph_and_an_example_per_language_it_reads() {
    for r in crate::RULES {
        assert!(r.explanation.len() > 200, "{}", r.id);
        for lang in r.languages {
            if lang.starts_with("every") {
                assert!(r.examples.len() >= 3, "{}", r.id);
                continue;
            }
            assert!(
                r.examples
                    .iter()
                    .any(|e| e.lang == *lang || (*lang == "TypeScript" && e.lang == "JavaScript")),
                "{} has no {lang} example",
                r.id
            );
        }
    }
}
