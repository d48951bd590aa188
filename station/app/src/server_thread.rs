//! A server running on a thread of its own until a watch flag stops it: the
//! handle the web console and the hall's HTTP side share (its address, a
//! clean stop, and the same on drop).

use std::net::SocketAddr;
use std::thread::JoinHandle;
use tokio::sync::watch;

/// A running server's thread and the flag that stops it. Dropping it stops
/// the server and joins its thread.
pub struct ServerThread {
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    thread: Option<JoinHandle<()>>,
    name: &'static str,
}

impl ServerThread {
    /// The handle of `thread`, serving on `addr` until `stop` is set; `name` is for the log.
    pub fn new(
        addr: SocketAddr,
        stop: watch::Sender<bool>,
        thread: JoinHandle<()>,
        name: &'static str,
    ) -> Self {
        ServerThread { addr, stop, thread: Some(thread), name }
    }

    /// The address it listens on (the real port when port 0 was asked for).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Asks the server to stop and waits for its thread (the server gives its
    /// open requests a short grace first).
    pub fn stop_and_join(&mut self) {
        let _ = self.stop.send(true);
        if let Some(thread) = self.thread.take()
            && thread.join().is_err()
        {
            tracing::error!("{}: the server thread panicked", self.name);
        }
    }
}

impl Drop for ServerThread {
    fn drop(&mut self) {
        self.stop_and_join();
    }
}

/// Resolves once a stop was asked for (or the handle is gone).
pub async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}
