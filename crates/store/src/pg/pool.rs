//! Connections to one PostgreSQL database, kept open between calls: a
//! server's request threads and an index run's writer each take one and
//! give it back when done.

use crate::{Error, Result};
use postgres::{Client, Config};
use std::ops::{Deref, DerefMut};
use std::sync::Mutex;
use tokio_postgres_rustls::MakeRustlsConnect;

/// Connections kept open while idle.
const IDLE_KEPT: usize = 8;

pub(crate) struct Pool {
    config: Config,
    tls: MakeRustlsConnect,
    /// The URL as it may be shown: the password replaced.
    shown: String,
    schema: Option<String>,
    idle: Mutex<Vec<Client>>,
}

/// A connection taken from the pool, given back when dropped.
pub(crate) struct Conn<'a> {
    pool: &'a Pool,
    client: Option<Client>,
}

impl Pool {
    /// A pool for `url`, with every table in `schema` when given; one
    /// connection is opened now, so a bad URL fails here.
    pub(crate) fn new(url: &str, schema: Option<&str>) -> Result<Pool> {
        let shown = redacted(url);
        let (url, wanted) = super::tls::split(url);
        let tls = super::tls::connector(&wanted).map_err(|message| Error::Open {
            path: shown.clone(),
            message,
        })?;
        let config: Config = url.parse().map_err(|e| Error::Open {
            path: shown.clone(),
            message: format!(
                "not a PostgreSQL URL ({e}); expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"
            ),
        })?;
        let pool = Pool {
            config,
            tls,
            shown,
            schema: schema.map(str::to_string),
            idle: Mutex::new(Vec::new()),
        };
        drop(pool.get()?);
        Ok(pool)
    }

    /// The URL without its password.
    pub(crate) fn shown(&self) -> &str {
        &self.shown
    }

    /// An open connection: an idle one, or a new one.
    pub(crate) fn get(&self) -> Result<Conn<'_>> {
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let client = match idle {
            Some(c) if !c.is_closed() => c,
            _ => self.connect()?,
        };
        Ok(Conn {
            pool: self,
            client: Some(client),
        })
    }

    fn connect(&self) -> Result<Client> {
        let mut client = self
            .config
            .connect(self.tls.clone())
            .map_err(|e| Error::Open {
                path: self.shown.clone(),
                message: format!("cannot connect: {e}"),
            })?;
        if let Some(schema) = &self.schema {
            let quoted = format!("\"{}\"", schema.replace('"', "\"\""));
            client.batch_execute(&format!(
                "CREATE SCHEMA IF NOT EXISTS {quoted}; SET search_path TO {quoted}"
            ))?;
        }
        Ok(client)
    }
}

impl Deref for Conn<'_> {
    type Target = Client;
    fn deref(&self) -> &Client {
        self.client.as_ref().expect("held until dropped")
    }
}

impl DerefMut for Conn<'_> {
    fn deref_mut(&mut self) -> &mut Client {
        self.client.as_mut().expect("held until dropped")
    }
}

impl Drop for Conn<'_> {
    fn drop(&mut self) {
        let Some(client) = self.client.take() else {
            return;
        };
        let mut idle = self.pool.idle.lock().unwrap_or_else(|e| e.into_inner());
        if !client.is_closed() && idle.len() < IDLE_KEPT {
            idle.push(client);
        }
    }
}

/// `url` with its password (`postgres://user:PASSWORD@…`, or a
/// `password=…` word of the key-value form) replaced by `***`.
pub(crate) fn redacted(url: &str) -> String {
    if let Some(scheme_end) = url.find("://") {
        let rest = &url[scheme_end + 3..];
        let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
        if let Some(at) = rest[..authority_end].rfind('@') {
            if let Some(colon) = rest[..at].find(':') {
                let start = scheme_end + 3 + colon + 1;
                let end = scheme_end + 3 + at;
                let mut out = url.to_string();
                out.replace_range(start..end, "***");
                return redact_params(&out);
            }
        }
        return redact_params(url);
    }
    url.split_whitespace()
        .map(|w| match w.split_once('=') {
            Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}=***"),
            _ => w.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `?password=…` in a URL's query, replaced.
fn redact_params(url: &str) -> String {
    let Some((base, query)) = url.split_once('?') else {
        return url.to_string();
    };
    let query: Vec<String> = query
        .split('&')
        .map(|p| match p.split_once('=') {
            Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}=***"),
            _ => p.to_string(),
        })
        .collect();
    format!("{base}?{}", query.join("&"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn passwords_are_never_shown() {
        for (url, want) in [
            (
                "postgres://errdex:s3cr3t@db.example:5432/atlas",
                "postgres://errdex:***@db.example:5432/atlas",
            ),
            (
                "postgresql://u:p%40ss@h/db?sslmode=require",
                "postgresql://u:***@h/db?sslmode=require",
            ),
            (
                "postgres://u@h/db?password=hunter2&sslmode=disable",
                "postgres://u@h/db?password=***&sslmode=disable",
            ),
            (
                "host=h user=u password=x dbname=d",
                "host=h user=u password=*** dbname=d",
            ),
            ("postgres://h/db", "postgres://h/db"),
        ] {
            assert_eq!(super::redacted(url), want);
        }
    }
}
