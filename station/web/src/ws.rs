//! `/ws`: the live event stream, one JSON object per message, exactly as the daemon
//! published it. `/ws?state=1` also sends `{"type":"state","state":…}` on connect
//! and whenever the snapshot changes (the pages use it). A client too slow to keep
//! up gets `{"type":"lagged","missed":N}` and should fetch `/api/state`.
//!
//! The stream is read-only. With the operator token (`?token=…`, or
//! `Authorization: Bearer …`) it counts against the consoles' own budget;
//! without one (the mirror, viewers) against the viewers'; a wrong token is 401.
//! Incoming frames and messages are capped at [`MAX_INCOMING`] (a larger one
//! closes the connection before it is buffered); a client that answers no ping
//! for [`Limits::ws_idle`](super::limits::Limits) or takes no message within the
//! send time-out is closed.

use super::app::{AppState, error, stopped, unauthorized};
use super::auth;
use super::limits::Limits;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use tokio::sync::OwnedSemaphorePermit;
use tokio::sync::broadcast::Receiver;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::watch;
use tokio::time::Instant;

/// The largest frame or message a client may send (the stream takes none it
/// needs; pongs and close frames are small).
pub const MAX_INCOMING: usize = 1024;

/// The upgrade: refuses other origins (403) and wrong tokens (401), and a full
/// budget (503); subscribes before answering so no event published after the
/// handshake is missed.
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
    let query = query.unwrap_or_default();
    let params = || query.split('&').filter(|kv| !kv.is_empty());
    let wants_state = params().any(|kv| matches!(kv, "state" | "state=1" | "state=true"));
    let given = params().find_map(|kv| kv.strip_prefix("token="));
    let operator = match given {
        Some(token) => auth::token_matches(&percent_decode(token), &app.token),
        None => auth::authorized(&headers, &app.token),
    };
    if given.is_some() && !operator {
        return unauthorized();
    }
    let budget = if operator { &app.operators } else { &app.viewers };
    let Ok(permit) = Arc::clone(budget).try_acquire_owned() else {
        let who = if operator { "consoles" } else { "viewers" };
        return error(
            StatusCode::SERVICE_UNAVAILABLE,
            &format!("too many event streams for {who}; try again later"),
        );
    };
    let events = app.hub.subscribe();
    let states = wants_state.then(|| {
        let initial = format!(r#"{{"type":"state","state":{}}}"#, app.hub.snapshot());
        (app.states.subscribe(), initial)
    });
    let stop = app.stop.clone();
    let limits = app.limits;
    upgrade
        .max_frame_size(MAX_INCOMING)
        .max_message_size(MAX_INCOMING)
        .read_buffer_size(4 * 1024)
        .on_upgrade(move |socket| stream(socket, events, states, stop, limits, permit))
        .into_response()
}

/// `%XX` escapes decoded (a token is usually plain hex; this keeps any other working).
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1).copied().and_then(hex), bytes.get(i + 2).copied().and_then(hex)) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b'+', _, _) => {
                out.push(b' ');
                i += 1;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Sends one message; false when it failed or the client did not take it in time.
async fn send(socket: &mut WebSocket, timeout: std::time::Duration, message: Message) -> bool {
    matches!(tokio::time::timeout(timeout, socket.send(message)).await, Ok(Ok(())))
}

async fn next_state(states: &mut Option<Receiver<Arc<str>>>) -> Result<Arc<str>, RecvError> {
    match states {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

async fn stream(
    mut socket: WebSocket,
    mut events: Receiver<Arc<str>>,
    states: Option<(Receiver<Arc<str>>, String)>,
    mut stop: watch::Receiver<bool>,
    limits: Limits,
    _permit: OwnedSemaphorePermit,
) {
    let timeout = limits.ws_send_timeout;
    let mut state_rx = None;
    if let Some((rx, initial)) = states {
        if !send(&mut socket, timeout, Message::Text(initial.into())).await {
            return;
        }
        state_rx = Some(rx);
    }
    let mut heard = Instant::now();
    let mut ping = tokio::time::interval_at(Instant::now() + limits.ws_ping, limits.ws_ping);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let outgoing = tokio::select! {
            biased;
            () = stopped(&mut stop) => {
                let frame = CloseFrame { code: 1001, reason: Utf8Bytes::from_static("station shutting down") };
                let _ = send(&mut socket, timeout, Message::Close(Some(frame))).await;
                return;
            }
            incoming = socket.recv() => match incoming {
                // Over-long frames and messages end here too, as errors.
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {
                    heard = Instant::now();
                    continue;
                }
            },
            _ = ping.tick() => {
                if heard.elapsed() >= limits.ws_idle {
                    let frame = CloseFrame { code: 1000, reason: Utf8Bytes::from_static("idle") };
                    let _ = send(&mut socket, timeout, Message::Close(Some(frame))).await;
                    return;
                }
                Message::Ping(axum::body::Bytes::from_static(b"station"))
            }
            event = events.recv() => match event {
                Ok(text) => Message::Text(Utf8Bytes::from(&*text)),
                Err(RecvError::Lagged(n)) => Message::Text(format!(r#"{{"type":"lagged","missed":{n}}}"#).into()),
                Err(RecvError::Closed) => return,
            },
            state = next_state(&mut state_rx) => match state {
                Ok(text) => Message::Text(Utf8Bytes::from(&*text)),
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => return,
            },
        };
        if !send(&mut socket, timeout, outgoing).await {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn query_tokens_are_percent_decoded() {
        assert_eq!(super::percent_decode("ab%2Fc%3d+d"), "ab/c= d");
        assert_eq!(super::percent_decode("abc%"), "abc%");
        assert_eq!(super::percent_decode("%zz"), "%zz");
    }
}
