//! The `errdex` command line: parses flags, validates them into settings,
//! and wires the library crates together. Exit codes: 0 done, 1 nothing
//! found, 2 an error (bad input, unusable database), 3 a remote that could
//! not be reached (worth another try).

mod cli;
mod commands;
mod printable;
mod progress;

use clap::Parser;
use std::ffi::OsString;
use std::io::Write;

/// Exit code when the command worked but found nothing.
pub const EXIT_NOT_FOUND: i32 = 1;
/// Exit code for errors.
pub const EXIT_ERROR: i32 = 2;

/// An error that knows its exit code.
#[derive(Debug)]
pub(crate) struct Failure {
    pub code: i32,
    pub error: anyhow::Error,
}

impl<E: Into<anyhow::Error>> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure {
            code: EXIT_ERROR,
            error: e.into(),
        }
    }
}

pub(crate) fn not_found(msg: impl std::fmt::Display) -> Failure {
    Failure {
        code: EXIT_NOT_FOUND,
        error: anyhow::anyhow!("{msg}"),
    }
}

/// Logs go to stderr (stdout carries answers, and MCP's protocol), at
/// `info` for errdex's own crates and `warn` for the libraries under them,
/// unless `RUST_LOG` says otherwise.
const DEFAULT_LOG: &str = "warn,errdex=info,errdex_serve=info,errdex_mcp=info,errdex_atlas=info";

/// Sets up logging once per process (a second call, as tests make, keeps
/// the first). Colours only on a terminal. A log that cannot be written is dropped quietly: a server
/// whose stderr was closed keeps serving (reporting the failure would
/// itself write to stderr, which panics).
fn init_logging() {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_LOG));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .log_internal_errors(false)
        .try_init();
}

/// Runs errdex with these arguments; returns the exit code.
pub fn run(args: impl IntoIterator<Item = OsString>) -> i32 {
    init_logging();
    let cli = match cli::Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_ERROR } else { 0 };
        }
    };
    match commands::dispatch(cli) {
        Ok(()) => 0,
        Err(f) => {
            // A closed pipe (`errdex list | head`) is not an error.
            if f.error
                .downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            {
                return 0;
            }
            let mut err = printable::Printable::new(std::io::stderr().lock());
            let _ = writeln!(err, "errdex: {:#}", f.error);
            f.code
        }
    }
}
