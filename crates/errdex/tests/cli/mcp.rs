//! `errdex mcp` with a real MCP client (rmcp): the handshake over stdio,
//! the tool list, and a call of each tool, from a database and from an
//! exported dataset.

use super::*;
use rmcp::model::CallToolRequestParams;
use rmcp::ServiceExt;
use std::process::Stdio;

fn text_of(r: &rmcp::model::CallToolResult) -> String {
    r.content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect()
}

async fn exercise(args: Vec<String>) {
    // rmcp's child-process transport reads lines with a buffer each read
    // empties, and loses half a line when another event comes between
    // its pieces (`errdex_mcp::lines`): the client reads as the server does.
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_errdex"))
        .args(&args)
        .env_remove("ERRDEX_DB")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let (stdin, stdout) = (child.stdin.take().unwrap(), child.stdout.take().unwrap());
    let transport = errdex_mcp::lines::line_transport::<rmcp::RoleClient, _, _>(stdout, stdin);
    let client = ().serve(transport).await.expect("handshake");
    let info = client.peer_info().expect("server info");
    assert_eq!(info.server_info.name, "errdex");
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        ["search_error", "explain_error", "get_error", "list_repos"]
    );
    assert!(tools.iter().all(|t| t
        .description
        .as_ref()
        .is_some_and(|d| d.contains("Call this"))));

    let call = |name: &'static str, args: serde_json::Value| {
        let client = &client;
        async move {
            let p =
                CallToolRequestParams::new(name).with_arguments(args.as_object().unwrap().clone());
            // A server that stops answering fails here, not at CI's limit.
            tokio::time::timeout(std::time::Duration::from_secs(120), client.call_tool(p))
                .await
                .unwrap_or_else(|_| panic!("{name}: no answer in 120 s"))
                .unwrap()
        }
    };
    let repos = text_of(&call("list_repos", serde_json::json!({})).await);
    assert!(repos.contains("kubernetes/kops"), "{repos}");
    let found = text_of(
        &call(
            "search_error",
            serde_json::json!({"message": "E1129 12:00:03.1 1 x.go:1] stop requested"}),
        )
        .await,
    );
    let hits: Value = serde_json::from_str(&found).unwrap();
    assert_eq!(hits[0]["messagePattern"], "stop requested");
    let id = hits[0]["id"].as_str().unwrap().to_string();
    let explained = text_of(
        &call("explain_error", serde_json::json!({"text": "serving readiness probe: listen tcp :3989: bind: address already in use"})).await,
    );
    let frames: Value = serde_json::from_str(&explained).unwrap();
    assert_eq!(
        frames[0]["frames"][0]["candidates"][0]["slug"],
        "serving-readiness-probe-w"
    );
    let page = text_of(&call("get_error", serde_json::json!({"id": id})).await);
    assert!(
        page.starts_with("# stop requested")
            && page.contains("## What it means")
            && page.contains("Page: http://"),
        "{page}"
    );
    let by_slug = text_of(
        &call(
            "get_error",
            serde_json::json!({"repo": "kubernetes/kops", "slug": "stop-requested"}),
        )
        .await,
    );
    assert_eq!(by_slug, page);
    let missing = call("get_error", serde_json::json!({"id": "0000000000000000"})).await;
    assert_eq!(missing.is_error, Some(true));
    client.cancel().await.unwrap();
    // The server leaves with its client.
    let status = tokio::time::timeout(std::time::Duration::from_secs(30), child.wait())
        .await
        .expect("the server exits when its client leaves")
        .unwrap();
    assert!(status.success(), "{status}");
}

#[test]
fn mcp_tools_answer_from_a_database_and_from_a_dataset() {
    let env = Env::new("seed");
    env.index();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let db = env.db().to_str().unwrap().to_string();
    rt.block_on(exercise(vec!["--db".into(), db, "mcp".into()]));

    let dataset = env.dir.path().join("dataset");
    let o = errdex(
        &env.db(),
        &[
            "export",
            "--format",
            "dataset",
            "--out",
            dataset.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    rt.block_on(exercise(vec![
        "--db".into(),
        "/nonexistent.db".into(),
        "mcp".into(),
        "--dataset".into(),
        dataset.to_str().unwrap().into(),
    ]));
}
