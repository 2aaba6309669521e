//! Tests of the C reader.

use super::*;
use crate::test_support::{all_level_patterns_of, pattern_column};

#[test]
fn a_message_formatted_into_a_buffer_named_for_one_is_a_message() {
    let s = crate::test_support::patterns_of(
        "src/rdb.c",
        r#"
void rdbReportError(int linenum, char *reason, ...) {
    char msg[1024];
    int len = snprintf(msg, sizeof(msg),
        "Internal error in RDB reading offset %llu, function at rdb.c:%d -> ",
        (unsigned long long)loaded, linenum);
    msnprintf(backend->error_buffer, sizeof(backend->error_buffer),
              "SSL certificate problem: %s", X509_verify_cert_error_string(lerr));
    snprintf(path, sizeof(path), "%s/%s.rdb", dir, name);
    snprintf(buf, sizeof(buf), "not a message %d", n);
    serverLog(LL_WARNING, "%s", msg);
}
"#,
    );
    assert_eq!(
        pattern_column(&s),
        [
            "Internal error in RDB reading offset %llu, function at rdb.c:%d -> ",
            "SSL certificate problem: %s"
        ]
    );
}

#[test]
fn a_buffer_the_function_prints_as_an_error_holds_a_message() {
    let s = crate::test_support::patterns_of(
        "src/glob.c",
        r#"
int glob_url(struct glob *g, const char *url, FILE *error) {
    char text[512];
    const char *t;
    if (g->pos) {
        msnprintf(text, sizeof(text), "%s in list position %zu:", g->error, g->pos);
        t = text;
    }
    else
        t = g->error;
    fprintf(error, "tool: (%d) %s\n", 3, t);
    char line[128];
    snprintf(line, sizeof(line), "key = %s", value);
    fputs(line, config_file);
    char label[64];
    snprintf(label, sizeof(label), "worker %d crashed", n);
    log_error(label);
    return 3;
}
"#,
    );
    assert_eq!(
        pattern_column(&s),
        [
            "%s in list position %zu:",
            "tool: (%d) %s",
            "worker %d crashed"
        ]
    );
}

#[test]
fn an_error_code_written_ahead_of_a_message_is_one_reply_with_it() {
    let s = crate::test_support::patterns_of(
        "src/net.c",
        r#"
void replyError(client *c, const char *s, size_t len) {
    if (!len || s[0] != '-') addProto(c,"-ERR ",5);
    addProto(c,s,len);
    addProto(c,"\r\n",2);
}
void replyOther(client *c, const char *s) {
    addProto(c,"-NOTACODE",9);
    addProto(c,s,strlen(s));
    addProto(c,"-BUSY ",6);
    addProto(other,s,strlen(s));
    addProto(c,"-LOADING ",9);
    addProto(c,"static text",11);
}
"#,
    );
    assert_eq!(pattern_column(&s), ["ERR %v"]);
}

#[test]
fn a_macro_that_keeps_its_argument_as_the_error_is_a_message_function() {
    let s = all_level_patterns_of(
        "src/glob.c",
        r#"
#define GLOBERROR(string, column, code) \
  glob->error = string, glob->pos = column, code
#define SETPOS(string, column) glob->pos = column, glob->name = string

static int glob_range(struct glob *glob, size_t *posp) {
    if (bad)
        return GLOBERROR("bad range specification", *posp, 3);
    SETPOS("not a message at all", 4);
    return 0;
}
"#,
    );
    assert_eq!(pattern_column(&s), ["bad range specification"]);
}

#[test]
fn a_format_written_on_at_the_end_of_the_buffer_continues_the_message() {
    let s = crate::test_support::patterns_of(
        "src/report.c",
        r#"
void reportFailure(int line, const char *reason, ...) {
    va_list ap;
    char errmsg[512];
    int len = snprintf(errmsg, sizeof(errmsg), "failure at line %d: ", line);
    va_start(ap, reason);
    vsnprintf(errmsg + len, sizeof(errmsg) - len, reason, ap);
    va_end(ap);
    len = snprintf(msg, sizeof(msg), "cannot load %s", name);
    sprintf(msg + len, " (%d retries)", tries);
    snprintf(msg, sizeof(msg), "stands alone %d", n);
    snprintf(other, sizeof(other), "x");
    serverLog(LL_WARNING, "%s", errmsg);
}
"#,
    );
    assert_eq!(
        pattern_column(&s),
        [
            "failure at line %d: %v",
            "cannot load %s (%d retries)",
            "stands alone %d"
        ]
    );
}

#[test]
fn a_text_returned_where_success_returns_null_is_a_message() {
    let s = crate::test_support::patterns_of(
        "src/core/nginx.c",
        r#"
static char *
ngx_set_worker_processes(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    if (ccf->worker_processes == NGX_ERROR) {
        return "invalid value";
    }
    return NGX_CONF_OK;
}
static const char *state_name(int s)
{
    if (s) {
        return "running";
    }
    return "stopped";
}
"#,
    );
    assert_eq!(pattern_column(&s), ["invalid value"]);
}

#[test]
fn an_error_reply_of_a_line_protocol_is_a_message_without_its_framing() {
    let s = crate::test_support::patterns_of(
        "src/server.c",
        r#"
void createSharedObjects(void) {
    shared.wrongtypeerr = createObject(OBJ_STRING,sdsnew(
        "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"));
    shared.err = createObject(OBJ_STRING,sdsnew("-ERR\r\n"));
    shared.crlf = createObject(OBJ_STRING,sdsnew("\r\n"));
    addReplyProto(c, "-ERR bad %s\r\n", 9);
    puts("- not a reply\r\n");
}
"#,
    );
    assert_eq!(
        pattern_column(&s),
        ["WRONGTYPE Operation against a key holding the wrong kind of value"]
    );
}

#[test]
fn a_log_format_held_as_data_is_a_template() {
    let s = all_level_patterns_of(
        "src/http/modules/ngx_http_log_module.c",
        r#"
static ngx_str_t  ngx_http_combined_fmt =
    ngx_string("$remote_addr - $remote_user [$time_local] "
               "\"$request\" $status");
static const char *access_format = "${host} %(status)s";
static const char *greeting = "$a and $b";
static const char *one_fmt = "only $one here";
"#,
    );
    assert_eq!(pattern_column(&s), ["%v - %v [%v] \"%v\" %v", "%v %v"]);
    assert_eq!(
        s[0].2,
        [
            "remote_addr",
            "remote_user",
            "time_local",
            "request",
            "status"
        ]
    );
}

#[test]
fn a_level_named_function_of_a_message_parameter_makes_its_calls_sites() {
    let s = all_level_patterns_of(
        "src/networking.c",
        r#"
void addReplyError(client *c, const char *err) {
    addReplyErrorLength(c, err, strlen(err));
}
void addReplyErrorObject(client *c, robj *err) {
    addReply(c, err);
}
void setName(client *c, const char *name) {
    c->name = name;
}
void get(client *c) {
    addReplyError(c, "value is not an integer or out of range");
    setName(c, "error-free name");
}
"#,
    );
    assert_eq!(
        pattern_column(&s),
        ["value is not an integer or out of range"]
    );
}

#[test]
fn text_then_a_value_written_to_one_stream_is_one_line() {
    let s = all_level_patterns_of(
        "src/msgs.c",
        r#"
void show(FILE *errors, const char *reason, const char *name)
{
  fprintf(stderr, "Could not connect to tool at ");
  if (name == NULL) {
    fprintf(stderr, "%s:%d: %s\n", host, port, reason);
  } else {
    fprintf(stderr, "%s: %s\n", name, reason);
  }
  fputs("tool: ", errors);
  /* the reason follows */
  fputs(reason, errors);
  fputs("usage: tool FILE", stderr);
  fputs("\n", stderr);
  fputs("warning: ", stderr);
  fputs(name, errors);
}
"#,
    );
    assert_eq!(
        pattern_column(&s),
        [
            "Could not connect to tool at %v",
            "%s:%d: %s",
            "%s: %s",
            "tool: %v",
            "usage: tool FILE",
            "warning: "
        ]
    );
}

#[test]
fn a_printf_named_function_prints_at_its_streams_level() {
    let s = all_level_patterns_of(
        "src/tool_msgs.c",
        r#"
void helpf(FILE *errors, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fputs("curl: ", errors);
  vfprintf(errors, fmt, ap);
  va_end(ap);
}
void notef(struct cfg *c, const char *fmt, ...)
{
  vsnprintf(c->buf, sizeof(c->buf), fmt, ap);
}
int parse(const char *opt, const char *reason)
{
  helpf(global->errors, "option %s: %s\n", opt, reason);
  notef(global, "noted %s here", opt);
  return 1;
}
"#,
    );
    // The prefix and the format written after it make one line.
    assert_eq!(pattern_column(&s), ["curl: %v", "option %s: %s"]);
    assert_eq!(s[1].0, "helpf");
}
use crate::{language_for_path, resolve_package, ExtractOptions};

fn sites(src: &str) -> Vec<(String, String, String, Vec<String>)> {
    let c = language_for_path("src/app.c").unwrap();
    let mut files = vec![c.extract("src/app.c", src, &ExtractOptions::default())];
    crate::apply_wrappers(&mut files, false);
    let (sites, _) = resolve_package(files);
    sites
        .into_iter()
        .map(|s| {
            (
                s.callee,
                s.message_pattern,
                s.severity.as_str().to_string(),
                s.args,
            )
        })
        .collect()
}

#[test]
fn aliases_and_adjacent_literals_in_macros() {
    let s = sites(
        r#"
void Curl_failf(struct Curl_easy *, const char *fmt, ...);
#define failf Curl_failf
#define CA_MSG                                  \
  "More details here: https://x/sslcerts\n\n" \
  "curl failed to verify\n"
void connect_it(struct Curl_easy *data, int port) {
    failf(data, "Failed to connect to port %d", port);
    fputs(CA_MSG, stderr);
}
"#,
    );
    assert_eq!(
        pattern_column(&s),
        vec![
            "More details here: https://x/sslcerts\n\ncurl failed to verify",
            "Failed to connect to port %d"
        ]
    );
}

#[test]
fn messages_kept_in_variables_and_tables_are_sites() {
    let s = sites(
        r#"
const char *curl_easy_strerror(CURLcode error) {
    switch(error) {
    case CURLE_OK:
        return "No error";
    case CURLE_COULDNT_CONNECT:
        return "Couldn't connect to server";
    case CURLE_TIMEOUT:
        return "Connection timed out";
    default:
        break;
    }
    return "Unknown error";
}
static char *parse(ngx_url_t *u, char **err, int n) {
    if (n > 65535) {
        u->err = "invalid port";
        return NULL;
    }
    *err = "BIO_new_file() failed";
    path = "/etc/x";
    *error_msg = sdsnew(
        "Overcommit must be enabled! "
#if defined(USE_JEMALLOC)
        "Being disabled, it fails. "
#endif
        "To fix this, set it.");
    name = strdup("not a message");
    return NULL;
}
int count(int x) {
    switch (x) { case 1: return 2; }
    return 0;
}
"#,
    );
    assert_eq!(
        pattern_column(&s),
        vec![
            "No error",
            "Couldn't connect to server",
            "invalid port",
            "BIO_new_file() failed",
            "Overcommit must be enabled! Being disabled, it fails. To fix this, set it."
        ]
    );
}

#[test]
fn a_logger_macro_takes_its_level_from_the_call() {
    let s = sites(
        r#"
void _serverLog(int level, const char *fmt, ...);
#define serverLog(level, ...) do {\
        if (((level)&0xff) < server.verbosity) break;\
        _serverLog(level, __VA_ARGS__);\
    } while(0)
void listen(int port) {
    serverLog(LL_WARNING, "Failed listening on port %u (TCP), aborting.", port);
    serverLog(LL_NOTICE, "Ready to accept connections");
    serverLog(LL_DEBUG, "tick");
}
"#,
    );
    let got: Vec<(&str, &str)> = s.iter().map(|s| (s.1.as_str(), s.2.as_str())).collect();
    assert_eq!(
        got,
        [("Failed listening on port %u (TCP), aborting.", "warning")]
    );
}

#[test]
fn nginx_verbs_become_printf_verbs() {
    assert_eq!(
        nginx_format("%V %ui %uz %O %T %M %xi %08Xd %*s %.3f %p %d%% %N%Z"),
        "%s %d %d %d %d %d %x %08X %*s %.3f %p %d%% \n"
    );
}

#[test]
fn values_taken_counts_stars_not_percent() {
    assert_eq!(values_taken("%d %*s %% %m %.*s %lu"), 6);
}

#[test]
fn levels_take_the_most_severe() {
    assert_eq!(level_of("LOG_ERR|LOG_DAEMON"), Some(Severity::Error));
    assert_eq!(
        level_of("c ? NGX_LOG_INFO : NGX_LOG_CRIT"),
        Some(Severity::Critical)
    );
    assert_eq!(level_of("DEBUG2"), Some(Severity::Debug));
    assert_eq!(level_of("level"), None);
}

#[test]
fn a_level_variable_takes_its_assignments() {
    let s = sites(
        r#"
void f(ngx_err_t err) {
    ngx_uint_t level;
    level = (err == NGX_EINTR) ? NGX_LOG_INFO : NGX_LOG_ALERT;
    ngx_log_error(level, log, err, "select() failed");
}
"#,
    );
    assert_eq!(s[0].1, "select() failed (%d: %v)");
    assert_eq!(s[0].2, "critical");
}

#[test]
fn nginx_ssl_errors_end_with_the_openssl_queue_then_the_errno() {
    let s = sites(
        r#"
void f(ngx_ssl_t *ssl, ngx_str_t *cert, char *err) {
    ngx_ssl_error(NGX_LOG_EMERG, ssl->log, 0, "cannot load certificate \"%s\": %s", cert->data, err);
    ngx_ssl_error(NGX_LOG_ALERT, c->log, ngx_errno, "SSL_shutdown() failed");
}
"#,
    );
    assert_eq!(s[0].1, "cannot load certificate \"%s\": %s (SSL:%v)");
    assert_eq!(s[1].1, "SSL_shutdown() failed (SSL:%v) (%d: %v)");
}

#[test]
fn openssh_do_log2_takes_its_level_argument() {
    let s = sites(
        r#"
static struct addrinfo *resolve_host(const char *name, int logerr) {
    LogLevel loglevel = SYSLOG_LEVEL_DEBUG1;
    if (logerr)
        loglevel = SYSLOG_LEVEL_ERROR;
    do_log2(loglevel, "%s: Could not resolve hostname %.100s: %s",
        __progname, name, ssh_gai_strerror(gaierr));
    do_log2(SYSLOG_LEVEL_INFO, "quiet at error level");
    do_log2_fr(r, SYSLOG_LEVEL_FATAL, "load %s", path);
    return NULL;
}
"#,
    );
    let got: Vec<(&str, &str)> = s.iter().map(|x| (x.1.as_str(), x.2.as_str())).collect();
    assert_eq!(
        got,
        vec![
            ("%s: Could not resolve hostname %.100s: %s", "error"),
            ("resolve_host: load %s: %v", "critical"),
        ]
    );
    assert_eq!(s[1].3, vec!["path", "ssh_err(r)"]);
}

#[test]
fn stderr_perror_err_and_pri_macros() {
    let s = sites(
        r#"
#define PROG "tool"
int f(const char *path, uint64_t n) {
    fprintf(stderr, PROG ": cannot read %s (%" PRIu64 " bytes)\n", path, n);
    perror("open");
    err(1, "open %s", path);
    warnx("odd size %zu", n);
    fprintf(stdout, "not an error\n");
    fprintf(global->errors, "curl: (%d) %s\n", result, msg);
    fputs("try --help\n", cfg->errors);
    abort();
}
"#,
    );
    let got = pattern_column(&s);
    assert_eq!(
        got,
        vec![
            "tool: cannot read %s (%u bytes)",
            "open: %v",
            "open %s: %v",
            "odd size %zu",
            "curl: (%d) %s",
            "try --help",
        ]
    );
    assert_eq!(s[2].2, "critical");
    assert_eq!(s[2].3, vec!["path", "strerror(errno)"]);
}

#[test]
fn a_macro_that_ends_a_conversion_is_an_integer_hole() {
    let s = sites(
        r#"
int f(long ms, long n) {
    fprintf(stderr, "took %" MY_FORMAT_TIME " ms, %-8" MY_OFF_T " bytes: %s\n", ms, n, why);
    fprintf(stderr, "100%%" MY_SUFFIX "\n");
}
"#,
    );
    let got = pattern_column(&s);
    assert_eq!(got[0], "took %d ms, %-8d bytes: %s");
    assert_eq!(s[0].3, vec!["ms", "n", "why"]);
    // An escaped percent leaves the macro a constant to resolve.
    assert!(!got[1].contains("%d"), "{:?}", got[1]);
}

/// Extracts the C corpora (`ERRDEX_C_SAMPLE=N` prints N sites at
/// random for reading by hand, `ERRDEX_C_FILE=path` one file's sites,
/// `ERRDEX_C_ALL=1` every level).
#[test]
#[ignore]
fn corpora() {
    let opts = ExtractOptions {
        all_levels: std::env::var_os("ERRDEX_C_ALL").is_some(),
        whole_file: true,
        ..Default::default()
    };
    for name in ["openssh", "nginx"] {
        let root = format!("/var/tmp/errdex-corpora/debsrc/{name}");
        let files = crate::test_support::files_under(&[&root], &[".c", ".h"]);
        crate::test_support::run(name, &files, &opts, false);
    }
}

#[test]
fn text_under_if_0_is_never_printed() {
    let s = all_level_patterns_of(
        "src/auth.c",
        r#"
void plugin_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void check(const char *user, const char *pass) {
#if 0
    plugin_log(1, "BACKGROUND: USER/PASS: %s/%s", user, pass);
    fprintf(stderr, "old check failed for %s\n", user);
#else
    plugin_log(1, "BACKGROUND: USER: %s", user);
#endif
#if 1
    fprintf(stderr, "check failed for %s\n", user);
#endif
}
"#,
    );
    assert_eq!(
        pattern_column(&s),
        ["check failed for %s", "BACKGROUND: USER: %s"]
    );
}

#[test]
fn a_password_prompt_is_text_the_terminal_shows() {
    let s = crate::test_support::patterns_of(
        "src/tool_paramhlp.c",
        r#"
static void checkpasswd(const char *kind, const char **userpwd, int i, int last) {
    char passwd[2048] = "";
    char prompt[256];
    if(!i && last)
      curlx_msnprintf(prompt, sizeof(prompt),
                      "Enter %s password for user '%s':",
                      kind, *userpwd);
    getpass_r(prompt, passwd, sizeof(passwd));
    char label[64];
    snprintf(label, sizeof(label), "user %s", *userpwd);
    store(label);
    char *pem = getpass("Enter PEM pass phrase:");
}
"#,
    );
    assert_eq!(
        pattern_column(&s),
        ["Enter %s password for user '%s':", "Enter PEM pass phrase:"]
    );
}

#[test]
fn text_of_test_builds_is_never_printed_to_users() {
    let s = all_level_patterns_of(
        "src/netrc.c",
        r#"
void check(const char *user, const char *pass) {
#ifdef TESTING
    fprintf(stderr, "test netrc: %s/%s\n", user, pass);
#else
    fprintf(stderr, "netrc: no entry for %s\n", user);
#endif
#if defined DEBUG_MALLOC || defined TESTING
    fprintf(stderr, "leak check for %s\n", user);
#endif
#if defined(UNIT_TEST)
    fprintf(stderr, "unit: %s\n", user);
#endif
#ifndef TESTING
    fprintf(stderr, "netrc: parsed for %s\n", user);
#endif
#ifdef NO_TESTS
    fprintf(stderr, "netrc: built without tests for %s\n", user);
#endif
#if defined(TESTING) || defined(HAVE_SSL)
    fprintf(stderr, "netrc: ssl for %s\n", user);
#endif
}
"#,
    );
    assert_eq!(
        pattern_column(&s),
        [
            "netrc: no entry for %s",
            "netrc: parsed for %s",
            "netrc: built without tests for %s",
            "netrc: ssl for %s",
        ]
    );
}

#[test]
fn the_program_name_in_the_file_that_holds_main_is_its_file_name() {
    let program = r#"
static void load(const char *path) {
	fprintf(stderr, "%s: %s: %s\n", __progname, path, strerror(errno));
	fprintf(stderr, "%s: cannot read %s\n", getprogname(), path);
}
int
main(int argc, char **argv) { return 0; }
"#;
    let s = crate::test_support::patterns_of("tools/key-gen.c", program);
    assert_eq!(
        pattern_column(&s),
        ["key-gen: %s: %s", "key-gen: cannot read %s"]
    );
    // In a file without `main`, shared by programs, it is a value.
    let library = program.replace("main(int argc", "helper(int argc");
    let s = crate::test_support::patterns_of("tools/log.c", &library);
    assert_eq!(pattern_column(&s), ["%s: %s: %s", "%s: cannot read %s"]);
}
