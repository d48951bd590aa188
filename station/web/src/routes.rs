//! The routes: pages, assets, PGN, state, commands; errors as `{"error": "…"}`.

use super::app::{AppState, error, stopped, unauthorized};
use super::{COMMAND_TIMEOUT, MAX_BODY, assets, auth, ws};
use crate::hub::OperatorCommand;
use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;

const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; \
                   frame-ancestors 'none'";

/// Every route of the server.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/console", get(console))
        .route("/mirror", get(mirror))
        .route("/player", get(player))
        .route("/assets/{name}", get(asset))
        .route("/game.pgn", get(pgn))
        .route("/audio/{file}", get(audio))
        .route("/api/state", get(api_state))
        .route("/api/auth", get(api_auth))
        .route("/api/command", post(api_command))
        .route("/api/doctor", get(api_doctor))
        .route("/ws", get(ws::handler))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn(known_host))
        .layer(middleware::map_response(security_headers))
        .with_state(state)
}

fn json_response(value: &Value) -> Response {
    ([(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "no-store")], value.to_string())
        .into_response()
}

/// Refuses a request whose `Host` is a name that could have been rebound to
/// this machine (see [`auth::host_allowed`]).
async fn known_host(request: Request, next: middleware::Next) -> Response {
    if auth::host_allowed(request.headers()) {
        next.run(request).await
    } else {
        error(
            StatusCode::MISDIRECTED_REQUEST,
            "unknown Host: open the console by its IP address (127.0.0.1:PORT) or localhost",
        )
    }
}

async fn security_headers(mut res: Response) -> Response {
    let h = res.headers_mut();
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.entry(header::CONTENT_SECURITY_POLICY).or_insert(HeaderValue::from_static(CSP));
    res
}

fn page(html: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], html)
        .into_response()
}

async fn index() -> Response {
    page(assets::INDEX_HTML)
}

async fn console() -> Response {
    page(assets::CONSOLE_HTML)
}

async fn mirror() -> Response {
    page(assets::MIRROR_HTML)
}

async fn player() -> Response {
    page(assets::PLAYER_HTML)
}

async fn asset(Path(name): Path<String>) -> Response {
    match assets::find(&name) {
        Some((content_type, body)) => {
            ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-cache")], body)
                .into_response()
        }
        None => error(StatusCode::NOT_FOUND, "no such asset"),
    }
}

async fn not_found() -> Response {
    error(StatusCode::NOT_FOUND, "not found")
}

async fn pgn(State(app): State<AppState>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
            (header::ACCESS_CONTROL_ALLOW_ORIGIN, "*"),
        ],
        app.hub.pgn(),
    )
        .into_response()
}

/// The kept sound of one spoken move (D.2.7, `[speech] keep_audio`), listed
/// per ply in `/api/state` `audio`, for the arbiter to play back.
async fn audio(State(app): State<AppState>, Path(file): Path<String>) -> Response {
    let Some(path) = app.hub.audio_file(&file) else {
        return error(StatusCode::NOT_FOUND, "no kept audio of that name in this game");
    };
    match tokio::task::spawn_blocking(move || std::fs::read(path)).await {
        Ok(Ok(bytes)) => ([(header::CONTENT_TYPE, "audio/wav"), (header::CACHE_CONTROL, "no-cache")], bytes)
            .into_response(),
        _ => error(StatusCode::NOT_FOUND, "the kept audio is gone"),
    }
}

async fn api_state(State(app): State<AppState>) -> Response {
    json_response(&app.hub.snapshot())
}

/// `GET /api/auth`: 200 when the bearer token is right (the console checks the token it was given).
async fn api_auth(State(app): State<AppState>, headers: HeaderMap) -> Response {
    if auth::authorized(&headers, &app.token) {
        json_response(&json!({ "ok": true }))
    } else {
        unauthorized()
    }
}

/// `POST /api/command`: an [`OperatorCommand`] as JSON; the daemon loop's answer or an error.
/// The body must arrive whole within the limits' body time-out and size.
async fn api_command(State(app): State<AppState>, headers: HeaderMap, body: Body) -> Response {
    if !auth::authorized(&headers, &app.token) {
        return unauthorized();
    }
    let body = match tokio::time::timeout(app.limits.body_timeout, axum::body::to_bytes(body, MAX_BODY)).await
    {
        Ok(Ok(body)) => body,
        Ok(Err(_)) => {
            return error(
                StatusCode::PAYLOAD_TOO_LARGE,
                &format!("the command is larger than {} KiB", MAX_BODY / 1024),
            );
        }
        Err(_) => {
            return error(
                StatusCode::REQUEST_TIMEOUT,
                &format!("the command did not arrive within {} s", app.limits.body_timeout.as_secs()),
            );
        }
    };
    let command = match OperatorCommand::from_json(&body) {
        Ok(command) => command,
        Err(e) => return error(StatusCode::BAD_REQUEST, &format!("bad command: {e}")),
    };
    // Never `?command`: the sealed move of an adjournment is a secret.
    tracing::info!(command = %command.loggable(), "operator command");
    let reply = match app.hub.command(command) {
        Ok(reply) => reply,
        Err(reason) => return error(StatusCode::SERVICE_UNAVAILABLE, &reason),
    };
    let answer = tokio::task::spawn_blocking(move || reply.recv_timeout(COMMAND_TIMEOUT)).await;
    match answer {
        // A move echoed back for confirmation (issue 22 §3) is the answer itself:
        // `{"ok":false,"confirm":true,…}`; nothing was done.
        Ok(Ok(Ok(result))) if result.get("confirm") == Some(&Value::Bool(true)) => json_response(&result),
        Ok(Ok(Ok(result))) => json_response(&json!({ "ok": true, "result": result })),
        Ok(Ok(Err(reason))) => error(StatusCode::UNPROCESSABLE_ENTITY, &reason),
        Ok(Err(crossbeam_channel::RecvTimeoutError::Timeout)) => error(
            StatusCode::SERVICE_UNAVAILABLE,
            &format!("the station did not answer within {} s", COMMAND_TIMEOUT.as_secs()),
        ),
        Ok(Err(crossbeam_channel::RecvTimeoutError::Disconnected)) => {
            error(StatusCode::SERVICE_UNAVAILABLE, "the station dropped the command")
        }
        Err(_) => error(StatusCode::INTERNAL_SERVER_ERROR, "the command could not be waited for"),
    }
}

/// `GET /api/doctor`: the pre-round check (`station doctor`) of the running
/// station's config, with its own ports, journal lock and audio outputs
/// reported as held by this station. Operator token only: it opens ports and
/// loads models, so one check runs at a time (`409` while one does). The
/// findings in `station doctor`'s order, and the counts of the summary line.
async fn api_doctor(State(app): State<AppState>, headers: HeaderMap) -> Response {
    if !auth::authorized(&headers, &app.token) {
        return unauthorized();
    }
    let Some(source) = app.doctor.clone() else {
        return error(
            StatusCode::SERVICE_UNAVAILABLE,
            "this station was not started with a config file (station run --config FILE): \
             run `station doctor --config FILE` on the station's machine",
        );
    };
    let Ok(_running) = app.doctor_running.clone().try_acquire_owned() else {
        return error(StatusCode::CONFLICT, "a pre-round check is already running: wait for its result");
    };
    // Off the executor: the checks open serial ports, render speech and load
    // speech models, which takes seconds.
    let checked = tokio::task::spawn_blocking(move || {
        let started = std::time::Instant::now();
        let findings = crate::doctor::examine_as(
            crate::doctor::Checker::this_station(),
            &source.config,
            source.journal_dir.as_deref(),
        );
        (findings, started.elapsed(), source)
    })
    .await;
    let Ok((findings, took, source)) = checked else {
        return error(StatusCode::INTERNAL_SERVER_ERROR, "the pre-round check stopped unexpectedly");
    };
    let counts = crate::doctor::Counts::of(&findings);
    json_response(&json!({
        "config": source.config.display().to_string(),
        "findings": findings,
        "counts": counts,
        "summary": format!("{} ok, {} warn, {} fail", counts.ok, counts.warn, counts.fail),
        "ms": u64::try_from(took.as_millis()).unwrap_or(u64::MAX),
    }))
}

/// Watches the hub's snapshot and publishes `{"type":"state",…}` when it changed:
/// after events (drained in batches) and at least every 100 ms.
pub async fn publish_states(app: AppState) {
    let mut events = app.hub.subscribe();
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut stop = app.stop.clone();
    let mut last = String::new();
    loop {
        tokio::select! {
            () = stopped(&mut stop) => return,
            _ = tick.tick() => {}
            _ = events.recv() => while events.try_recv().is_ok() {},
        }
        if app.states.receiver_count() == 0 {
            last.clear();
            continue;
        }
        let snapshot = app.hub.snapshot();
        let text = snapshot.to_string();
        if text != last {
            let message = format!(r#"{{"type":"state","state":{text}}}"#);
            let _ = app.states.send(Arc::from(message));
            last = text;
        }
        // At most ~50 snapshots a second, however fast events come.
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
