use super::ruby::ruby_message;
use super::*;

fn roles(block: &str) -> Vec<(Role, String, Vec<String>)> {
    let lines: Vec<&str> = block.lines().collect();
    read(&lines)
        .into_iter()
        .zip(&lines)
        .map(|(s, l)| (s.role, l[s.start..].to_string(), s.hints.files))
        .collect()
}

#[test]
fn node_location_lines_end_in_a_script_and_its_line() {
    let loc = |t: &str| node_location_line(t).map(|(_, l)| l);
    assert_eq!(loc("/app/server.js:10"), Some(10));
    assert_eq!(loc("src/index.tsx:+7"), Some(7));
    for t in [
        "window 392545",
        "a.js:1x2",
        "ratio 3:2",
        "x.js:",
        "x.js:++2",
        "my app.js:3",
        "main.go:12",
    ] {
        assert_eq!(loc(t), None, "{t}");
    }
}

#[test]
fn plain_lines_are_those_no_reading_finds_anything_in() {
    // `plain` is a shortcut past the readings of `read_into`: a line it
    // calls plain must be one that each of them passes over.
    let lines = [
        "failed to open /var/lib/x: permission denied",
        "one or more Instructions must be specified",
        "duration: 67365: seconds out of range",
        "proto: bad default int64 \"x\"",
        "etcdserver: request timed out",
        "grpc: [transport] closing",
        "x.go:12: bad",
        "SystemExit: 1",
        "io.EOF: x",
        "StopIteration: x",
        "pkg: x.rb:3:in `m': msg",
        "/gems/rack/utils.rb:633:in `status_code': bad (ArgumentError)",
        "x.rb:3:in 'M.m': msg",
        "TypeError [ERR_INVALID_ARG_TYPE]: bad arg",
        "ValueError: bad value",
        "InsecureRequestWarning: Unverified HTTPS request",
        "Error: boom",
        "Caused by: java.io.IOException: x",
        "Exception in thread \"main\" java.lang.Error: x",
        "Unhandled exception. System.Exception: x",
        "---> System.Exception: inner",
        "Uncaught Error: x",
        "/app/server.js:10",
        "server.js:10",
        "window 392545",
        "at Object.<anonymous> (/app/x.js:1:1)",
        "  at C.m(C.java:3)",
        "\tfrom x.rb:1:in `m'",
        "StopIteration",
        "a:b c",
        "key=value other=1",
        "#0 /x.php(3): f()",
        "thread 'main' panicked at src/main.rs:2:5:",
        "",
        " ",
        "é accent first",
    ];
    let mut plain_seen = 0;
    for line in lines {
        if !plain(line) {
            continue;
        }
        plain_seen += 1;
        assert_eq!(trim_start(line), line, "{line:?}");
        assert!(!may_be_marker(line), "{line:?}");
        assert!(ruby_message(line).is_none(), "{line:?}");
        assert!(node_location_line(line).is_none(), "{line:?}");
        assert!(exception_line(line).is_none(), "{line:?}");
        let read = read(&[line]);
        assert_eq!(read, vec![StackLine::message(0, None)], "{line:?}");
    }
    // The common lines take the shortcut; the marked ones do not.
    assert!(plain("failed to open /var/lib/x: permission denied"));
    assert!(plain("window 392545"));
    assert!(!plain("ValueError: bad value"));
    assert!(!plain("InsecureRequestWarning: Unverified HTTPS request"));
    assert!(exception_line("Warning: Identity file x not accessible").is_none());
    assert!(plain("proto: bad default int64 \"x\""));
    assert!(plain("duration: 67365: seconds out of range"));
    assert!(!plain("Error: boom"));
    assert!(!plain("java.io.IOException: x"));
    assert!(!plain("a:b c"));
    assert!(!plain("x.rb:3:in 'M.m': msg"));
    assert!(!plain("TypeError [ERR_INVALID_ARG_TYPE]: bad arg"));
    assert!(!plain("server.js:10"));
    assert!(!plain("Caused by: java.io.IOException: x"));
    assert!(plain_seen >= 4);
}

#[test]
fn python_chained_traceback() {
    let r = roles(
        "Traceback (most recent call last):
  File \"/usr/lib/python3/dist-packages/urllib3/connection.py\", line 198, in _new_conn
    sock = connection.create_connection(
ConnectionRefusedError: [Errno 111] Connection refused

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File \"/tmp/x.py\", line 2, in <module>
  File \"/usr/lib/python3/dist-packages/requests/adapters.py\", line 700, in send
    raise ConnectionError(e, request=request)
requests.exceptions.ConnectionError: HTTPConnectionPool(host='127.0.0.1', port=1): Max retries",
    );
    assert_eq!(r[3].0, Role::Message);
    assert_eq!(r[3].1, "[Errno 111] Connection refused");
    assert_eq!(r[3].2, vec!["urllib3/connection.py"]);
    assert_eq!(r[5].0, Role::Link);
    let last = r.last().unwrap();
    assert_eq!(
        last.1,
        "HTTPConnectionPool(host='127.0.0.1', port=1): Max retries"
    );
    assert_eq!(last.2[0], "requests/adapters.py");
}

#[test]
fn java_caused_by_and_frames_after() {
    let r = roles(
        "Exception in thread \"main\" java.lang.IllegalStateException: cannot start: port taken
\tat com.acme.Server.start(Server.java:42)
\tat com.acme.Main.main(Main.java:7)
Caused by: java.net.BindException: Address already in use
\t... 2 more",
    );
    assert_eq!(r[0].1, "cannot start: port taken");
    assert_eq!(r[0].2, vec!["com/acme/Server.java", "com/acme/Main.java"]);
    assert_eq!(r[1].0, Role::Frame);
    assert_eq!(r[3].1, "Address already in use");
    assert_eq!(r[4].0, Role::Frame);
    let r = roles(
        "java.lang.NullPointerException: The validated object is null
\tat java.base/java.util.Objects.requireNonNull(Objects.java:336)
\tat app//org.apache.commons.lang3.Validate.notNull(Validate.java:224)",
    );
    assert_eq!(
        r[0].2,
        vec![
            "java/util/Objects.java",
            "org/apache/commons/lang3/Validate.java"
        ]
    );
}

#[test]
fn rust_panic_and_anyhow_causes() {
    let r = roles(
        "thread 'main' panicked at src/main.rs:10:5:
index out of range
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
Error: failed to load config

Caused by:
    0: reading /etc/x.toml
    1: No such file or directory (os error 2)",
    );
    assert_eq!(r[1].1, "index out of range");
    assert_eq!(r[1].2, vec!["src/main.rs"]);
    assert_eq!(r[2].0, Role::Frame);
    assert_eq!(r[3].1, "failed to load config");
    assert_eq!(r[6].1, "reading /etc/x.toml");
    assert_eq!(r[7].1, "No such file or directory (os error 2)");
}

#[test]
fn rust_panic_with_thread_id() {
    let r = roles(
        "thread 'main' (4242) panicked at src/main.rs:55:60:
config must parse: Error(\"EOF while parsing a value\", line: 1, column: 3)",
    );
    assert_eq!(r[0].0, Role::Link);
    assert_eq!(
        r[1].1,
        "config must parse: Error(\"EOF while parsing a value\", line: 1, column: 3)"
    );
    assert_eq!(r[1].2, vec!["src/main.rs"]);
}

#[test]
fn node_uncaught_without_blank_lines() {
    // A log read with its blank lines dropped: the caret line ends the
    // source Node shows, and the error under it is a message.
    let r = roles(
        "/app/node_modules/express/lib/application.js:217
    throw new TypeError('app.use() requires a middleware function')
    ^
TypeError: app.use() requires a middleware function
    at Function.use (/app/node_modules/express/lib/application.js:217:11)
Node.js v20.20.2",
    );
    assert_eq!(r[2].0, Role::Frame);
    assert_eq!(r[3].0, Role::Message);
    assert_eq!(r[3].1, "app.use() requires a middleware function");
    assert_eq!(r[3].2, vec!["lib/application.js"]);
    assert_eq!(r[4].0, Role::Frame);
    assert_eq!(r[5].0, Role::Message);
}

#[test]
fn ruby_uncaught_error_and_from_lines() {
    let block = "/usr/share/rubygems-integration/all/gems/rack-2.2.22/lib/rack/utils.rb:633:in `block in status_code': Unrecognized status code :bogus (ArgumentError)
\tfrom /usr/share/rubygems-integration/all/gems/rack-2.2.22/lib/rack/utils.rb:633:in `fetch'
\tfrom /gems/rack-2.2.22/lib/rack/mock.rb:56:in `get'
\t ... 92 levels...
\tfrom main.rb:51:in `<main>'
main.rb:3:in 'Object#go': limit (4) exceeded (3) (Rack::QueryParser::QueryLimitError)
x.rb:1:in `<main>': unhandled exception";
    let lines: Vec<&str> = block.lines().collect();
    let r = read(&lines);
    let msg = |i: usize| &lines[i][r[i].start..r[i].end.unwrap_or(lines[i].len())];
    assert_eq!(r[0].role, Role::Message);
    assert_eq!(msg(0), "Unrecognized status code :bogus");
    assert_eq!(r[0].class.as_deref(), Some("ArgumentError"));
    assert_eq!(
        r[0].hints.files,
        vec!["rack/utils.rb", "rack/mock.rb", "main.rb"]
    );
    assert_eq!(r[0].hints.line, Some(633));
    assert!(r[1..5].iter().all(|s| s.role == Role::Frame));
    assert_eq!(msg(5), "limit (4) exceeded (3)");
    assert_eq!(
        r[5].class.as_deref(),
        Some("Rack::QueryParser::QueryLimitError")
    );
    assert_eq!(r[5].hints.line, Some(3));
    assert_eq!(msg(6), "unhandled exception");
    assert_eq!(r[6].class, None);
}

#[test]
fn node_and_dotnet() {
    let r = roles(
        "/app/server.js:12
    throw new Error(`bad port ${port}`);
    ^

TypeError [ERR_INVALID_ARG_TYPE]: The \"path\" argument must be of type string
    at Object.open (node:fs:580:10)
    at load (/app/lib/config.js:8:3)
Unhandled exception. System.InvalidOperationException: Sequence contains no elements
 ---> System.IO.IOException: disk full
   at Shop.Orders.Save() in /src/Shop/Orders.cs:line 42",
    );
    let msg: Vec<&(Role, String, Vec<String>)> = r
        .iter()
        .filter(|x| x.0 == Role::Message && !x.1.trim().is_empty())
        .collect();
    assert!(msg
        .iter()
        .any(|m| m.1 == "The \"path\" argument must be of type string"
            && m.2.contains(&"lib/config.js".to_string())));
    assert!(msg.iter().any(|m| m.1 == "Sequence contains no elements"));
    assert!(msg
        .iter()
        .any(|m| m.1 == "disk full" && m.2 == vec!["Shop/Orders.cs"]));
}

#[test]
fn php_uncaught_with_previous_and_multiline_message() {
    let block = "PHP Fatal error:  Uncaught InvalidArgumentException: Invalid port: 70000. Must be between 0 and 65535 in /usr/share/php/GuzzleHttp/Psr7/Uri.php:649
Stack trace:
#0 /usr/share/php/GuzzleHttp/Psr7/Uri.php(569): GuzzleHttp\\Psr7\\Uri->filterPort()
#1 /app/main.php(33): GuzzleHttp\\Psr7\\Uri::fromParts()
#2 [internal function]: {closure}()
#3 {main}

Next GuzzleHttp\\Psr7\\Exception\\MalformedUriException: Invalid port: 70000 in /usr/share/php/GuzzleHttp/Psr7/Uri.php:361
Stack trace:
#0 /app/vendor/acme/shop/src/Checkout.php(33): GuzzleHttp\\Psr7\\Uri::fromParts()
#1 {main}
  thrown in /usr/share/php/GuzzleHttp/Psr7/Uri.php on line 361
PHP Fatal error:  Uncaught UnexpectedValueException: The stream or file \"/x.log\" could not be opened in append mode: Permission denied
The exception occurred while attempting to log: hello in /usr/share/php/Monolog/Handler/StreamHandler.php:146
Stack trace:
#0 /usr/share/php/Monolog/Logger.php(399): Monolog\\Handler\\StreamHandler->handle()
#1 {main}
  thrown in /usr/share/php/Monolog/Handler/StreamHandler.php on line 146
Fatal error: Uncaught Exception: boom in Command line code:1
InvalidArgumentException: caught and printed";
    let lines: Vec<&str> = block.lines().collect();
    let read = read(&lines);
    let text = |i: usize| {
        let s = &read[i];
        &lines[i][s.start..s.end.unwrap_or(lines[i].len())]
    };
    assert_eq!(read[0].role, Role::Message);
    assert_eq!(text(0), "Invalid port: 70000. Must be between 0 and 65535");
    assert_eq!(read[0].class.as_deref(), Some("InvalidArgumentException"));
    assert_eq!(
        read[0].hints.files,
        vec!["Psr7/Uri.php".to_string(), "app/main.php".to_string()]
    );
    assert_eq!(read[0].hints.line, Some(649));
    assert_eq!(read[1].role, Role::Link);
    for i in 2..=5 {
        assert_eq!(read[i].role, Role::Frame, "{}", lines[i]);
    }
    assert_eq!(text(7), "Invalid port: 70000");
    assert_eq!(
        read[7].class.as_deref(),
        Some("GuzzleHttp\\Psr7\\Exception\\MalformedUriException")
    );
    assert_eq!(
        read[7].hints.files,
        vec!["Psr7/Uri.php".to_string(), "src/Checkout.php".to_string()]
    );
    assert_eq!(read[7].hints.line, Some(361));
    assert_eq!(read[11].role, Role::Frame);
    // Both lines of a multi-line message, hinted alike.
    assert_eq!(
        text(12),
        "The stream or file \"/x.log\" could not be opened in append mode: Permission denied"
    );
    assert_eq!(
        text(13),
        "The exception occurred while attempting to log: hello"
    );
    for i in [12, 13] {
        assert_eq!(
            read[i].hints.files,
            vec![
                "Handler/StreamHandler.php".to_string(),
                "Logger.php".to_string()
            ]
        );
        assert_eq!(read[i].hints.line, Some(146));
    }
    assert_eq!(read[17].role, Role::Frame);
    assert_eq!(text(18), "boom");
    // After the block, `Next`-like and caught lines are plain again.
    assert_eq!(text(19), "caught and printed");
    assert!(read[19].hints.files.is_empty());
}

#[test]
fn a_symfony_console_block_is_hinted_by_its_header() {
    let block = "\nIn Settings.php line 91:\n                               \n  Could not open the settings  \n  file at /etc/app.json        \n                               \n\n  run [--dry-run]\nIn the beginning the log said this:";
    let all: Vec<&str> = block.lines().collect();
    // As read, and as a log reader that drops blank lines hands it over.
    let unblank: Vec<&str> = all
        .iter()
        .copied()
        .filter(|l| !l.trim().is_empty())
        .collect();
    for lines in [all, unblank] {
        let read = read(&lines);
        let hinted: Vec<&str> = (0..lines.len())
            .filter(|&i| read[i].hints.files == ["Settings.php"] && read[i].hints.line == Some(91))
            .map(|i| lines[i].trim())
            .collect();
        // The block's two lines of message; not what follows, though
        // indented as they are.
        assert_eq!(
            hinted,
            ["Could not open the settings", "file at /etc/app.json"]
        );
        let header = lines
            .iter()
            .position(|l| l.starts_with("In Settings"))
            .unwrap();
        assert_eq!(read[header].role, Role::Message);
        // A line that starts with `In ` but is no header is a message.
        let other = lines.len() - 1;
        assert_eq!(read[other].role, Role::Message);
        assert!(read[other].hints.files.is_empty());
    }
}
