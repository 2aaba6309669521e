//! `rsreal <case> [args…]`: provokes one real error of the corpus crates
//! (serde_json, serde, clap, rusqlite, tokio, anyhow) and lets it reach
//! stderr the way programs do: clap's own exit, `main` returning an
//! `anyhow::Error`, a printed `Display`, or a panic.

use anyhow::{bail, Context, Result};
use clap::Parser;
use rusqlite::Connection;
use serde::Deserialize;
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(name = "rsreal")]
struct Cli {
    /// Port to listen on.
    #[arg(long)]
    port: u16,
    /// Scheduling mode.
    #[arg(long, value_parser = ["fast", "slow"])]
    mode: Option<String>,
    /// Config file.
    config: String,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Config {
    name: String,
    port: u32,
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let case = args.get(1).map(String::as_str).unwrap_or("");
    match case {
        "cli" => {
            let cli = Cli::parse_from(
                std::iter::once("rsreal".to_string()).chain(args[2..].iter().cloned()),
            );
            println!("{cli:?}");
        }
        "json" => {
            let text = &args[2];
            if let Err(e) = serde_json::from_str::<Config>(text) {
                eprintln!("rsreal: bad config: {e}");
            }
        }
        "json-value" => {
            let v: serde_json::Value =
                serde_json::from_str(&args[2]).context("parsing the request body")?;
            println!("{v}");
        }
        "json-expect" => {
            let c: Config = serde_json::from_str(&args[2]).expect("config must parse");
            println!("{c:?}");
        }
        "read-config" => {
            let text = std::fs::read_to_string("/nonexistent/rsreal.json")
                .context("reading /nonexistent/rsreal.json")?;
            println!("{text}");
        }
        "port" => {
            let port: u16 = args[2]
                .parse()
                .with_context(|| format!("invalid port {:?}", args[2]))?;
            if port < 1024 {
                bail!("port {port} is reserved");
            }
        }
        "unwrap-none" => {
            let v: Option<u32> = None;
            println!("{}", v.unwrap());
        }
        "sql" => sql(&args[2])?,
        "tokio" => tokio_case(&args[2])?,
        _ => bail!("unknown case {case:?}"),
    }
    Ok(())
}

fn sql(case: &str) -> Result<()> {
    let conn = Connection::open_in_memory()?;
    conn.execute_batch("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")?;
    conn.execute("INSERT INTO users (id, name) VALUES (1, 'ann')", [])?;
    let r: rusqlite::Result<()> = match case {
        "no-rows" => conn
            .query_row("SELECT name FROM users WHERE id = ?1", [42], |r| {
                r.get::<_, String>(0)
            })
            .map(drop),
        "column-index" => conn
            .query_row("SELECT name FROM users WHERE id = 1", [], |r| {
                r.get::<_, String>(5)
            })
            .map(drop),
        "column-type" => conn
            .query_row("SELECT name FROM users WHERE id = 1", [], |r| {
                r.get::<_, i64>(0)
            })
            .map(drop),
        "column-name" => conn
            .query_row("SELECT name FROM users WHERE id = 1", [], |r| {
                r.get::<_, String>("email")
            })
            .map(drop),
        "no-table" => conn.execute("DELETE FROM accounts", []).map(drop),
        "unique" => conn
            .execute("INSERT INTO users (id, name) VALUES (1, 'bob')", [])
            .map(drop),
        "params" => conn
            .execute("INSERT INTO users (id, name) VALUES (?1, 'x')", [1, 2])
            .map(drop),
        "execute-select" => conn.execute("SELECT id FROM users", []).map(drop),
        "open" => Connection::open("/nonexistent/dir/rsreal.db").map(drop),
        _ => bail!("unknown sql case {case:?}"),
    };
    if let Err(e) = r {
        eprintln!("rsreal: database error: {e}");
    }
    Ok(())
}

fn tokio_case(case: &str) -> Result<()> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        match case {
            "timeout" => {
                tokio::time::timeout(
                    Duration::from_millis(5),
                    tokio::time::sleep(Duration::from_secs(5)),
                )
                .await
                .context("waiting for the worker")?;
            }
            "join" => {
                let h = tokio::spawn(async {
                    panic!("worker lost its lease");
                });
                h.await?;
            }
            "connect" => {
                tokio::net::TcpStream::connect("127.0.0.1:1")
                    .await
                    .context("connecting to 127.0.0.1:1")?;
            }
            _ => bail!("unknown tokio case {case:?}"),
        }
        Ok(())
    })
}
