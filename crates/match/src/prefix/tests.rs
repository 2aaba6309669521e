use super::*;

fn one(line: &str) -> (String, String, Vec<String>) {
    let p = prepare(line);
    assert_eq!(p.parts.len(), 1, "{p:?}");
    (
        p.prefix.to_string(),
        p.parts[0].text.to_string(),
        p.hints.files,
    )
}

#[test]
fn the_last_level_marker_can_be_kept_in_the_message() {
    let line = "Dec  2 01:00:00 host app[7]: error: name does not exist";
    let p = prepare(line);
    assert_eq!(p.parts[0].text, "name does not exist");
    let q = p.with_marker(line).unwrap();
    assert_eq!(q.prefix, "Dec  2 01:00:00 host app[7]: ");
    assert_eq!(
        (q.parts[0].text.as_ref(), q.parts[0].offset),
        ("error: name does not exist", 29)
    );
    // Not when the marker is not right before the message, nor when
    // there is none.
    for line in [
        "ERROR 2026-12-02T01:00:00Z disk full",
        "ERROR \"disk full\"",
        "ERROR {\"msg\":\"disk full\"}",
        "disk full",
    ] {
        assert_eq!(prepare(line).with_marker(line), None, "{line}");
    }
}

#[test]
fn a_logfmt_line_may_start_with_its_level() {
    let p = prepare(r#"level=error msg="disk is full" err="EIO""#);
    let parts: Vec<_> = p
        .parts
        .iter()
        .map(|p| (p.text.as_ref(), p.offset))
        .collect();
    assert_eq!(
        (p.prefix, parts),
        ("", vec![("disk is full", 17), ("EIO", 36)])
    );
    // A message that is one pair is still a message.
    assert_eq!(one("level=error x=1").1, "x=1");
}

#[test]
fn known_prefixes_are_read_behind_an_unknown_head() {
    let read = |line| {
        unknown_heads(line)
            .into_iter()
            .filter_map(|at| behind_unknown_head(line, at))
            .map(|p| (p.prefix, p.parts[0].text.to_string(), p.parts[0].offset))
            .collect::<Vec<_>>()
    };
    let line = "web-1  | 2026-12-02T01:00:00Z ERROR disk is full";
    assert_eq!(
        read(line),
        vec![(
            "web-1  | 2026-12-02T01:00:00Z ERROR ",
            "disk is full".into(),
            36
        )]
    );
    let line = "cmd/ctr: {\"level\":\"error\",\"msg\":\"disk is full\"}";
    assert_eq!(read(line), vec![("cmd/ctr: ", "disk is full".into(), 33)]);
    assert_eq!(
        read("[2026-12-02 01:00:00,123] ERROR disk is full")[0].1,
        "disk is full"
    );
    // Not behind prose, nor where nothing known follows the head.
    assert!(read("upstream said no: ERROR disk is full").is_empty());
    assert!(read("something happened: the disk is full").is_empty());
    assert!(read("web-1  | disk is full").is_empty());
}

#[test]
fn klog_header_is_stripped_and_gives_a_hint() {
    let (prefix, text, files) = one("E1129 12:00:03.123456       1 apply_channel.go:80] serving readiness probe: listen tcp 0.0.0.0:3989: bind: address already in use");
    assert_eq!(
        text,
        "serving readiness probe: listen tcp 0.0.0.0:3989: bind: address already in use"
    );
    assert!(prefix.starts_with("E1129"));
    assert_eq!(files, vec!["apply_channel.go"]);
}

#[test]
fn timestamps_syslog_and_levels() {
    for line in [
        "2026-11-29T12:00:03.123Z stop requested",
        "2026-11-29T12:00:03+01:00 ERROR stop requested",
        "2026-11-29 12:00:03.123456 C | stop requested",
        "2026/11/29 12:00:03 stop requested",
        "Nov 29 12:00:03 node1 dns-controller[4242]: stop requested",
        "Nov  9 12:00:03 dns-controller[4242]: stop requested",
        "Sep 28 04:02:24 ip-10-11-7-196 containerd: stop requested",
        "dns-controller[4242]: stop requested",
        "Error: stop requested",
        "  - stop requested",
        "\"stop requested\"",
        "level=error stop requested",
        "[ERROR] stop requested",
        "2026-11-29 12:00:03.123456 C | etcdmain: stop requested",
        "nginx: [emerg] stop requested",
        "2026/11/29 12:00:03 [emerg] 1234#1234: stop requested",
        "2026/11/29 12:00:03 [error] 1234#0: *42 stop requested",
    ] {
        let (_, text, _) = one(line);
        assert_eq!(text, "stop requested", "{line}");
    }
}

#[test]
fn a_tag_without_a_pid_needs_a_syslog_timestamp_before_its_host() {
    // Without the timestamp, `node1 dns-controller:` may be the message.
    let (_, text, _) = one("node1 dns-controller: stop requested");
    assert_eq!(text, "node1 dns-controller: stop requested");
    let (_, text, _) = one("2026-11-29T12:00:03Z node1 dns-controller: stop requested");
    assert_eq!(text, "node1 dns-controller: stop requested");
    // A host and a tag with a space in it are no tag.
    let (_, text, _) = one("Nov 29 12:00:03 node1 could not: stop requested");
    assert_eq!(text, "node1 could not: stop requested");
}

#[test]
fn a_syslog_or_journald_tag_names_a_unix_host() {
    for line in [
        "Oct 02 23:27:34 ip-10-0-60-95 containerd[2639]: stop requested",
        "Sep 28 04:02:24 ip-10-11-7-196 containerd: stop requested",
        "dns-controller[4242]: stop requested",
    ] {
        assert!(prepare(line).hints.unix_host, "{line}");
    }
    for line in [
        "2026-11-29T12:00:03Z stop requested",
        "node1 dns-controller: stop requested",
        "[ERROR] stop requested",
    ] {
        assert!(!prepare(line).hints.unix_host, "{line}");
    }
}

#[test]
fn json_and_logfmt_give_message_and_error() {
    let p = prepare(
        r#"{"level":"error","ts":"2026-11-29T12:00:03Z","caller":"embed/etcd.go:123","msg":"failed to start","error":"listen tcp :2379: bind: address already in use"}"#,
    );
    let texts: Vec<&str> = p.parts.iter().map(|p| p.text.as_ref()).collect();
    assert_eq!(
        texts,
        vec![
            "failed to start",
            "listen tcp :2379: bind: address already in use"
        ]
    );
    assert_eq!(p.hints.files, vec!["embed/etcd.go"]);

    let p = prepare(
        r#"time="2026-11-29T12:00:03Z" level=error msg="failed to load \"x\"" err="open /x: no such file""#,
    );
    let texts: Vec<&str> = p.parts.iter().map(|p| p.text.as_ref()).collect();
    assert_eq!(texts, vec!["failed to load \"x\"", "open /x: no such file"]);

    let p = prepare(
        r#"E1129 12:00:03.000000 1 lease.go:10] "Failed to update lease" err="context deadline exceeded" lease="kube-node-lease""#,
    );
    let texts: Vec<&str> = p.parts.iter().map(|p| p.text.as_ref()).collect();
    assert_eq!(
        texts,
        vec!["Failed to update lease", "context deadline exceeded"]
    );
}

#[test]
fn nginx_headers_keep_the_message() {
    for (line, want) in [
        // Not nginx's level names, or no `pid#tid: `: message text.
        ("nginx: [bogus] x", "nginx: [bogus] x"),
        ("[emerg] x", "[emerg] x"),
        ("[crit] 12 x", "[crit] 12 x"),
        // `[error] ` alone stays a level marker.
        ("[error] x", "x"),
        ("2026/11/29 12:00:03 [error] 1#1: *x y", "*x y"),
    ] {
        let (_, text, _) = one(line);
        assert_eq!(text, want, "{line}");
    }
}

#[test]
fn plain_text_with_equals_signs_is_not_logfmt() {
    let (_, text, _) = one("proto: wrong wireType = 2 for field Key");
    assert_eq!(text, "proto: wrong wireType = 2 for field Key");
}

#[test]
fn only_quotes_around_the_whole_message_are_stripped() {
    let text = |l: &str| prepare(l).parts[0].text.to_string();
    assert_eq!(text("'no such file'"), "no such file");
    assert_eq!(text("`a` then \"b\""), "`a` then \"b\"");
    assert_eq!(
        text("\"x\" is not defined in 'rpcpb.Case_value'"),
        "\"x\" is not defined in 'rpcpb.Case_value'"
    );
    assert_eq!(text("'a' or 'b'"), "'a' or 'b'");
}

#[test]
fn depd_deprecations_lose_their_header_and_the_callers_location() {
    let (prefix, text, files) = one("Mon, 30 Nov 2026 00:12:54 GMT express deprecated res.send(status): Use res.sendStatus(status) instead at file:/app/server.mjs:14:35");
    assert_eq!(prefix, "Mon, 30 Nov 2026 00:12:54 GMT express deprecated ");
    assert_eq!(text, "res.send(status): Use res.sendStatus(status) instead");
    assert!(files.is_empty());
    let (prefix, text, _) =
        one("body-parser deprecated undefined extended: provide extended option at app.js:9:20");
    assert_eq!(prefix, "body-parser deprecated ");
    assert_eq!(text, "undefined extended: provide extended option");
    // Only a depd line, only a script location.
    let (_, text, _) = one("unexpected token at app.js:9:20");
    assert_eq!(text, "unexpected token at app.js:9:20");
    let (_, text, _) = one("express deprecated x at the end");
    assert_eq!(text, "express deprecated x at the end");
}

#[test]
fn go_quoting_is_undone() {
    assert_eq!(unquote(r#""a \"b\"\n\u00e9""#).unwrap(), "a \"b\"\né");
}

#[test]
fn nginx_error_log_context_is_not_the_message() {
    for (line, want) in [
        (
            "2026/12/02 07:57:42 [error] 18736#18736: *3 user \"alice\": password mismatch, client: 127.0.0.1, server: , request: \"GET /private/x.html HTTP/1.1\", host: \"127.0.0.1:18180\"",
            "user \"alice\": password mismatch",
        ),
        (
            "2026/12/02 07:57:42 [error] 18736#18736: *5 connect() failed (111: Connection refused) while connecting to upstream, client: 127.0.0.1, server: , request: \"GET / HTTP/1.1\"",
            "connect() failed (111: Connection refused)",
        ),
        // On stderr nginx adds no context; ` while ` in a message stays.
        ("nginx: [emerg] x, client: y", "x, client: y"),
        (
            "2026/12/02 07:57:42 [emerg] 1#1: failed while Parsing X",
            "failed while Parsing X",
        ),
    ] {
        let (_, text, _) = one(line);
        assert_eq!(text, want, "{line}");
    }
}

#[test]
fn log4j_locations_are_hints() {
    let p = prepare("2026-12-02 08:01:29,418 - ERROR [main:QuorumPeerMain@99] - Invalid config, exiting abnormally");
    assert_eq!(p.parts[0].text, "Invalid config, exiting abnormally");
    assert_eq!(p.hints.files[0], "QuorumPeerMain.java");
    assert_eq!(p.hints.line, Some(99));
    let p = prepare("2026-12-02 08:01:29,413 - INFO  [main:org.a.QuorumPeerConfig$Inner@177] - Reading configuration from: /x");
    assert_eq!(p.parts[0].text, "Reading configuration from: /x");
    assert_eq!(p.hints.files[0], "QuorumPeerConfig.java");
    // Brackets that name no class and line are message text.
    assert_eq!(prepare("[main:x] y").parts[0].text, "[main:x] y");
}

#[test]
fn redis_headers_and_padded_levels_are_stripped() {
    for (line, want) in [
        (
            "30097:M 02 Dec 2026 08:19:00.536 # Failed listening on port 16379 (TCP), aborting.",
            "Failed listening on port 16379 (TCP), aborting.",
        ),
        (
            "1:C 02 Dec 2026 08:19:00.535 * Configuration loaded",
            "Configuration loaded",
        ),
        (
            "30097:Q 02 Dec 2026 08:19:00.536 # x",
            "30097:Q 02 Dec 2026 08:19:00.536 # x",
        ),
        (
            "ERROR:  Could not find a valid gem",
            "Could not find a valid gem",
        ),
        ("INFO  starting", "starting"),
    ] {
        let (_, text, _) = one(line);
        assert_eq!(text, want, "{line}");
    }
}

#[test]
fn logrus_terminal_lines_give_message_and_error_fields() {
    let p = prepare(
        r#"WARN[0000] failed to load plugin io.containerd.snapshotter.v1.btrfs  error="path /var/lib/x must be a btrfs filesystem" type=io.containerd.snapshotter.v1"#,
    );
    assert_eq!(p.prefix, "WARN[0000] ");
    let texts: Vec<&str> = p.parts.iter().map(|p| p.text.as_ref()).collect();
    assert_eq!(
        texts,
        vec![
            "failed to load plugin io.containerd.snapshotter.v1.btrfs",
            "path /var/lib/x must be a btrfs filesystem"
        ]
    );
    // A short message is padded to 44 columns before its fields; a full
    // timestamp may stand in the brackets.
    let p =
        prepare(r#"ERRO[2019-09-26T18:20:47Z] stop requested                               id=7"#);
    let texts: Vec<&str> = p.parts.iter().map(|p| p.text.as_ref()).collect();
    assert_eq!(texts, vec!["stop requested"]);
}

#[test]
fn a_log_line_pasted_as_a_shell_comment_keeps_its_header() {
    let p = prepare(
        r#"  # WARN[0000] failed to load plugin x  error="path /y must be a btrfs filesystem""#,
    );
    assert_eq!(p.prefix, "  # WARN[0000] ");
    let texts: Vec<&str> = p.parts.iter().map(|p| p.text.as_ref()).collect();
    assert_eq!(
        texts,
        vec![
            "failed to load plugin x",
            "path /y must be a btrfs filesystem"
        ]
    );
    let p = prepare("# 2026-12-02T08:05:31Z listening on :80");
    assert_eq!(p.parts[0].text, "listening on :80");
    // Without a header after it, `#` is the message's own.
    let p = prepare("# of retries exceeded");
    assert_eq!(p.parts[0].text, "# of retries exceeded");
}

#[test]
fn logrus_messages_with_two_spaces_but_no_fields_stay_whole() {
    for line in [
        "INFO[0001] stop  requested now",
        "INFO[0001] stop requested  a=b c",
    ] {
        let (prefix, text, _) = one(line);
        assert_eq!(prefix, "INFO[0001] ", "{line}");
        assert_eq!(text, &line[11..], "{line}");
    }
    // Not a logrus header: four letters of another word.
    let (_, text, _) = one("WARNING[x] stop requested");
    assert_eq!(text, "WARNING[x] stop requested");
}

#[test]
fn logfmt_values_whose_quotes_lost_their_backslashes_end_before_the_next_key() {
    let p = prepare(
        r#"time="2024-04-29T09:40:50Z" level=error msg="failed to decode hosts.toml" error="failed to parse TOML: got "[" instead" id=7"#,
    );
    let texts: Vec<&str> = p.parts.iter().map(|p| p.text.as_ref()).collect();
    assert_eq!(
        texts,
        vec![
            "failed to decode hosts.toml",
            "failed to parse TOML: got \"[\" instead"
        ]
    );
    // At the end of the line too.
    let p = prepare(r#"level=error msg="bad" error="got "[" instead""#);
    assert_eq!(p.parts[1].text, "got \"[\" instead");
}

#[test]
fn bracketed_console_lines_give_message_error_and_caller() {
    let p = prepare(
        r#"[2022/05/26 08:55:34.291 +00:00] [WARN] [server.go:46] ["failed to \"start\""] [error="listen tcp: bind: address already in use"] [id=7]"#,
    );
    assert_eq!(
        p.prefix,
        "[2022/05/26 08:55:34.291 +00:00] [WARN] [server.go:46] "
    );
    let texts: Vec<&str> = p.parts.iter().map(|p| p.text.as_ref()).collect();
    assert_eq!(
        texts,
        vec![
            "failed to \"start\"",
            "listen tcp: bind: address already in use"
        ]
    );
    assert_eq!(p.hints.files, vec!["server.go"]);
    assert_eq!(p.hints.line, Some(46));
    // Not a caller: a bracket of words, or no space after it.
    let (_, text, _) = one("[see x.go:12 here] stop requested");
    assert_eq!(text, "[see x.go:12 here] stop requested");
    // A message that only starts with a quoted bracket stays whole.
    let (_, text, _) = one(r#"["a"] and more"#);
    assert_eq!(text, r#"["a"] and more"#);
}

#[test]
fn a_zone_without_its_minutes_ends_the_timestamp_where_the_text_does() {
    // Found by AFL++ (fuzz/regressions/prefix): `+00]` was read as
    // `+0000`, past the bracket, and the zone's slice panicked.
    for line in [
        "[2026-05.19 30:36;06+00] [0 x",
        "[0478-05.19 30:36;06+00/]c8\" hu@00/]c8\"",
        "[0478-05.19 32:01@17-03]:\"s0\u{80}",
        "2026-11-29T12:00:03+07 disk full",
    ] {
        let _ = prepare(line);
    }
    let p = prepare("2026-11-29T12:00:03+07:00 disk full");
    assert_eq!(p.parts[0].text, "disk full");
    let p = prepare("2026-11-29T12:00:03+0700 disk full");
    assert_eq!(p.parts[0].text, "disk full");
}

#[test]
fn a_python_warnings_header_is_a_location() {
    let line = "/usr/local/lib/python3.12/dist-packages/urllib3/connectionpool.py:1097: InsecureRequestWarning: Unverified HTTPS request is being made to host 'x'.";
    let p = prepare(line);
    assert_eq!(
        p.prefix,
        "/usr/local/lib/python3.12/dist-packages/urllib3/connectionpool.py:1097: InsecureRequestWarning: "
    );
    assert_eq!(
        p.parts[0].text,
        "Unverified HTTPS request is being made to host 'x'."
    );
    assert_eq!(
        (p.hints.files.clone(), p.hints.line),
        (vec!["connectionpool.py".to_string()], Some(1097))
    );
    // A path and line before something that is no warning category, or
    // no path, is no such header.
    for line in [
        "app.py:12: ValueError: bad value",
        "see setup.py: it is missing",
        "setup.py:x: UserWarning: y",
    ] {
        assert!(!prepare(line).prefix.contains(".py"), "{line}");
    }
}
