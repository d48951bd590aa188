//! `/ws`: the live event stream, one JSON object per message, exactly as the daemon
//! published it. `/ws?state=1` also sends `{"type":"state","state":…}` on connect
//! and whenever the snapshot changes (the pages use it). A client too slow to keep
//! up gets `{"type":"lagged","missed":N}` and should fetch `/api/state`.

use super::auth;
use super::routes::{AppState, error};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use tokio::sync::broadcast::Receiver;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::watch;

/// The upgrade: refuses other origins (403), subscribes before answering so no
/// event published after the handshake is missed.
pub async fn handler(
    State(app): State<AppState>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    if !auth::same_origin(&headers) {
        return error(StatusCode::FORBIDDEN, "WebSocket from another origin refused");
    }
    let upgrade = match upgrade {
        Ok(u) => u,
        Err(rejection) => return error(rejection.status(), &rejection.body_text()),
    };
    let wants_state =
        query.as_deref().unwrap_or("").split('&').any(|kv| matches!(kv, "state" | "state=1" | "state=true"));
    let events = app.hub.subscribe();
    let states = wants_state.then(|| {
        let initial = format!(r#"{{"type":"state","state":{}}}"#, app.hub.snapshot());
        (app.states.subscribe(), initial)
    });
    let stop = app.stop.clone();
    upgrade.on_upgrade(move |socket| stream(socket, events, states, stop)).into_response()
}

async fn next_state(states: &mut Option<Receiver<Arc<str>>>) -> Result<Arc<str>, RecvError> {
    match states {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

/// Resolves once the server is stopping (holds no lock guard across awaits).
pub async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

async fn stream(
    mut socket: WebSocket,
    mut events: Receiver<Arc<str>>,
    states: Option<(Receiver<Arc<str>>, String)>,
    mut stop: watch::Receiver<bool>,
) {
    let mut state_rx = None;
    if let Some((rx, initial)) = states {
        if socket.send(Message::Text(initial.into())).await.is_err() {
            return;
        }
        state_rx = Some(rx);
    }
    loop {
        let outgoing = tokio::select! {
            biased;
            () = stopped(&mut stop) => {
                let frame = CloseFrame { code: 1001, reason: Utf8Bytes::from_static("station shutting down") };
                let _ = socket.send(Message::Close(Some(frame))).await;
                return;
            }
            event = events.recv() => match event {
                Ok(text) => Utf8Bytes::from(&*text),
                Err(RecvError::Lagged(n)) => Utf8Bytes::from(format!(r#"{{"type":"lagged","missed":{n}}}"#)),
                Err(RecvError::Closed) => return,
            },
            state = next_state(&mut state_rx) => match state {
                Ok(text) => Utf8Bytes::from(&*text),
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => return,
            },
            incoming = socket.recv() => match incoming {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(_)) => continue,
            },
        };
        if socket.send(Message::Text(outgoing)).await.is_err() {
            return;
        }
    }
}
