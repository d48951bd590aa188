//! The web console under load (`cargo bench -p station-web --bench load`):
//! 50 WebSocket viewers and a 20 requests/s poller on `/game.pgn` while
//! events are published at speed (default 500 a second for 60 s;
//! `WEB_LOAD_SECS`, `WEB_LOAD_RATE`), on the real server over loopback only.
//! Figures: events missed, event-to-client delivery (target p99 under 50 ms)
//! and the poller's answers. Each figure is a line
//! `figure<TAB>name<TAB>value<TAB>unit` on stdout.

use futures_util::StreamExt;
use serde_json::{Value, json};
use station_app::hub::Hub;
use station_web::{Limits, WebConfig, start_with_doctor};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error + Send + Sync>>;

fn figure(name: &str, value: f64, unit: &str) {
    println!("figure\t{name}\t{value:.3}\t{unit}");
}

/// Percentile of sorted values.
fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() -> Result<()> {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?.block_on(load())
}

async fn load() -> Result<()> {
    const VIEWERS: usize = 50;
    let secs: u64 = std::env::var("WEB_LOAD_SECS").ok().and_then(|s| s.parse().ok()).unwrap_or(60);
    let rate: u64 = std::env::var("WEB_LOAD_RATE").ok().and_then(|s| s.parse().ok()).unwrap_or(500);
    let total = secs * rate;
    let (hub, _commands) = Hub::new();
    let config =
        WebConfig { listen: "127.0.0.1:0".parse()?, token: "bench-token-0123".into(), allow_remote: false };
    let server = start_with_doctor(config, Limits::for_this_process(), hub.clone(), None)?;
    let pgn: String = (1..=60).map(|n| format!("{n}. e4 e5 ")).collect::<String>() + "*\n";
    hub.publish_state(json!({ "phase": "playing" }), format!("[Event \"Load\"]\n\n{pgn}"));
    let t0 = Instant::now();

    // Viewers: every event, in order, with its delivery time.
    let mut viewers = Vec::new();
    for _ in 0..VIEWERS {
        let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws", server.addr())).await?;
        viewers.push(tokio::spawn(async move {
            let mut next = 0u64;
            let mut latencies_us = Vec::with_capacity(total as usize);
            let mut missed = 0u64;
            while next < total {
                let Ok(Some(Ok(msg))) = tokio::time::timeout(Duration::from_secs(10), ws.next()).await else {
                    break;
                };
                let tungstenite::Message::Text(text) = msg else { continue };
                let now_ns = t0.elapsed().as_nanos() as u64;
                let v: Value = serde_json::from_str(&text).unwrap();
                if v["type"] == "lagged" {
                    missed += v["missed"].as_u64().unwrap_or(0);
                    continue;
                }
                let seq = v["seq"].as_u64().unwrap();
                missed += seq - next;
                next = seq + 1;
                latencies_us.push((now_ns.saturating_sub(v["sent_ns"].as_u64().unwrap())) / 1000);
            }
            missed += total - next;
            (latencies_us, missed)
        }));
    }

    // The PGN poller: 20 requests a second.
    let pgn_url = format!("http://{}/game.pgn", server.addr());
    let poller = tokio::spawn(async move {
        let client = reqwest::Client::new();
        let mut tick = tokio::time::interval(Duration::from_millis(50));
        let mut times_us = Vec::new();
        let mut failures = 0u32;
        let end = Instant::now() + Duration::from_secs(secs);
        while Instant::now() < end {
            tick.tick().await;
            let start = Instant::now();
            let ok = match client.get(&pgn_url).send().await {
                Ok(res) if res.status() == 200 => res.text().await.is_ok_and(|b| b.ends_with("*\n")),
                _ => false,
            };
            if ok {
                times_us.push(start.elapsed().as_micros() as u64);
            } else {
                failures += 1;
            }
        }
        (times_us, failures)
    });

    // The publisher: `rate` events a second, evenly spaced, from a plain thread.
    let publisher_hub = hub.clone();
    let publisher = std::thread::spawn(move || {
        let start = Instant::now();
        for seq in 0..total {
            let due = start + Duration::from_nanos(seq * 1_000_000_000 / rate);
            if let Some(wait) = due.checked_duration_since(Instant::now()) {
                std::thread::sleep(wait);
            }
            let sent_ns = t0.elapsed().as_nanos() as u64;
            publisher_hub.publish_event(&format!(
                r#"{{"type":"touch","board":"blind","square":"g1","piece":"N","t_ms":{seq},"seq":{seq},"sent_ns":{sent_ns}}}"#
            ));
        }
        start.elapsed()
    });

    let published_in =
        tokio::task::spawn_blocking(move || publisher.join()).await?.map_err(|_| "the publisher panicked")?;
    let mut all = Vec::new();
    let mut missed_total = 0;
    for v in viewers {
        let (lat, missed) = v.await?;
        missed_total += missed;
        all.extend(lat);
    }
    let (mut pgn_times, pgn_failures) = poller.await?;
    all.sort_unstable();
    pgn_times.sort_unstable();
    let (p50, p99, max) = (percentile(&all, 0.50), percentile(&all, 0.99), all.last().copied().unwrap_or(0));
    eprintln!(
        "load: {VIEWERS} viewers, {total} events at {rate}/s in {published_in:.1?}; {} deliveries, {missed_total} missed; \
         event-to-client p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; /game.pgn {} requests, {pgn_failures} failed, \
         p50 {:.2} ms, p99 {:.2} ms",
        all.len(),
        p50 as f64 / 1000.0,
        p99 as f64 / 1000.0,
        max as f64 / 1000.0,
        pgn_times.len(),
        percentile(&pgn_times, 0.5) as f64 / 1000.0,
        percentile(&pgn_times, 0.99) as f64 / 1000.0,
    );
    let name = format!("web console: {VIEWERS} viewers, {rate} events/s for {secs} s");
    figure(&format!("{name}: events missed"), missed_total as f64, "events");
    figure(&format!("{name}: event -> client p50"), p50 as f64 / 1000.0, "ms");
    figure(&format!("{name}: event -> client p99"), p99 as f64 / 1000.0, "ms");
    figure(&format!("{name}: event -> client max"), max as f64 / 1000.0, "ms");
    figure(&format!("{name}: /game.pgn answers (20/s asked)"), pgn_times.len() as f64, "requests");
    figure(&format!("{name}: /game.pgn failures"), f64::from(pgn_failures), "requests");
    figure(&format!("{name}: /game.pgn p50"), percentile(&pgn_times, 0.5) as f64 / 1000.0, "ms");
    figure(&format!("{name}: /game.pgn p99"), percentile(&pgn_times, 0.99) as f64 / 1000.0, "ms");
    if all.len() as u64 != total * VIEWERS as u64 {
        return Err(format!("{} deliveries of {}", all.len(), total * VIEWERS as u64).into());
    }
    Ok(())
}
