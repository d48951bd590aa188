//! The server's life: bind, run on its own runtime thread, shut down cleanly.

use super::routes::{self, AppState};
use super::{WebConfig, WebError};
use crate::hub::Hub;
use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;
use tokio::sync::{broadcast, watch};

/// How long open connections get to finish after a shutdown was asked for.
const GRACE: Duration = Duration::from_secs(2);

/// A running web server. Dropping it shuts it down too.
pub struct WebServer {
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    thread: Option<JoinHandle<()>>,
}

impl WebServer {
    /// The address it listens on (the real port when the config asked for port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops accepting, closes the event streams, waits (briefly) for open requests,
    /// and joins the server thread.
    #[allow(dead_code, reason = "the daemon may simply drop the server, which does the same")]
    pub fn shutdown(mut self) {
        self.stop_and_join();
    }

    fn stop_and_join(&mut self) {
        let _ = self.stop.send(true);
        if let Some(thread) = self.thread.take()
            && thread.join().is_err()
        {
            tracing::error!("the web server thread panicked");
        }
    }
}

impl Drop for WebServer {
    fn drop(&mut self) {
        self.stop_and_join();
    }
}

/// Starts the web server in a background thread with its own tokio runtime.
///
/// Refuses a non-loopback `listen` address unless `allow_remote`, and an empty token.
pub fn start(config: WebConfig, hub: Hub) -> Result<WebServer, WebError> {
    if !config.listen.ip().is_loopback() && !config.allow_remote {
        return Err(WebError::NotLoopback(config.listen));
    }
    if config.token.trim().is_empty() {
        return Err(WebError::EmptyToken);
    }
    let listener = std::net::TcpListener::bind(config.listen)
        .map_err(|source| WebError::Bind { addr: config.listen, source })?;
    let addr = listener.local_addr().map_err(|source| WebError::Bind { addr: config.listen, source })?;
    listener.set_nonblocking(true).map_err(WebError::Runtime)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("station-web")
        .enable_all()
        .build()
        .map_err(WebError::Runtime)?;
    let (stop, stopped) = watch::channel(false);
    let (states, _) = broadcast::channel(64);
    let state = AppState { hub, token: Arc::from(config.token.trim()), stop: stopped.clone(), states };
    let thread = std::thread::Builder::new()
        .name("station-web".into())
        .spawn(move || serve(runtime, listener, state, stopped))
        .map_err(WebError::Runtime)?;
    tracing::info!("web console on http://{addr}/console, mirror on http://{addr}/mirror");
    Ok(WebServer { addr, stop, thread: Some(thread) })
}

fn serve(
    runtime: tokio::runtime::Runtime,
    listener: std::net::TcpListener,
    state: AppState,
    stopped: watch::Receiver<bool>,
) {
    runtime.block_on(async move {
        let listener = match tokio::net::TcpListener::from_std(listener) {
            Ok(l) => l,
            Err(e) => {
                tracing::error!("web server: {e}");
                return;
            }
        };
        tokio::spawn(routes::publish_states(state.clone()));
        let app = routes::router(state);
        let mut graceful = stopped.clone();
        let server = axum::serve(listener, app).with_graceful_shutdown(async move {
            let _ = graceful.wait_for(|s| *s).await;
        });
        let mut deadline = stopped;
        let hard_stop = async move {
            let _ = deadline.wait_for(|s| *s).await;
            tokio::time::sleep(GRACE).await;
        };
        tokio::select! {
            r = server => if let Err(e) = r { tracing::error!("web server: {e}") },
            () = hard_stop => tracing::warn!("web server: connections still open after {GRACE:?}, closing them"),
        }
    });
    runtime.shutdown_timeout(Duration::from_millis(500));
}
