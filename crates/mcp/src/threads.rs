//! The threads a stdio session runs on, all started before it opens: one
//! reading stdin, one writing stdout, and the tool workers.
//!
//! Why not tokio's stdin, stdout and `spawn_blocking`: they start pool
//! threads on demand. Under a host's thread limit a start fails, and tokio
//! then queues the work behind the pool threads it has. One of them is
//! the stdin reader, blocked until the client speaks, while the client
//! waits for the answer: both wait for ever. Threads started up front
//! either start (and the session cannot stall on them) or fail at once
//! with an error that says so.

use std::io::{ErrorKind, Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{mpsc, Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};
use tokio::runtime::Handle;

/// Starts a named thread.
pub(crate) fn start(
    name: &str,
    body: impl FnOnce() + Send + 'static,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name(name.to_string())
        .spawn(body)
}

/// Copies `input` into `pipe` until the input ends or the pipe's reader
/// is gone; then closes the pipe, so its reader sees the end.
pub(crate) fn pump_in(handle: &Handle, mut input: impl Read, mut pipe: DuplexStream) {
    let mut buf = vec![0; 1 << 16];
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if handle.block_on(pipe.write_all(&buf[..n])).is_err() {
            return;
        }
    }
    let _ = handle.block_on(pipe.shutdown());
}

/// Copies `pipe` to `output`, flushed as it comes, until the pipe's
/// writer is gone or the output fails.
pub(crate) fn pump_out(handle: &Handle, mut pipe: DuplexStream, mut output: impl Write) {
    let mut buf = vec![0; 1 << 16];
    loop {
        let n = match handle.block_on(pipe.read(&mut buf)) {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        if output
            .write_all(&buf[..n])
            .and_then(|()| output.flush())
            .is_err()
        {
            return;
        }
    }
}

type Job = Box<dyn FnOnce() + Send>;

/// A fixed set of threads that run blocking work (store reads, tracing)
/// for the async side, in the order it is asked for.
pub(crate) struct Workers {
    jobs: Mutex<mpsc::Sender<Job>>,
}

/// Why a job gave no answer.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum JobFailed {
    /// The job panicked; the worker lives on.
    Panicked,
    /// No worker is left to run it.
    Stopped,
}

impl Workers {
    /// Starts `n` workers (at least one).
    pub(crate) fn start(n: usize) -> std::io::Result<Workers> {
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..n.max(1) {
            let rx = rx.clone();
            start(&format!("mcp-tool-{i}"), move || loop {
                let next = rx.lock().unwrap_or_else(|p| p.into_inner()).recv();
                match next {
                    Ok(job) => job(),
                    Err(_) => return,
                }
            })?;
        }
        Ok(Workers {
            jobs: Mutex::new(tx),
        })
    }

    /// Runs `work` on a worker and waits for its answer without holding
    /// up the async runtime.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, JobFailed> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = tx.send(catch_unwind(AssertUnwindSafe(work)));
        });
        self.jobs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .send(job)
            .map_err(|_| JobFailed::Stopped)?;
        match rx.await {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(_)) => Err(JobFailed::Panicked),
            Err(_) => Err(JobFailed::Stopped),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
    }

    #[test]
    fn workers_answer_in_turn_and_outlive_a_panic() {
        let rt = runtime();
        let w = Workers::start(2).unwrap();
        rt.block_on(async {
            assert_eq!(w.run(|| 6 * 7).await, Ok(42));
            let boom = w.run(|| -> u8 { panic!("a tool call panics") }).await;
            assert_eq!(boom, Err(JobFailed::Panicked));
            for i in 0..8 {
                assert_eq!(w.run(move || i).await, Ok(i));
            }
        });
    }

    #[test]
    fn pumps_carry_every_byte_both_ways_and_close_at_the_end() {
        let rt = runtime();
        let handle = rt.handle().clone();
        let text: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();

        // In: a reader's bytes reach the async side, then its end.
        let (mut near, far) = tokio::io::duplex(1 << 10);
        let input = std::io::Cursor::new(text.clone());
        let h = handle.clone();
        let t = start("test-in", move || pump_in(&h, input, far)).unwrap();
        let mut got = Vec::new();
        rt.block_on(near.read_to_end(&mut got)).unwrap();
        t.join().unwrap();
        assert_eq!(got, text);

        // Out: the async side's bytes reach a writer, and the pump ends
        // when the async side drops its end.
        let (mut near, far) = tokio::io::duplex(1 << 10);
        let sink = Arc::new(Mutex::new(Vec::new()));
        let out = SharedSink(sink.clone());
        let h = handle.clone();
        let t = start("test-out", move || pump_out(&h, far, out)).unwrap();
        rt.block_on(near.write_all(&text)).unwrap();
        drop(near);
        t.join().unwrap();
        assert_eq!(*sink.lock().unwrap(), text);
    }

    struct SharedSink(Arc<Mutex<Vec<u8>>>);

    impl Write for SharedSink {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
}
