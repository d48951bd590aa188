//! `station hall`: subscribes to every board of a hall and serves `/hall`,
//! `/hall.pgn` and `/api/hall` (read-only; the arbiter's token acknowledges alerts).

use super::view::Hall;
use super::{BrokerUrl, check_name, read_credentials};
use anyhow::{Context, Result};
use rumqttc::{Client, Event as MqttEvent, MqttOptions, Packet, QoS};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

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

/// At most this many requests are served at once.
const MAX_CONNECTIONS: usize = 64;
/// The largest request head taken.
const MAX_HEAD: usize = 16 * 1024;

const PAGE: &str = include_str!("hall.html");

/// Runs until SIGINT or SIGTERM.
pub fn hall(opts: HallOptions) -> Result<()> {
    check_name("hall", &opts.hall)?;
    let url = BrokerUrl::parse(&opts.broker)?;
    let transport = super::transport(&url, opts.ca_file.as_deref())?;
    let stop = crate::signals::stop_flag()?;
    let hall = Arc::new(Mutex::new(Hall::new(&opts.hall)));
    let listener =
        TcpListener::bind(&opts.listen).with_context(|| format!("cannot listen on {}", opts.listen))?;
    let addr = listener.local_addr()?;
    let token = opts.token.clone().unwrap_or_else(crate::token::new_token);
    println!("hall: http://{addr}/hall  (arbiter token: {token})");
    println!("pgn:  http://{addr}/hall.pgn");
    println!("api:  http://{addr}/api/hall");
    let web_hall = Arc::clone(&hall);
    let web_stop = Arc::clone(&stop);
    std::thread::Builder::new()
        .name("hall-web".into())
        .spawn(move || serve_http(listener, web_hall, token, &web_stop))?;
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
    Ok(())
}

fn serve_http(listener: TcpListener, hall: Arc<Mutex<Hall>>, token: String, stop: &AtomicBool) {
    let busy = Arc::new(AtomicUsize::new(0));
    let token = Arc::new(token);
    for stream in listener.incoming() {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let Ok(stream) = stream else { continue };
        if busy.load(Ordering::Relaxed) >= MAX_CONNECTIONS {
            drop(stream);
            continue;
        }
        busy.fetch_add(1, Ordering::Relaxed);
        let (hall, token, count) = (Arc::clone(&hall), Arc::clone(&token), Arc::clone(&busy));
        let spawned = std::thread::Builder::new().name("hall-request".into()).spawn(move || {
            if let Err(e) = serve_one(stream, &hall, &token) {
                tracing::debug!(error = %e, "hall: request");
            }
            count.fetch_sub(1, Ordering::Relaxed);
        });
        if spawned.is_err() {
            busy.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// One request, answered and closed.
fn serve_one(stream: TcpStream, hall: &Mutex<Hall>, token: &str) -> Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    stream.set_write_timeout(Some(Duration::from_secs(5)))?;
    let mut reader = BufReader::new(stream.try_clone()?.take(MAX_HEAD as u64 + 4096));
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut headers = Vec::new();
    let mut head_len = request_line.len();
    loop {
        let mut line = String::new();
        let n = reader.read_line(&mut line)?;
        head_len += n;
        if n == 0 || line == "\r\n" || line == "\n" || head_len > MAX_HEAD {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_owned()));
        }
    }
    let header = |name: &str| headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let path = target.split('?').next().unwrap_or("");
    let mut out = stream;
    if head_len > MAX_HEAD {
        return respond(&mut out, 431, "text/plain", b"request head too large\n");
    }
    let lock = || hall.lock().map_err(|_| anyhow::anyhow!("hall state poisoned"));
    match (method, path) {
        ("GET", "/hall") | ("GET", "/") => {
            respond(&mut out, 200, "text/html; charset=utf-8", PAGE.as_bytes())
        }
        ("GET", "/hall.pgn") => {
            let pgn = lock()?.pgn();
            respond(&mut out, 200, "application/x-chess-pgn; charset=utf-8", pgn.as_bytes())
        }
        ("GET", "/api/hall") => {
            let json = lock()?.json().to_string();
            respond(&mut out, 200, "application/json", json.as_bytes())
        }
        ("POST", "/api/hall/ack") => {
            let given = header("authorization").and_then(|v| v.strip_prefix("Bearer ")).unwrap_or("");
            if !token_matches(given, token) {
                return respond(&mut out, 401, "text/plain", b"the arbiter's token is required\n");
            }
            let len: usize = header("content-length").and_then(|v| v.parse().ok()).unwrap_or(0);
            if len > 4096 {
                return respond(&mut out, 413, "text/plain", b"body too large\n");
            }
            let mut body = vec![0; len];
            reader.read_exact(&mut body)?;
            let id = serde_json::from_slice::<serde_json::Value>(&body)
                .ok()
                .and_then(|v| v.get("alert").and_then(serde_json::Value::as_u64));
            match id {
                Some(id) if lock()?.acknowledge(id) => {
                    respond(&mut out, 200, "application/json", b"{\"ok\":true}")
                }
                Some(_) => respond(&mut out, 404, "text/plain", b"no such alert\n"),
                None => respond(&mut out, 400, "text/plain", b"expected {\"alert\": ID}\n"),
            }
        }
        _ => respond(&mut out, 404, "text/plain", b"not found\n"),
    }
}

fn respond(out: &mut TcpStream, status: u16, kind: &str, body: &[u8]) -> Result<()> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        413 => "Payload Too Large",
        _ => "Request Header Fields Too Large",
    };
    let head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    out.write_all(head.as_bytes())?;
    out.write_all(body)?;
    out.flush()?;
    Ok(())
}

/// Compares the given token with the arbiter's in time independent of where they differ.
fn token_matches(given: &str, token: &str) -> bool {
    use subtle::ConstantTimeEq;
    bool::from(given.as_bytes().ct_eq(token.as_bytes()))
}
