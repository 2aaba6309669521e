//! An MCP peer's transport over a pair of byte streams, one JSON-RPC
//! message a line, for the server and for clients alike.
//!
//! rmcp's own reader of a byte stream (`AsyncRwTransport::receive`) reads
//! into a buffer it clears at each call, and its service loop calls it
//! inside a `select!`: when a line arrives in two pieces and another
//! event (a sent request's completion) wins the `select!` between them,
//! the first piece is dropped and the message it began is never seen. The
//! peer waiting for that answer waits for ever. Here the buffer belongs to
//! the stream ([`FramedRead`]), which no cancelled read empties, and each
//! message is written whole, newline included, in one write.

use futures::{future, Stream, StreamExt};
use rmcp::service::{RxJsonRpcMessage, ServiceRole, TxJsonRpcMessage};
use rmcp::transport::async_rw::JsonRpcMessageCodec;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::codec::{FramedRead, FramedWrite, LinesCodec};

/// The sink a peer writes its messages to.
pub type LineSink<Role, W> = FramedWrite<W, JsonRpcMessageCodec<TxJsonRpcMessage<Role>>>;

/// The transport (a sink and a stream, which rmcp's `serve` takes) of a
/// peer in `Role` that reads `read` and writes `write`. A line that is no
/// message of the protocol is logged and skipped.
pub fn line_transport<Role, R, W>(
    read: R,
    write: W,
) -> (
    LineSink<Role, W>,
    impl Stream<Item = RxJsonRpcMessage<Role>> + Send + Unpin + 'static,
)
where
    Role: ServiceRole,
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let messages = FramedRead::new(read, LinesCodec::new()).filter_map(|line| {
        future::ready(match line {
            Ok(line) if line.trim().is_empty() => None,
            Ok(line) => serde_json::from_str(&line)
                .map_err(|e| tracing::warn!(error = %e, "an MCP line that is no message; skipped"))
                .ok(),
            Err(e) => {
                tracing::warn!(error = %e, "reading MCP messages");
                None
            }
        })
    });
    (
        FramedWrite::new(write, JsonRpcMessageCodec::default()),
        messages,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::RoleServer;
    use tokio::io::AsyncWriteExt;

    /// A request that arrives in two pieces, with the reader polled and
    /// left between them, is read whole: the buffer outlives the read.
    #[test]
    fn a_line_in_two_pieces_with_a_cancelled_read_between_is_read_whole() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let (mut client, server) = tokio::io::duplex(1 << 10);
            let (_sink, mut messages) =
                line_transport::<RoleServer, _, _>(server, tokio::io::sink());
            let line = r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#;
            client.write_all(&line.as_bytes()[..20]).await.unwrap();
            // A read that another event wins: polled once, then dropped.
            let early = tokio::time::timeout(std::time::Duration::from_millis(20), messages.next());
            assert!(early.await.is_err(), "half a line is no message");
            client.write_all(&line.as_bytes()[20..]).await.unwrap();
            client.write_all(b"\nnot json\n").await.unwrap();
            client.write_all(line.as_bytes()).await.unwrap();
            client.write_all(b"\n").await.unwrap();
            drop(client);
            let got: Vec<_> = messages.collect().await;
            assert_eq!(got.len(), 2, "{got:?}");
            assert!(format!("{:?}", got[0]).contains("Ping"), "{:?}", got[0]);
        });
    }
}
