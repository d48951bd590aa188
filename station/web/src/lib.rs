//! The web server: the operator console (`/console`, D.2.10), the mirror display for
//! the sighted opponent (`/mirror`, D.2.11), the live game as PGN (`/game.pgn`), the
//! state API (`/api/state`), the event stream (`/ws`), operator commands
//! (`POST /api/command`) and the console's pre-round check (`GET /api/doctor`).
//!
//! It runs on its own tokio runtime in a background thread and meets the daemon loop
//! only through the [`Hub`](crate::hub::Hub). Every request that changes anything
//! needs `Authorization: Bearer TOKEN`; the pages, the PGN, the state and the event
//! stream are read-only and open to anyone who can reach the (by default loopback)
//! address.
//!
//! The pages are in `assets`; `app` holds what `routes` and `ws` share; `limits` derives
//! the server's limits from the open-files limit, and `server` is the accept loop that enforces
//! them (header and body time-outs, a connection cap that closes the oldest idle connection,
//! per-kind `/ws` budgets, 1 KiB frames, pings and an idle close). `station run` hands the server
//! its config and journal folder as a [`DoctorSource`] for the console's pre-round check.

mod app;
mod assets;
mod auth;
mod limits;
mod routes;
mod server;
mod ws;

#[cfg(test)]
mod page_words_tests;
#[cfg(test)]
mod tests;

// The application's modules, under the paths this crate's modules name them by.
use station_app::{doctor, hub, server_thread};
#[cfg(test)]
use station_app::{journal_lock, move_echo};

#[allow(unused_imports, reason = "the daemon may name the pre-round check's config explicitly")]
pub use app::DoctorSource;
#[allow(unused_imports, reason = "the tests and other callers choose their own limits")]
pub use limits::Limits;
#[allow(unused_imports, reason = "the tests and other callers choose their own limits")]
pub use server::{WebServer, start_with_doctor};
#[cfg(test)]
pub use server::{start, start_with_limits};

use std::net::SocketAddr;

/// Largest request body accepted (`413 Payload Too Large` beyond).
pub const MAX_BODY: usize = 64 * 1024;

/// How long `POST /api/command` waits for the daemon loop's answer (`503` after).
pub const COMMAND_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// How the web server is set up.
#[derive(Clone, Debug)]
pub struct WebConfig {
    /// Where to listen; port 0 picks a free port ([`WebServer::addr`] tells which).
    pub listen: SocketAddr,
    /// The operator token: commands need `Authorization: Bearer TOKEN`. Must not be empty.
    pub token: String,
    /// Allow a non-loopback listen address (the config must say so explicitly).
    pub allow_remote: bool,
}

/// Why the web server did not start.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    /// A non-loopback address without `allow_remote`.
    #[error(
        "refusing to serve the console on {0}: not a loopback address \
         (set allow_remote = true in the [console] config to serve other machines)"
    )]
    NotLoopback(SocketAddr),
    /// No operator token.
    #[error("the web server needs an operator token (it is empty)")]
    EmptyToken,
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The runtime or its thread could not be started.
    #[error("cannot start the web server: {0}")]
    Runtime(std::io::Error),
}
