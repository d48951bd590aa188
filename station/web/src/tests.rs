//! HTTP and WebSocket tests of every endpoint, against a real server on a loopback
//! port with a hub whose commands a test thread answers.

use super::{Limits, WebConfig, WebError, WebServer, start, start_with_limits};
use crate::hub::{Hub, OperatorCommand};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

const TOKEN: &str = "test-token-0123";

/// Every one of `needles` is in `text` (`what` names it in the failure).
fn assert_contains_all(text: &str, what: &str, needles: &[&str]) {
    for needle in needles {
        assert!(text.contains(needle), "{what} lacks {needle}");
    }
}

/// `path` is served (200) as `ctype` with `needle` in its body; its headers.
async fn assert_served(
    server: &WebServer,
    path: &str,
    ctype: &str,
    needle: &str,
) -> reqwest::header::HeaderMap {
    let res = reqwest::get(url(server, path)).await.unwrap();
    assert_eq!(res.status(), 200, "{path}");
    assert!(content_type(&res).starts_with(ctype), "{path}: {}", content_type(&res));
    let headers = res.headers().clone();
    assert!(res.text().await.unwrap().contains(needle), "{path} lacks {needle}");
    headers
}

/// A server on 127.0.0.1:0 whose command queue a thread answers: `enter_move e4` →
/// ok, `enter_move slow` → no answer in time, anything else → refused.
fn server() -> (WebServer, Hub) {
    let (hub, commands) = Hub::new();
    std::thread::spawn(move || {
        for request in commands {
            let answer = match &request.command {
                OperatorCommand::EnterMove { mv, .. } if mv == "e4" => Ok(json!({ "ply": 1, "san": "e4" })),
                OperatorCommand::EnterMove { mv, .. } if mv == "slow" => {
                    std::thread::sleep(Duration::from_secs(3));
                    Ok(json!(null))
                }
                // The confirm contract (issue 22 §3) on the start position, as the station reads it.
                OperatorCommand::EnterMove { mv, confirm } => {
                    let pos = shakmaty::Chess::default();
                    match crate::move_echo::echo(&pos, mv, *confirm) {
                        Some(echo) => Ok(echo),
                        None => {
                            station_core::notation::read(&pos, mv).map(|_| json!({ "ok": true })).ok_or_else(
                                || station_core::table::TableError::illegal_move(&pos, 1, mv).to_string(),
                            )
                        }
                    }
                }
                OperatorCommand::ClockStart => Ok(json!({ "running": true })),
                OperatorCommand::ClockPress { side } => Ok(json!({ "pressed": side })),
                other => Err(format!("not now: {other:?}")),
            };
            let _ = request.reply.send(answer);
        }
    });
    let config =
        WebConfig { listen: "127.0.0.1:0".parse().unwrap(), token: TOKEN.into(), allow_remote: false };
    (start(config, hub.clone()).expect("server starts"), hub)
}

fn url(server: &WebServer, path: &str) -> String {
    format!("http://{}{path}", server.addr())
}

/// The body of the page or asset at `path`.
async fn body(server: &WebServer, path: &str) -> String {
    reqwest::get(url(server, path)).await.unwrap().text().await.unwrap()
}

fn content_type(res: &reqwest::Response) -> String {
    res.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned()
}

async fn command(server: &WebServer, auth: Option<&str>, body: impl Into<reqwest::Body>) -> (u16, Value) {
    let req = reqwest::Client::new()
        .post(url(server, "/api/command"))
        .header("content-type", "application/json")
        .body(body);
    answer(req, auth).await
}

/// Sends `req` (with `auth` as its bearer token): the status and the body, as
/// JSON where it is JSON, else as a string.
async fn answer(mut req: reqwest::RequestBuilder, auth: Option<&str>) -> (u16, Value) {
    if let Some(token) = auth {
        req = req.header("authorization", format!("Bearer {token}"));
    }
    let res = req.send().await.expect("request");
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

#[test]
fn refuses_non_loopback_addresses_and_empty_tokens() {
    let (hub, _rx) = Hub::new();
    let remote = WebConfig { listen: "0.0.0.0:0".parse().unwrap(), token: TOKEN.into(), allow_remote: false };
    let err = start(remote, hub.clone()).err().expect("refused");
    assert!(matches!(err, WebError::NotLoopback(_)));
    assert!(err.to_string().contains("allow_remote"), "{err}");
    let lan =
        WebConfig { listen: "192.168.1.20:8080".parse().unwrap(), token: TOKEN.into(), allow_remote: false };
    assert!(matches!(start(lan, hub.clone()), Err(WebError::NotLoopback(_))));
    let empty = WebConfig { listen: "127.0.0.1:0".parse().unwrap(), token: " ".into(), allow_remote: false };
    assert!(matches!(start(empty, hub.clone()), Err(WebError::EmptyToken)));
    let v6 = WebConfig { listen: "[::1]:0".parse().unwrap(), token: TOKEN.into(), allow_remote: false };
    // ::1 is loopback; it may be missing on a machine without IPv6, which is a bind error.
    match start(v6, hub) {
        Ok(s) => assert!(s.addr().ip().is_loopback()),
        Err(e) => assert!(matches!(e, WebError::Bind { .. }), "{e}"),
    }
}

#[tokio::test]
async fn pages_and_assets_are_served_with_their_content_types() {
    let (server, _hub) = server();
    for (path, ctype, needle) in [
        ("/console", "text/html", "<title>"),
        ("/mirror", "text/html", "<title>"),
        ("/", "text/html", "/console"),
        ("/assets/common.js", "text/javascript", "WebSocket"),
        ("/assets/console.js", "text/javascript", "api/command"),
        ("/assets/mirror.js", "text/javascript", "last_move"),
        ("/assets/common.css", "text/css", "focus"),
        ("/assets/console.css", "text/css", "{"),
        ("/assets/mirror.css", "text/css", "{"),
    ] {
        let headers = assert_served(&server, path, ctype, needle).await;
        assert!(headers.contains_key("content-security-policy"), "{path}");
        assert_eq!(headers["x-content-type-options"], "nosniff");
    }
    for path in ["/nope", "/assets/nope.js", "/api", "/console/x"] {
        let res = reqwest::get(url(&server, path)).await.unwrap();
        assert_eq!(res.status(), 404, "{path}");
        let body: Value = res.json().await.unwrap();
        assert!(body["error"].is_string(), "{path}");
    }
    // Changing methods on read-only routes are not allowed.
    let res = reqwest::Client::new().post(url(&server, "/api/state")).send().await.unwrap();
    assert_eq!(res.status(), 405);
}

#[tokio::test]
async fn the_console_has_the_controls_of_a_discrepancy_fix_and_a_new_game() {
    let (server, _hub) = server();
    let html = body(&server, "/console").await;
    // A new game is confirmed in the page (keyboard and screen reader), not in a browser dialog.
    assert_contains_all(
        &html,
        "the console",
        &[
            r#"id="new-confirm""#,
            r#"id="new-confirm-yes""#,
            r#"id="new-confirm-no""#,
            r#"id="press-side""#,
            r#"aria-keyshortcuts="Alt+Q""#,
            r#"id="alerts" class="alerts" role="alert" aria-live="assertive""#,
        ],
    );
    let js = body(&server, "/assets/console.js").await;
    assert!(!js.contains("window.confirm"), "no browser dialogs: they take the keyboard away from the page");
    assert_contains_all(
        &js,
        "console.js",
        &["discrepancy_progress", "disc-next-", "Read the next correction step", "clock_press"],
    );
}

/// Issue 22: the game's life cycle on the console (players, event, site, round
/// and board for a new game; a result with how it ended, Alt+F), a move said
/// back before it counts, a refusal beside the move field, a new game from the
/// scoresheet so far; every shortcut listed.
#[tokio::test]
async fn the_console_has_the_life_cycle_controls_and_says_refusals_beside_them() {
    let (server, _hub) = server();
    let html = body(&server, "/console").await;
    assert_contains_all(
        &html,
        "the console",
        &[
            r#"id="new-white""#,
            r#"id="new-black""#,
            r#"id="new-event""#,
            r#"id="new-site""#,
            r#"id="new-round""#,
            r#"id="new-board""#,
            r#"id="form-result""#,
            r#"id="result-value" name="result" aria-keyshortcuts="Alt+F""#,
            r#"<option value="1/2-1/2">"#,
            r#"id="result-reason""#,
            r#"<td><kbd>Alt</kbd>+<kbd>F</kbd></td>"#,
            r#"id="move-echo""#,
            r#"id="move-echo-yes""#,
            r#"id="form-move-refusal" class="refusal" role="alert""#,
            r#"aria-describedby="form-move-refusal""#,
            r#"id="setup-offer""#,
            r#"id="game-result""#,
        ],
    );
    assert!(!html.contains("half-move number"), "no ply counts for the arbiter");
    let js = body(&server, "/assets/console.js").await;
    assert_contains_all(
        &js,
        "console.js",
        &[
            "cmd: 'result'",
            "confirm: true",
            "cmd: 'new_game', moves",
            "'white', 'black', 'event', 'site', 'round', 'board'",
        ],
    );
}

#[tokio::test]
async fn the_mirror_shows_its_own_correction_steps_without_controls() {
    let (server, _hub) = server();
    let html = body(&server, "/mirror").await;
    assert!(html.contains(r#"id="fix-steps""#), "the mirror has a place for its correction steps");
    let js = body(&server, "/assets/mirror.js").await;
    assert_contains_all(&js, "mirror.js", &["fix.board === 'mirror'", "draw_offer", "s.adjourned"]);
}

#[tokio::test]
async fn the_mirror_page_has_no_controls() {
    let (server, _hub) = server();
    let html = body(&server, "/mirror").await.to_lowercase();
    for tag in ["<button", "<input", "<select", "<textarea", "<form", "<a "] {
        assert!(!html.contains(tag), "the mirror has {tag}");
    }
    let js = body(&server, "/assets/mirror.js").await;
    assert!(!js.contains("api/command"), "the mirror script sends commands");
}

#[tokio::test]
async fn the_player_page_is_served_read_only_without_a_token() {
    let (server, _hub) = server();
    for (path, ctype, needle) in [
        ("/player", "text/html", r#"id="board""#),
        ("/assets/player.js", "text/javascript", "blind_color"),
        ("/assets/player.css", "text/css", "max-width"),
    ] {
        assert_served(&server, path, ctype, needle).await;
    }
    let html = body(&server, "/player").await.to_lowercase();
    for tag in ["<button", "<input", "<select", "<textarea", "<form", "<a "] {
        assert!(!html.contains(tag), "the player's page has {tag}");
    }
    let js = body(&server, "/assets/player.js").await;
    assert!(!js.contains("api/command") && !js.contains("token"), "the player's page sends no commands");
}

#[tokio::test]
async fn state_and_pgn_come_from_the_hub() {
    let (server, hub) = server();
    let res = reqwest::get(url(&server, "/api/state")).await.unwrap();
    assert_eq!(res.status(), 200);
    assert!(content_type(&res).starts_with("application/json"));
    assert_eq!(res.json::<Value>().await.unwrap(), Value::Null);

    let snapshot = json!({ "game_id": "game-1", "phase": "playing", "moves": [{ "ply": 1, "san": "e4", "uci": "e2e4" }] });
    let pgn = "[Event \"Test\"]\n[Result \"*\"]\n\n1. e4 *\n";
    hub.publish_state(snapshot.clone(), pgn.to_owned());
    let res = reqwest::get(url(&server, "/api/state")).await.unwrap();
    assert_eq!(res.headers()["cache-control"], "no-store");
    assert_eq!(res.json::<Value>().await.unwrap(), snapshot);

    let res = reqwest::get(url(&server, "/game.pgn")).await.unwrap();
    assert_eq!(res.status(), 200);
    assert!(content_type(&res).starts_with("application/x-chess-pgn"), "{}", content_type(&res));
    assert_eq!(res.headers()["access-control-allow-origin"], "*");
    assert_eq!(res.text().await.unwrap(), pgn);
}

#[tokio::test]
async fn commands_need_the_operator_token() {
    let (server, _hub) = server();
    let body = r#"{"cmd":"enter_move","move":"e4"}"#;
    let (status, v) = command(&server, None, body).await;
    assert_eq!(status, 401);
    assert!(v["error"].as_str().unwrap().contains("token"));
    let (status, _) = command(&server, Some("wrong"), body).await;
    assert_eq!(status, 401);
    let (status, _) = command(&server, Some(&TOKEN[..TOKEN.len() - 1]), body).await;
    assert_eq!(status, 401);
    let res = reqwest::Client::new()
        .post(url(&server, "/api/command"))
        .header("authorization", format!("Basic {TOKEN}"))
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401);
    assert_eq!(res.headers()["www-authenticate"], "Bearer");

    let auth =
        |t: &str| reqwest::Client::new().get(url(&server, "/api/auth")).bearer_auth(t.to_owned()).send();
    assert_eq!(auth(TOKEN).await.unwrap().status(), 200);
    assert_eq!(auth("nope").await.unwrap().status(), 401);
    assert_eq!(reqwest::get(url(&server, "/api/auth")).await.unwrap().status(), 401);
}

#[tokio::test]
async fn a_command_makes_the_round_trip() {
    let (server, _hub) = server();
    let (status, v) = command(&server, Some(TOKEN), r#"{"cmd":"enter_move","move":"e4"}"#).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v, json!({ "ok": true, "result": { "ply": 1, "san": "e4" } }));
    let (status, v) = command(&server, Some(TOKEN), r#"{"cmd":"clock_start"}"#).await;
    assert_eq!((status, v["result"]["running"].as_bool()), (200, Some(true)));
    // The assistant presses a player's clock for him (no lever of his own).
    let (status, v) = command(&server, Some(TOKEN), r#"{"cmd":"clock_press","side":"black"}"#).await;
    assert_eq!((status, v["result"]["pressed"].as_str()), (200, Some("black")), "{v}");
    // The station refused it: 422 with its reason.
    let (status, v) = command(&server, Some(TOKEN), r#"{"cmd":"take_back"}"#).await;
    assert_eq!(status, 422);
    assert!(v["error"].as_str().unwrap().contains("not now"), "{v}");
}

#[tokio::test]
async fn bad_json_is_refused_with_a_reason() {
    let (server, _hub) = server();
    for body in [
        "{",
        "",
        "[]",
        r#"{"cmd":"fly"}"#,
        r#"{"cmd":"set_time","side":"white"}"#,
        r#"{"cmd":"enter_move","move":"e4","x":1}"#,
        r#"{"cmd":"new_game","chess960":70000}"#,
        r#"{"cmd":"clock_press"}"#,
        r#"{"cmd":"clock_press","side":1}"#,
    ] {
        let (status, v) = command(&server, Some(TOKEN), body).await;
        assert_eq!(status, 400, "{body}: {v}");
        let reason = v["error"].as_str().unwrap_or_default();
        assert!(reason.starts_with("bad command: "), "{body}: {v}");
        assert!(reason.len() > "bad command: ".len(), "{body}: {v}");
    }
    let (_, v) = command(&server, Some(TOKEN), r#"{"cmd":"fly"}"#).await;
    assert!(v["error"].as_str().unwrap().contains("unknown variant"), "{v}");
}

#[tokio::test]
async fn bodies_over_64_kib_are_refused() {
    let (server, _hub) = server();
    let moves: Vec<String> = (0..20_000).map(|_| "e4".to_owned()).collect();
    let big = json!({ "cmd": "scoresheet", "moves": moves }).to_string();
    assert!(big.len() > 64 * 1024);
    let (status, v) = command(&server, Some(TOKEN), big).await;
    assert_eq!(status, 413, "{v}");
    assert!(v["error"].as_str().unwrap().contains("64 KiB"), "{v}");
    // Under the size limit the body is read, and its moves counted.
    let moves: Vec<String> = (0..6_000).map(|_| "e4".to_owned()).collect();
    let fits = json!({ "cmd": "scoresheet", "moves": moves }).to_string();
    assert!(fits.len() < 64 * 1024);
    let (status, v) = command(&server, Some(TOKEN), fits).await;
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("at most 1200"), "{v}");
    let moves: Vec<String> = (0..1_200).map(|_| "e4".to_owned()).collect();
    let (status, _) =
        command(&server, Some(TOKEN), json!({ "cmd": "scoresheet", "moves": moves }).to_string()).await;
    assert_eq!(status, 422, "answered by the station");
}

#[tokio::test]
async fn a_station_that_does_not_answer_is_503() {
    let (server, _hub) = server();
    let start = Instant::now();
    let (status, v) = command(&server, Some(TOKEN), r#"{"cmd":"enter_move","move":"slow"}"#).await;
    assert_eq!(status, 503, "{v}");
    assert!(v["error"].as_str().unwrap().contains("did not answer"), "{v}");
    assert!(start.elapsed() < Duration::from_millis(2900));
}

#[tokio::test]
async fn a_stopped_station_is_503() {
    let (hub, commands) = Hub::new();
    drop(commands);
    let config =
        WebConfig { listen: "127.0.0.1:0".parse().unwrap(), token: TOKEN.into(), allow_remote: false };
    let server = start(config, hub).unwrap();
    let (status, v) = command(&server, Some(TOKEN), r#"{"cmd":"clock_start"}"#).await;
    assert_eq!(status, 503, "{v}");
}

fn ws_request(
    server: &WebServer,
    query: &str,
    origin: Option<&str>,
) -> tungstenite::handshake::client::Request {
    let mut req = format!("ws://{}/ws{query}", server.addr()).into_client_request().unwrap();
    if let Some(o) = origin {
        req.headers_mut().insert("origin", o.parse().unwrap());
    }
    req
}

#[tokio::test]
async fn websockets_from_other_origins_are_refused() {
    let (server, _hub) = server();
    for origin in ["http://evil.example", "null", "http://127.0.0.1:1"] {
        match tokio_tungstenite::connect_async(ws_request(&server, "", Some(origin))).await {
            Err(tungstenite::Error::Http(res)) => assert_eq!(res.status(), 403, "{origin}"),
            other => panic!("{origin}: expected 403, got {other:?}"),
        }
    }
    let same = format!("http://{}", server.addr());
    assert!(tokio_tungstenite::connect_async(ws_request(&server, "", Some(&same))).await.is_ok());
    assert!(tokio_tungstenite::connect_async(ws_request(&server, "", None)).await.is_ok());
    // A plain GET is not an upgrade.
    let res = reqwest::get(url(&server, "/ws")).await.unwrap();
    assert!(res.status().is_client_error());
}

async fn next_text(
    ws: &mut tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
) -> Value {
    let msg = tokio::time::timeout(Duration::from_secs(2), ws.next()).await.expect("a message in time");
    match msg {
        Some(Ok(tungstenite::Message::Text(t))) => serde_json::from_str(&t).unwrap(),
        other => panic!("expected text, got {other:?}"),
    }
}

#[tokio::test]
async fn events_stream_in_order_and_state_follows() {
    let (server, hub) = server();
    let (mut plain, _) = tokio_tungstenite::connect_async(ws_request(&server, "", None)).await.unwrap();
    let (mut with_state, _) =
        tokio_tungstenite::connect_async(ws_request(&server, "?state=1", None)).await.unwrap();
    let first = next_text(&mut with_state).await;
    assert_eq!(first["type"], "state");
    assert_eq!(first["state"], Value::Null);
    for i in 0..100 {
        hub.publish_event(
            &json!({ "type": "touch", "board": "blind", "square": "g1", "piece": "N", "t_ms": i })
                .to_string(),
        );
    }
    for i in 0..100 {
        let e = next_text(&mut plain).await;
        assert_eq!((e["type"].as_str(), e["t_ms"].as_i64()), (Some("touch"), Some(i)));
    }
    hub.publish_state(json!({ "phase": "playing" }), String::new());
    // The state stream interleaves the events with state updates.
    let mut seen = 0;
    let mut got_state = false;
    while !(got_state && seen == 100) {
        let m = next_text(&mut with_state).await;
        match m["type"].as_str() {
            Some("touch") => {
                assert_eq!(m["t_ms"], seen);
                seen += 1;
            }
            Some("state") => got_state |= m["state"]["phase"] == "playing",
            other => panic!("unexpected {other:?}"),
        }
    }
    // Clients may talk (ignored) and close.
    plain.send(tungstenite::Message::Text("hello".into())).await.unwrap();
    plain.close(None).await.unwrap();
}

#[tokio::test]
async fn shutdown_closes_streams_and_frees_the_port() {
    let (server, _hub) = server();
    let addr = server.addr();
    let (mut ws, _) = tokio_tungstenite::connect_async(ws_request(&server, "", None)).await.unwrap();
    let start = Instant::now();
    server.shutdown();
    assert!(start.elapsed() < Duration::from_secs(3), "shutdown took {:?}", start.elapsed());
    match tokio::time::timeout(Duration::from_secs(2), ws.next()).await.unwrap() {
        Some(Ok(tungstenite::Message::Close(Some(frame)))) => assert_eq!(u16::from(frame.code), 1001),
        None | Some(Err(_)) | Some(Ok(tungstenite::Message::Close(None))) => {}
        other => panic!("expected a close, got {other:?}"),
    }
    assert!(reqwest::get(format!("http://{addr}/api/state")).await.is_err());
}

/// A server like [`server`] with the given limits.
fn server_with(limits: Limits) -> WebServer {
    let (hub, commands) = Hub::new();
    std::thread::spawn(move || {
        for request in commands {
            let _ = request.reply.send(Ok(json!(null)));
        }
    });
    let config =
        WebConfig { listen: "127.0.0.1:0".parse().unwrap(), token: TOKEN.into(), allow_remote: false };
    start_with_limits(config, limits, hub).expect("server starts")
}

/// Short limits: small caps, time-outs in fractions of a second.
fn tight() -> Limits {
    Limits {
        http_connections: 4,
        viewer_streams: 2,
        operator_streams: 1,
        header_timeout: Duration::from_millis(300),
        body_timeout: Duration::from_millis(300),
        ws_ping: Duration::from_millis(100),
        ws_idle: Duration::from_millis(300),
        ws_send_timeout: Duration::from_millis(500),
    }
}

/// Reads until the server closes the connection (or `limit` passes: `false`).
async fn closed_within(stream: &mut tokio::net::TcpStream, limit: Duration) -> bool {
    let mut buf = vec![0u8; 64 * 1024];
    let deadline = Instant::now() + limit;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => continue,
            Err(_) => return false,
        }
    }
}

/// A raw WebSocket handshake on `/ws{query}`; returns the stream after the 101.
async fn raw_ws(server: &WebServer, query: &str) -> tokio::net::TcpStream {
    let mut stream = tokio::net::TcpStream::connect(server.addr()).await.unwrap();
    let request = format!(
        "GET /ws{query} HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        server.addr()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        assert_eq!(stream.read(&mut byte).await.unwrap(), 1, "the handshake answer");
        head.push(byte[0]);
    }
    assert!(head.starts_with(b"HTTP/1.1 101"), "{}", String::from_utf8_lossy(&head));
    stream
}

#[tokio::test]
async fn unknown_fields_and_overlong_texts_are_400() {
    let (server, _hub) = server();
    let long = "x".repeat(30_000);
    for (body, reason) in [
        (r#"{"cmd":"take_back","ply":1}"#.to_owned(), "unknown field `ply`"),
        (r#"{"cmd":"clock_start","force":true}"#.to_owned(), "unknown field `force`"),
        (r#"{"cmd":"resume_adjourned","x":null}"#.to_owned(), "unknown field `x`"),
        (r#"{"cmd":"adjourn","sealed_move":"e4","show":true}"#.to_owned(), "unknown field `show`"),
        (json!({"cmd":"set_time","side":"white","ms":1,"who":long}).to_string(), "`who` is 30000 characters"),
        (json!({"cmd":"set_moves","moves":1,"why":long}).to_string(), "`why` is 30000 characters"),
        (json!({"cmd":"spoken","text":long}).to_string(), "`text` is 30000 characters"),
        (json!({"cmd":"enter_move","move":"e4\nx"}).to_string(), "control character"),
        (json!({"cmd":"set_time","side":"white","ms":1,"who":"A\u{1b}[2J"}).to_string(), "control character"),
        (json!({"cmd":"draw_offer","side":"white-ish"}).to_string(), "`side`"),
        (json!({"cmd":"spoken","text":"e4","confidence":7.0}).to_string(), "confidence"),
    ] {
        let (status, v) = command(&server, Some(TOKEN), body.clone()).await;
        assert_eq!(status, 400, "{}: {v}", &body[..body.len().min(80)]);
        assert!(v["error"].as_str().unwrap().contains(reason), "{reason}: {v}");
    }
    // Within the bounds they pass on to the station.
    let ok = json!({"cmd":"set_time","side":"white","ms":1,"who":"Arbiter Ägidius","why":"Article 6.14"});
    assert_eq!(command(&server, Some(TOKEN), ok.to_string()).await.0, 422);
}

#[tokio::test]
async fn foreign_host_names_are_refused() {
    let (server, _hub) = server();
    let port = server.addr().port();
    let get =
        |host: String| reqwest::Client::new().get(url(&server, "/api/state")).header("host", host).send();
    for host in [format!("evil.example:{port}"), format!("127.0.0.1.nip.example:{port}"), "rebind.me".into()]
    {
        let res = get(host.clone()).await.unwrap();
        assert_eq!(res.status(), 421, "{host}");
    }
    for host in [format!("127.0.0.1:{port}"), format!("localhost:{port}"), format!("[::1]:{port}")] {
        assert_eq!(get(host.clone()).await.unwrap().status(), 200, "{host}");
    }
    // The pages and the event stream too.
    let res =
        reqwest::Client::new().get(url(&server, "/console")).header("host", "evil.example").send().await;
    assert_eq!(res.unwrap().status(), 421);
    let mut req = ws_request(&server, "", None);
    req.headers_mut().insert("host", "evil.example".parse().unwrap());
    match tokio_tungstenite::connect_async(req).await {
        Err(tungstenite::Error::Http(res)) => assert_eq!(res.status(), 421),
        other => panic!("expected 421, got {other:?}"),
    }
}

#[tokio::test]
async fn a_frame_over_1_kib_cuts_the_client_off() {
    let server = server_with(Limits { ws_ping: Duration::from_secs(60), ..tight() });
    let mut stream = raw_ws(&server, "").await;
    // A masked binary frame announcing 10 MiB, then the start of its payload.
    let mut frame = vec![0x82, 0x80 | 127];
    frame.extend_from_slice(&(10u64 << 20).to_be_bytes());
    frame.extend_from_slice(&[1, 2, 3, 4]);
    frame.extend_from_slice(&[0u8; 4096]);
    let _ = stream.write_all(&frame).await;
    assert!(closed_within(&mut stream, Duration::from_secs(2)).await, "the client is cut off");
    // A small message is fine (and ignored); the stream stays open.
    let (mut ws, _) = tokio_tungstenite::connect_async(ws_request(&server, "", None)).await.unwrap();
    ws.send(tungstenite::Message::Text("hello".into())).await.unwrap();
    let over = "x".repeat(1025);
    ws.send(tungstenite::Message::Text(over.into())).await.unwrap();
    let end =
        tokio::time::timeout(Duration::from_secs(2), async { while let Some(Ok(_)) = ws.next().await {} })
            .await;
    assert!(end.is_ok(), "a 1025-byte message closes the stream");
}

#[tokio::test]
async fn event_streams_are_capped_per_kind_and_the_token_is_checked() {
    let server = server_with(Limits { ws_ping: Duration::from_secs(60), ..tight() });
    let connect = |query: &str| tokio_tungstenite::connect_async(ws_request(&server, query, None));
    let _a = connect("").await.unwrap();
    let _b = connect("").await.unwrap();
    match connect("").await {
        Err(tungstenite::Error::Http(res)) => assert_eq!(res.status(), 503, "a third viewer"),
        other => panic!("expected 503, got {other:?}"),
    }
    // The console (with the token) has a budget of its own.
    let console = connect(&format!("?state=1&token={TOKEN}")).await;
    assert!(console.is_ok(), "the operator's stream while the viewers' budget is full");
    match connect("?token=wrong").await {
        Err(tungstenite::Error::Http(res)) => assert_eq!(res.status(), 401),
        other => panic!("expected 401, got {other:?}"),
    }
    // A closed stream gives its place back.
    drop(_a);
    let start = Instant::now();
    while connect("").await.is_err() {
        assert!(start.elapsed() < Duration::from_secs(2), "the place is given back");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_client_that_answers_no_ping_is_closed() {
    let server = server_with(tight());
    // Never reads, so never answers a ping.
    let mut silent = raw_ws(&server, "").await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert!(closed_within(&mut silent, Duration::from_secs(2)).await, "closed as idle");
    // A client that reads answers the pings (tungstenite does) and stays.
    let (mut ws, _) = tokio_tungstenite::connect_async(ws_request(&server, "", None)).await.unwrap();
    let pings = tokio::time::timeout(Duration::from_millis(900), async {
        let mut pings = 0;
        while let Some(Ok(m)) = ws.next().await {
            pings += usize::from(m.is_ping());
        }
        pings
    })
    .await;
    assert!(pings.is_err(), "the answering client is still open after 900 ms: {pings:?}");
}

#[tokio::test]
async fn slow_headers_time_out_and_idle_connections_make_room() {
    let server = server_with(tight());
    // Headers that never end are cut after the header time-out.
    let mut slow = tokio::net::TcpStream::connect(server.addr()).await.unwrap();
    slow.write_all(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n").await.unwrap();
    let start = Instant::now();
    assert!(closed_within(&mut slow, Duration::from_secs(3)).await, "closed");
    assert!(start.elapsed() >= Duration::from_millis(250), "{:?}", start.elapsed());
    // More idle connections than the cap: the console still answers at once.
    let mut idle = Vec::new();
    for _ in 0..20 {
        idle.push(tokio::net::TcpStream::connect(server.addr()).await.unwrap());
    }
    let res = tokio::time::timeout(Duration::from_secs(1), reqwest::get(url(&server, "/console"))).await;
    assert_eq!(res.expect("an answer while idle connections fill the cap").unwrap().status(), 200);
}

#[tokio::test]
async fn a_command_body_that_never_ends_is_408() {
    let server = server_with(tight());
    let mut stream = tokio::net::TcpStream::connect(server.addr()).await.unwrap();
    let head = format!(
        "POST /api/command HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {TOKEN}\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"cmd\":",
        server.addr()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let start = Instant::now();
    let mut answer = vec![0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(3), stream.read(&mut answer))
        .await
        .expect("an answer")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(start.elapsed() >= Duration::from_millis(250), "{:?}", start.elapsed());
}

/// Issue 22 §3: a move whose reading needed more than its exact notation is
/// echoed back and changes nothing; with `"confirm": true` it counts; a text
/// that names no move is refused with the reason in the arbiter's words.
#[tokio::test]
async fn a_move_read_with_a_liberty_is_echoed_back_before_it_counts() {
    let (server, _hub) = server();
    let (status, body) = command(&server, Some(TOKEN), r#"{"cmd":"enter_move","move":"nf3"}"#).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["ok"], false, "{body}");
    assert_eq!(body["confirm"], true, "{body}");
    assert_eq!(body["san"], "Nf3");
    assert_eq!(body["number"], "1.");
    assert_eq!(body["text"], "1. Nf3");
    assert_eq!(body["needed"], json!(["a piece letter in lower case"]));
    assert!(body["words"].as_str().is_some_and(|w| !w.is_empty()), "{body}");
    let (status, body) =
        command(&server, Some(TOKEN), r#"{"cmd":"enter_move","move":"nf3","confirm":true}"#).await;
    assert_eq!((status, &body["ok"], &body["result"]["ok"]), (200, &json!(true), &json!(true)), "{body}");
    let (status, body) = command(&server, Some(TOKEN), r#"{"cmd":"enter_move","move":"Nf3"}"#).await;
    assert_eq!(
        (status, &body["result"]["ok"]),
        (200, &json!(true)),
        "the exact notation counts at once: {body}"
    );
    let (status, body) = command(&server, Some(TOKEN), r#"{"cmd":"enter_move","move":"Ke9"}"#).await;
    assert_eq!((status, body["error"].as_str()), (422, Some("1. Ke9: the king cannot go there")));
    let (status, body) = command(&server, Some(TOKEN), r#"{"cmd":"enter_move","move":"e5"}"#).await;
    assert_eq!((status, body["error"].as_str()), (422, Some("1. e5: no pawn can go to e5")));
    let (status, _) =
        command(&server, Some(TOKEN), r#"{"cmd":"enter_move","move":"nf3","confirm":"yes"}"#).await;
    assert_eq!(status, 400, "confirm is a boolean");
}

/// A server whose pre-round check runs on `source` (the hub answers nothing).
fn doctor_server(source: Option<super::DoctorSource>) -> (WebServer, Hub) {
    let (hub, _commands) = Hub::new();
    let config =
        WebConfig { listen: "127.0.0.1:0".parse().unwrap(), token: TOKEN.into(), allow_remote: false };
    let server = super::start_with_doctor(config, Limits::for_this_process(), hub.clone(), source)
        .expect("server starts");
    (server, hub)
}

async fn get_doctor(server: &WebServer, auth: Option<&str>) -> (u16, Value) {
    answer(reqwest::Client::new().get(url(server, "/api/doctor")), auth).await
}

/// A journal folder and a config using it: no boards, speech in, no sound,
/// a clock without a lever (a warning), so the findings are known without
/// hardware.
fn doctor_config(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("station-web-doctor-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let journal = dir.join("journal");
    std::fs::create_dir_all(&journal).unwrap();
    let config = dir.join("station.toml");
    std::fs::write(
        &config,
        format!(
            "[boards.blind]\ndriver = \"none\"\n[audio.private]\nenabled = false\n\
             [clock]\ntime_control = \"5400+30\"\n[journal]\ndir = \"{}\"\n",
            journal.display()
        ),
    )
    .unwrap();
    (config, journal)
}

#[tokio::test]
async fn the_pre_round_check_answers_the_findings_as_json_with_the_operator_token_only() {
    let (config, journal) = doctor_config("json");
    let (server, _hub) =
        doctor_server(Some(super::DoctorSource { config: config.clone(), journal_dir: None }));
    for auth in [None, Some("wrong-token")] {
        let (status, body) = get_doctor(&server, auth).await;
        assert_eq!(status, 401, "{auth:?}: {body}");
        assert!(body["error"].as_str().unwrap().contains("token"), "{body}");
        assert!(body.get("findings").is_none(), "nothing is told without the token: {body}");
    }
    let (status, body) = get_doctor(&server, Some(TOKEN)).await;
    assert_eq!(status, 200, "{body}");
    let findings = body["findings"].as_array().expect("findings");
    let item = |name: &str| findings.iter().find(|f| f["item"].as_str().unwrap().starts_with(name));
    let first = item("config").expect("the config's line");
    assert_eq!(first["level"], "ok", "{first}");
    assert!(first["found"].as_str().unwrap().contains(&config.display().to_string()), "{first}");
    let clock = item("clock").expect("the clock's line");
    assert_eq!(clock["level"], "warn", "a clock without a lever: {clock}");
    assert!(clock["todo"].as_str().unwrap().contains("[buttons] clock"), "{clock}");
    let journal_line = item("journal").expect("the journal's line");
    assert_eq!(journal_line["level"], "ok", "{journal_line}");
    assert!(journal_line["item"].as_str().unwrap().contains(&journal.display().to_string()));
    for f in findings {
        for key in ["level", "item", "found", "todo"] {
            assert!(f[key].is_string(), "{key} in {f}");
        }
        assert!(["ok", "warn", "fail"].contains(&f["level"].as_str().unwrap()), "{f}");
    }
    let count = |level: &str| findings.iter().filter(|f| f["level"] == level).count();
    assert_eq!(body["counts"], json!({ "ok": count("ok"), "warn": count("warn"), "fail": count("fail") }));
    assert_eq!(
        body["summary"],
        format!("{} ok, {} warn, {} fail", count("ok"), count("warn"), count("fail")),
        "{body}"
    );
    let _ = std::fs::remove_dir_all(config.parent().unwrap());
}

#[tokio::test]
async fn the_stations_own_journal_lock_is_held_by_this_station_not_in_use() {
    let (config, journal) = doctor_config("lock");
    // The journal folder taken by this process, as the running station takes it.
    let lock = crate::journal_lock::JournalLock::take(&journal).unwrap();
    let (server, _hub) = doctor_server(Some(super::DoctorSource {
        config: config.clone(),
        journal_dir: Some(journal.clone()),
    }));
    let (status, body) = get_doctor(&server, Some(TOKEN)).await;
    assert_eq!(status, 200, "{body}");
    let line = body["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["item"].as_str().unwrap().starts_with("journal"))
        .cloned()
        .expect("the journal's line");
    assert_eq!(line["level"], "ok", "{line}");
    assert!(line["found"].as_str().unwrap().contains("held by this station"), "{line}");
    assert!(!line["found"].as_str().unwrap().contains("another station"), "{line}");
    drop(lock);
    let _ = std::fs::remove_dir_all(config.parent().unwrap());
}

#[tokio::test]
async fn a_station_without_a_config_file_says_so_and_one_check_runs_at_a_time() {
    let (server, _hub) = doctor_server(None);
    let (status, body) = get_doctor(&server, Some(TOKEN)).await;
    assert_eq!(status, 503, "{body}");
    assert!(body["error"].as_str().unwrap().contains("station doctor --config"), "{body}");
    // A config whose board opens but never answers: its check waits the
    // board's answer time (seconds), and a second request meanwhile is told
    // to wait, not run beside it.
    use serialport::SerialPort;
    let (_master, slave) = serialport::TTYPort::pair().unwrap();
    let port = slave.name().unwrap();
    drop(slave);
    let dir = std::env::temp_dir().join(format!("station-web-doctor-busy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("station.toml");
    std::fs::write(
        &config,
        format!(
            "[boards.blind]\ndriver = \"pegboard\"\nport = \"{port}\"\n[audio.private]\nenabled = false\n"
        ),
    )
    .unwrap();
    let (server, _hub) =
        doctor_server(Some(super::DoctorSource { config, journal_dir: Some(dir.join("journal")) }));
    let first = get_doctor(&server, Some(TOKEN));
    let second = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        get_doctor(&server, Some(TOKEN)).await
    };
    let ((first_status, first_body), (second_status, second_body)) = tokio::join!(first, second);
    assert_eq!(first_status, 200, "{first_body}");
    assert!(first_body["summary"].as_str().unwrap().ends_with("1 fail"), "the silent board: {first_body}");
    assert_eq!(second_status, 409, "{second_body}");
    assert!(second_body["error"].as_str().unwrap().contains("already running"), "{second_body}");
    let (status, _) = get_doctor(&server, Some(TOKEN)).await;
    assert_eq!(status, 200, "the next check runs once the first is done");
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn the_console_has_the_pre_round_check_panel_with_its_shortcut_and_live_summary() {
    let (server, _hub) = server();
    let html = body(&server, "/console").await;
    assert_contains_all(
        &html,
        "the console",
        &[
            r#"<h2 id="h-doctor" tabindex="-1">Pre-round check"#,
            r#"<button type="button" id="doctor-run" aria-keyshortcuts="Alt+0""#,
            r#"id="doctor-summary" class="doctor-summary" role="status" aria-live="polite""#,
            r#"<ul id="doctor-list" class="doctor-list" aria-labelledby="h-doctor""#,
            "<td><kbd>Alt</kbd>+<kbd>0</kbd></td><td>Pre-round check",
        ],
    );
    let js = body(&server, "/assets/console.js").await;
    assert!(js.contains("'/api/doctor'") && js.contains("0: () => go($('doctor-run'))"), "console.js");
}
