//! What the routes and the event stream share: the handlers' state, the error
//! responses and the stop signal. Both depend on this module, never on each other
//! (the routes mount the stream's handler).

use super::limits::Limits;
use crate::hub::Hub;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::{Semaphore, broadcast, watch};

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The daemon's hub.
    pub hub: Hub,
    /// The operator token.
    pub token: Arc<str>,
    /// Becomes true when the server shuts down.
    pub stop: watch::Receiver<bool>,
    /// `{"type":"state","state":…}` messages whenever the snapshot changed (for `/ws?state=1`).
    pub states: broadcast::Sender<Arc<str>>,
    /// The server's limits.
    pub limits: Limits,
    /// The event streams without the operator token (mirrors, viewers).
    pub viewers: Arc<Semaphore>,
    /// The event streams with the operator token (consoles).
    pub operators: Arc<Semaphore>,
    /// What the console's pre-round check runs on (`None`: a station started
    /// without a config file, e.g. the demo).
    pub doctor: Option<Arc<DoctorSource>>,
    /// One pre-round check at a time: it opens ports and loads models.
    pub doctor_running: Arc<Semaphore>,
}

/// What the console's pre-round check (`GET /api/doctor`) checks: the running
/// station's config file and journal folder, as `station doctor` would.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DoctorSource {
    /// The config file the station runs.
    pub config: PathBuf,
    /// Its `--journal-dir`, when given (else the config's `[journal] dir`).
    pub journal_dir: Option<PathBuf>,
}

/// `{"error": reason}` with a status.
pub fn error(status: StatusCode, reason: &str) -> Response {
    (status, axum::Json(json!({ "error": reason }))).into_response()
}

/// 401 with `WWW-Authenticate: Bearer`.
pub fn unauthorized() -> Response {
    let mut res =
        error(StatusCode::UNAUTHORIZED, "operator token missing or wrong (Authorization: Bearer TOKEN)");
    res.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    res
}

pub use crate::server_thread::stopped;
