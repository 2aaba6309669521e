//! The accept loop: every connection under limits a client cannot stretch
//! (slowloris headers, idle keep-alive connections, trickled bodies, tens
//! of thousands of sockets from a few clients).

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// How long a client may take, and how many connections it may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// From the connection's start, or the end of the previous answer, to
    /// the end of the request's headers: also closes idle keep-alive
    /// connections.
    pub header_read: Duration,
    /// To receive a whole request body.
    pub body_read: Duration,
    /// Connections open at once; one more is closed as soon as accepted.
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            header_read: Duration::from_secs(10),
            body_read: Duration::from_secs(30),
            max_connections: 1024,
        }
    }
}

/// How long open connections get to finish after a stop is asked.
const DRAIN: Duration = Duration::from_secs(5);

/// Serves `app` on `listener` under `limits` until `stop` completes.
pub async fn serve_with(
    app: Router,
    listener: TcpListener,
    limits: Limits,
    stop: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let app = app.layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
        limits.body_read,
    ));
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let graceful = GracefulShutdown::new();
    // HTTP/1 only: telling HTTP/2 apart (hyper-util's auto builder) reads
    // the first bytes without a timeout, so a client that connects and says
    // nothing would be held.
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read);
    tokio::pin!(stop);
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors and the like: wait, go on.
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            tracing::warn!(
                max = limits.max_connections,
                "connection limit reached; closing a new connection"
            );
            drop(stream);
            continue;
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        let conn = builder.serve_connection(TokioIo::new(stream), service);
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            let _ = conn.await;
            drop(slot);
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(DRAIN, graceful.shutdown()).await;
    Ok(())
}
