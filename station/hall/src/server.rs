//! `station hall`: subscribes to every board of a hall and serves `/hall`,
//! `/hall.pgn` and `/api/hall` (read-only; the arbiter's token acknowledges alerts).
//!
//! The MQTT side is rumqttc's blocking client on the calling thread; the HTTP
//! side is axum's router on one tokio thread. Both share the [`Hall`] view
//! behind a mutex, held only to apply one message or to render one answer.
//!
//! The accept loop is our own (hyper's HTTP/1 connection under axum's router,
//! as the web console's) rather than `axum::serve`, because the limits live at
//! the connection: at most [`Limits::connections`] are open (one more is
//! closed at once, unanswered, as before), a request head must arrive within
//! [`Limits::header_timeout`] and be at most 16 KiB (`MAX_HEAD`; hyper answers
//! 431 or 400), and a connection carries one request and lasts at most
//! [`Limits::connection_timeout`], so slow clients cannot hold the slots.

use super::view::Hall;
use super::{BrokerUrl, check_name, read_credentials};
use crate::server_thread::{ServerThread, stopped};
use anyhow::{Context, Result, bail};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, FromRequest, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use rumqttc::{Client, Event as MqttEvent, MqttOptions, Packet, QoS};
use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{Semaphore, watch};

/// `station hall` arguments.
pub struct HallOptions {
    /// `mqtt://HOST:PORT`.
    pub broker: String,
    /// The hall's name.
    pub hall: String,
    /// Where to serve.
    pub listen: String,
    /// `USER:PASSWORD` file for the broker.
    pub credentials: Option<PathBuf>,
    /// The arbiter's token (generated and printed when absent).
    pub token: Option<String>,
    /// The broker's CA certificate (PEM) for `mqtts://`.
    pub ca_file: Option<PathBuf>,
}

/// At most this many connections are served at once.
const MAX_CONNECTIONS: usize = 64;
/// The largest request head (request line and headers) taken.
const MAX_HEAD: usize = 16 * 1024;
/// The largest request body taken (`POST /api/hall/ack` carries `{"alert": ID}`).
const MAX_BODY: usize = 4096;
/// How long open connections get to finish after a shutdown was asked for.
const GRACE: Duration = Duration::from_secs(2);

const PAGE: &str = include_str!("hall.html");

/// How much the hall's HTTP server holds open, and for how long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Connections open at once; one more is closed unanswered.
    pub connections: usize,
    /// A request head must have arrived this long after the connection opened.
    pub header_timeout: Duration,
    /// The arbiter's request body must have arrived within this (408 otherwise).
    pub body_timeout: Duration,
    /// A connection (one request and its answer) is closed after this long.
    pub connection_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            connections: MAX_CONNECTIONS,
            header_timeout: Duration::from_secs(5),
            body_timeout: Duration::from_secs(5),
            connection_timeout: Duration::from_secs(30),
        }
    }
}

/// Runs until SIGINT or SIGTERM.
pub fn hall(opts: HallOptions) -> Result<()> {
    check_name("hall", &opts.hall)?;
    let url = BrokerUrl::parse(&opts.broker)?;
    let transport = super::transport(&url, opts.ca_file.as_deref())?;
    let stop = crate::signals::stop_flag()?;
    let hall = Arc::new(Mutex::new(Hall::new(&opts.hall)));
    let listener =
        TcpListener::bind(&opts.listen).with_context(|| format!("cannot listen on {}", opts.listen))?;
    let token = opts.token.clone().unwrap_or_else(crate::token::new_token);
    let server = HallServer::start(listener, Arc::clone(&hall), &token, Limits::default())?;
    let addr = server.addr();
    println!("hall: http://{addr}/hall  (arbiter token: {token})");
    println!("pgn:  http://{addr}/hall.pgn");
    println!("api:  http://{addr}/api/hall");
    let mut mqtt = MqttOptions::new(format!("annexd-hall-view-{}", opts.hall), url.host.clone(), url.port);
    mqtt.set_transport(transport);
    mqtt.set_keep_alive(Duration::from_secs(5));
    // Whatever the broker forwards is read: an oversized payload is dropped by the view, counted.
    mqtt.set_max_packet_size(super::MQTT_MAX_PACKET, 64 * 1024);
    if let Some(path) = &opts.credentials {
        let (user, pass) = read_credentials(path)?;
        mqtt.set_credentials(user, pass);
    }
    let (client, mut connection) = Client::new(mqtt, 1024);
    let topic = format!("annexd/{}/#", opts.hall);
    let mut backoff = Duration::from_millis(100);
    // The last connection problem logged (each new one is logged once, not every retry).
    let mut problem: Option<String> = None;
    while !stop.load(Ordering::Relaxed) {
        match connection.recv_timeout(Duration::from_millis(200)) {
            Ok(Ok(MqttEvent::Incoming(Packet::ConnAck(_)))) => {
                backoff = Duration::from_millis(100);
                problem = None;
                tracing::info!("hall: connected to the broker");
                if let Err(e) = client.try_subscribe(topic.clone(), QoS::AtLeastOnce) {
                    tracing::warn!(error = %e, "hall: cannot subscribe");
                }
                // What was published while this view was away: every station publishes its journal again.
                let _ = client.try_publish(
                    super::replay_topic(&opts.hall),
                    QoS::AtLeastOnce,
                    false,
                    b"{}".to_vec(),
                );
            }
            Ok(Ok(MqttEvent::Incoming(Packet::Publish(p)))) => {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_millis() as u64)
                    .ok();
                let result = hall.lock().map(|mut h| h.on_message_at(&p.topic, &p.payload, now));
                if let Ok(Err(reason)) = result {
                    tracing::warn!(topic = %p.topic, %reason, "hall: message dropped");
                }
            }
            Ok(Ok(_)) => {}
            Ok(Err(e)) => {
                let now = super::connection_problem(&e, &url, opts.ca_file.as_deref());
                if problem.as_ref() != Some(&now) {
                    tracing::warn!(problem = %now, "hall: the broker is away");
                    problem = Some(now);
                }
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(Duration::from_secs(2));
            }
            Err(rumqttc::RecvTimeoutError::Timeout) => {}
            Err(rumqttc::RecvTimeoutError::Disconnected) => break,
        }
    }
    let _ = client.try_disconnect();
    server.shutdown();
    Ok(())
}

/// The hall's running HTTP server. Dropping it shuts it down too.
pub struct HallServer(ServerThread);

impl HallServer {
    /// Serves `hall` on `listener` (already bound, so that its address can be
    /// printed and tests can take port 0); `token` acknowledges alerts.
    pub fn start(
        listener: TcpListener,
        hall: Arc<Mutex<Hall>>,
        token: &str,
        limits: Limits,
    ) -> Result<HallServer> {
        // An empty token would let any `Authorization: Bearer` through.
        if token.trim().is_empty() {
            bail!("the arbiter's token must not be empty");
        }
        let addr = listener.local_addr()?;
        listener.set_nonblocking(true)?;
        // One thread is plenty for a read-mostly page polled by a few arbiters.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("cannot start the hall's HTTP runtime")?;
        let (stop, stopped) = watch::channel(false);
        let app = router(Shared { hall, token: Arc::from(token), body_timeout: limits.body_timeout });
        let thread = std::thread::Builder::new()
            .name("hall-web".into())
            .spawn(move || {
                runtime.block_on(serve(listener, app, limits, stopped));
                runtime.shutdown_timeout(Duration::from_millis(500));
            })
            .context("cannot start the hall's HTTP thread")?;
        Ok(HallServer(ServerThread::new(addr, stop, thread, "hall")))
    }

    /// The address it listens on (the real port when port 0 was asked for).
    pub fn addr(&self) -> SocketAddr {
        self.0.addr()
    }

    /// Stops accepting, lets open requests finish (briefly), and joins the server thread.
    pub fn shutdown(mut self) {
        self.0.stop_and_join();
    }
}

/// Accepts connections within the limits until stopped.
async fn serve(listener: TcpListener, app: Router, limits: Limits, mut stop: watch::Receiver<bool>) {
    let listener = match tokio::net::TcpListener::from_std(listener) {
        Ok(l) => l,
        Err(e) => {
            tracing::error!("hall: cannot serve HTTP: {e}");
            return;
        }
    };
    let slots = Arc::new(Semaphore::new(limits.connections));
    let mut open = tokio::task::JoinSet::new();
    loop {
        let accepted = tokio::select! {
            biased;
            () = stopped(&mut stop) => break,
            accepted = listener.accept() => accepted,
        };
        // Finished connections are reaped here so the set stays small.
        while open.try_join_next().is_some() {}
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of descriptors (or a connection reset before it was taken): wait a little rather than spin.
                tracing::debug!("hall: cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        // At the cap the newcomer is closed unanswered, as the hall always did.
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            tracing::debug!("hall: every connection is busy; one more refused");
            continue;
        };
        open.spawn(connection(stream, app.clone(), limits, stop.clone(), slot));
    }
    let _ = tokio::time::timeout(GRACE + Duration::from_millis(200), async {
        while open.join_next().await.is_some() {}
    })
    .await;
}

/// One connection: one request and its answer, within the limits.
async fn connection(
    stream: tokio::net::TcpStream,
    app: Router,
    limits: Limits,
    mut stop: watch::Receiver<bool>,
    _slot: tokio::sync::OwnedSemaphorePermit,
) {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_header_size(MAX_HEAD)
        .max_buf_size(MAX_HEAD + MAX_BODY)
        // Each answer says `Connection: close`, as it always did; no idle connection holds a slot.
        .keep_alive(false)
        // The answers' header names as before (`Content-Type`, `Cache-Control`), no `Date`.
        .title_case_headers(true)
        .auto_date_header(false);
    let conn = http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app));
    tokio::pin!(conn);
    tokio::select! {
        result = conn.as_mut() => if let Err(e) = result {
            tracing::debug!("hall: request: {e}");
        },
        () = tokio::time::sleep(limits.connection_timeout) => tracing::debug!("hall: a connection took too long"),
        () = stopped(&mut stop) => {
            conn.as_mut().graceful_shutdown();
            let _ = tokio::time::timeout(GRACE, conn).await;
        }
    }
}

/// What every request may read: the view, the arbiter's token and how long his body may take.
#[derive(Clone)]
struct Shared {
    hall: Arc<Mutex<Hall>>,
    token: Arc<str>,
    body_timeout: Duration,
}

impl Shared {
    /// Runs `f` on the view; `None` when a panic left it half-updated (see [`poisoned`]).
    fn with_hall<T>(&self, f: impl FnOnce(&mut Hall) -> T) -> Option<T> {
        self.hall.lock().ok().map(|mut hall| f(&mut hall))
    }
}

/// The answer when the view cannot be read.
fn poisoned() -> Response {
    text(StatusCode::INTERNAL_SERVER_ERROR, "hall state poisoned\n")
}

/// Every route. Each path answers only its method; any other method or path is
/// `404 not found`, as before (`HEAD` is answered like `GET`, without a body).
fn router(shared: Shared) -> Router {
    Router::new()
        .route("/", get(page).fallback(not_found))
        .route("/hall", get(page).fallback(not_found))
        .route("/hall.pgn", get(pgn).fallback(not_found))
        .route("/api/hall", get(api).fallback(not_found))
        .route("/api/hall/ack", post(ack).fallback(not_found))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::map_response(common_headers))
        .with_state(shared)
}

/// Headers on every answer: never cached (the view changes with every move),
/// one request per connection, and the browser's protections for a page that
/// holds the arbiter's token field.
async fn common_headers(mut res: Response) -> Response {
    let h = res.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(header::CONNECTION, HeaderValue::from_static("close"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    res
}

fn reply(status: StatusCode, kind: &'static str, body: impl Into<axum::body::Body>) -> Response {
    (status, [(header::CONTENT_TYPE, kind)], body.into()).into_response()
}

fn text(status: StatusCode, body: &'static str) -> Response {
    reply(status, "text/plain", body)
}

async fn not_found() -> Response {
    text(StatusCode::NOT_FOUND, "not found\n")
}

async fn page() -> Response {
    reply(StatusCode::OK, "text/html; charset=utf-8", PAGE)
}

async fn pgn(State(shared): State<Shared>) -> Response {
    match shared.with_hall(|h| h.pgn()) {
        Some(pgn) => reply(StatusCode::OK, "application/x-chess-pgn; charset=utf-8", pgn),
        None => poisoned(),
    }
}

async fn api(State(shared): State<Shared>) -> Response {
    match shared.with_hall(|h| h.json().to_string()) {
        Some(json) => reply(StatusCode::OK, "application/json", json),
        None => poisoned(),
    }
}

/// `POST /api/hall/ack` with `Authorization: Bearer TOKEN` and `{"alert": ID}`.
/// The token is checked before the body is read, so that only the arbiter can
/// make the server wait for one (at most [`Limits::body_timeout`], 408); a body
/// declared or found over [`MAX_BODY`] is 413, as before.
async fn ack(State(shared): State<Shared>, request: Request) -> Response {
    let given = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().strip_prefix("Bearer "))
        .unwrap_or("");
    if !token_matches(given, &shared.token) {
        return text(StatusCode::UNAUTHORIZED, "the arbiter's token is required\n");
    }
    // The declared length is refused at once (the limit below counts the bytes only as they come).
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|len| len > MAX_BODY as u64) {
        return text(StatusCode::PAYLOAD_TOO_LARGE, "body too large\n");
    }
    let body = match tokio::time::timeout(shared.body_timeout, Bytes::from_request(request, &())).await {
        Ok(Ok(body)) => body,
        Ok(Err(e)) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return text(StatusCode::PAYLOAD_TOO_LARGE, "body too large\n");
        }
        Ok(Err(_)) => return text(StatusCode::BAD_REQUEST, "unreadable body\n"),
        Err(_) => return text(StatusCode::REQUEST_TIMEOUT, "the body did not come\n"),
    };
    let id = serde_json::from_slice::<serde_json::Value>(&body)
        .ok()
        .and_then(|v| v.get("alert").and_then(serde_json::Value::as_u64));
    let Some(id) = id else {
        return text(StatusCode::BAD_REQUEST, "expected {\"alert\": ID}\n");
    };
    match shared.with_hall(|h| h.acknowledge(id)) {
        Some(true) => reply(StatusCode::OK, "application/json", "{\"ok\":true}"),
        Some(false) => text(StatusCode::NOT_FOUND, "no such alert\n"),
        None => poisoned(),
    }
}

/// Compares the given token with the arbiter's in time independent of where they differ.
fn token_matches(given: &str, token: &str) -> bool {
    use subtle::ConstantTimeEq;
    bool::from(given.as_bytes().ct_eq(token.as_bytes()))
}
