//! The server's life: bind, accept within the limits, run on its own runtime
//! thread, shut down cleanly.
//!
//! The accept loop is our own (hyper's HTTP/1 connection under axum's router)
//! because the limits live at the connection: a request's headers must arrive
//! within [`Limits::header_timeout`] (which also closes a kept-alive connection
//! that sends nothing), and at most [`Limits::http_connections`] are open. When
//! the cap is reached the oldest connection without a request in flight is
//! closed to make room, so idle connections never lock the operator out.

use super::app::{self, AppState, DoctorSource};
use super::limits::Limits;
use super::routes;
use super::{WebConfig, WebError};
use crate::hub::Hub;
use crate::server_thread::ServerThread;
use hyper::service::Service as _;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{Notify, Semaphore, broadcast, watch};

/// How long open connections get to finish after a shutdown was asked for.
const GRACE: Duration = Duration::from_secs(2);

/// A running web server. Dropping it shuts it down too.
pub struct WebServer(ServerThread);

impl WebServer {
    /// The address it listens on (the real port when the config asked for port 0).
    pub fn addr(&self) -> SocketAddr {
        self.0.addr()
    }

    /// Stops accepting, closes the event streams, waits (briefly) for open requests,
    /// and joins the server thread.
    #[allow(dead_code, reason = "the daemon may simply drop the server, which does the same")]
    pub fn shutdown(mut self) {
        self.0.stop_and_join();
    }
}

/// Starts the server with this process's limits and no pre-round check
/// (tests; `station run` gives its config with [`start_with_doctor`]).
#[cfg(test)]
pub fn start(config: WebConfig, hub: Hub) -> Result<WebServer, WebError> {
    start_with_limits(config, Limits::for_this_process(), hub)
}

/// [`start`] with the given limits (tests use short ones).
#[cfg(test)]
pub fn start_with_limits(config: WebConfig, limits: Limits, hub: Hub) -> Result<WebServer, WebError> {
    start_with_doctor(config, limits, hub, None)
}

/// Starts the console and mirror server with `limits`; the console's
/// pre-round check runs on `doctor` (`None`: it answers that there is none).
pub fn start_with_doctor(
    config: WebConfig,
    limits: Limits,
    hub: Hub,
    doctor: Option<DoctorSource>,
) -> Result<WebServer, WebError> {
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
    let state = AppState {
        hub,
        token: Arc::from(config.token.trim()),
        stop: stopped.clone(),
        states,
        limits,
        viewers: Arc::new(Semaphore::new(limits.viewer_streams)),
        operators: Arc::new(Semaphore::new(limits.operator_streams)),
        doctor: doctor.map(Arc::new),
        doctor_running: Arc::new(Semaphore::new(1)),
    };
    let thread = std::thread::Builder::new()
        .name("station-web".into())
        .spawn(move || serve(runtime, listener, state, stopped))
        .map_err(WebError::Runtime)?;
    tracing::info!(
        http_connections = limits.http_connections,
        viewer_streams = limits.viewer_streams,
        operator_streams = limits.operator_streams,
        "web console on http://{addr}/console, mirror on http://{addr}/mirror"
    );
    Ok(WebServer(ServerThread::new(addr, stop, thread, "web server")))
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
        let limits = state.limits;
        let app = routes::router(state);
        let open = Arc::new(Connections::default());
        let mut stop = stopped.clone();
        loop {
            let accepted = tokio::select! {
                biased;
                () = app::stopped(&mut stop) => break,
                accepted = listener.accept() => accepted,
            };
            let stream = match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of descriptors (or a connection reset before we took it): wait
                    // a little rather than spin; the caps make this rare.
                    tracing::warn!("web server: cannot accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            let Some(slot) = open.admit(limits.http_connections) else {
                tracing::debug!("web server: every connection is busy; one more refused");
                continue;
            };
            let _ = stream.set_nodelay(true);
            tokio::spawn(connection(stream, app.clone(), slot, Arc::clone(&open), limits, stopped.clone()));
        }
        // Stopping: the connections close themselves (gracefully, within GRACE).
        let deadline = tokio::time::Instant::now() + GRACE + Duration::from_millis(200);
        while open.len() > 0 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        if open.len() > 0 {
            tracing::warn!("web server: connections still open after {GRACE:?}, closing them");
        }
    });
    runtime.shutdown_timeout(Duration::from_millis(500));
}

/// One HTTP connection, until it closes, is evicted, or the server stops.
async fn connection(
    stream: tokio::net::TcpStream,
    app: axum::Router,
    slot: Slot,
    open: Arc<Connections>,
    limits: Limits,
    mut stop: watch::Receiver<bool>,
) {
    let router = TowerToHyperService::new(app);
    let busy = Arc::clone(&slot.busy);
    let service = hyper::service::service_fn(move |request| {
        let guard = Busy::new(Arc::clone(&busy));
        let answer = router.call(request);
        async move {
            let response = answer.await;
            drop(guard);
            response
        }
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(16 * 1024)
        .keep_alive(true);
    let conn = http.serve_connection(TokioIo::new(stream), service).with_upgrades();
    tokio::pin!(conn);
    tokio::select! {
        result = conn.as_mut() => if let Err(e) = result {
            tracing::debug!("web connection: {e}");
        },
        () = slot.evict.notified() => tracing::debug!("web connection closed to make room"),
        () = app::stopped(&mut stop) => {
            conn.as_mut().graceful_shutdown();
            let _ = tokio::time::timeout(GRACE, conn).await;
        }
    }
    open.remove(slot.id);
}

/// Counts a request in flight on its connection while it lives.
struct Busy(Arc<AtomicUsize>);

impl Busy {
    fn new(count: Arc<AtomicUsize>) -> Busy {
        count.fetch_add(1, Ordering::SeqCst);
        Busy(count)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// An admitted connection: its number (older ones have smaller numbers), its
/// requests in flight, and the signal that closes it.
struct Slot {
    id: u64,
    busy: Arc<AtomicUsize>,
    evict: Arc<Notify>,
}

/// What the registry keeps of an open connection: its requests in flight and its close signal.
type Open = (Arc<AtomicUsize>, Arc<Notify>);

/// The open HTTP connections, oldest first, and the last number given.
#[derive(Default)]
struct Connections {
    inner: Mutex<(u64, BTreeMap<u64, Open>)>,
}

impl Connections {
    /// Admits one more connection; at the cap the oldest idle one is closed to
    /// make room, and when every one is busy the newcomer is refused (`None`).
    fn admit(&self, cap: usize) -> Option<Slot> {
        let mut guard = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let (next, open) = &mut *guard;
        if open.len() >= cap {
            let idle =
                open.iter().find(|(_, (busy, _))| busy.load(Ordering::SeqCst) == 0).map(|(id, _)| *id)?;
            if let Some((_, evict)) = open.remove(&idle) {
                evict.notify_one();
            }
        }
        *next += 1;
        let slot = Slot { id: *next, busy: Arc::default(), evict: Arc::default() };
        open.insert(slot.id, (Arc::clone(&slot.busy), Arc::clone(&slot.evict)));
        Some(slot)
    }

    fn remove(&self, id: u64) {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).1.remove(&id);
    }

    fn len(&self) -> usize {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).1.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_the_cap_the_oldest_idle_connection_makes_room() {
        let open = Connections::default();
        let first = open.admit(2).unwrap();
        let second = open.admit(2).unwrap();
        first.busy.fetch_add(1, Ordering::SeqCst);
        // The first is busy: the second (idle) is closed for the third.
        let third = open.admit(2).unwrap();
        assert_eq!(open.len(), 2);
        assert!(third.id > second.id);
        // Both busy: a fourth is refused.
        third.busy.fetch_add(1, Ordering::SeqCst);
        assert!(open.admit(2).is_none());
        open.remove(first.id);
        assert!(open.admit(2).is_some());
    }
}
