//! The web server under attack, end to end against a real `station run` (the
//! blind player's peg board simulated on a pseudo-terminal), from 127.0.0.1
//! only: clients holding 10 MiB WebSocket frames are cut off and the station's
//! memory stays small; 600 idle connections do not lock the console out;
//! commands with unknown fields are 400; a foreign `Host` is refused; the log
//! at info level never holds the sealed move.

use serde_json::{Value, json};
use station_sim::pegboard::{SimOptions, SimPegBoard};
use station_tests::Kill;
use station_tests::browser::{api_state as state, spawn_station};
use station_tests::{pegboard_config, scratch, station_run};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const TOKEN: &str = "limits-test-token-3e91";
/// The issue's ceiling for the station's resident memory under the attack.
const RSS_LIMIT_KIB: u64 = 64 * 1024;

/// The resident memory of a process (`VmRSS`, KiB).
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).expect("VmRSS");
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// How many descriptors a process holds open.
fn open_fds(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count())
}

/// A WebSocket handshake on `/ws` by hand; the stream after the 101.
fn handshake(addr: SocketAddr) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    write!(
        s,
        "GET /ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    .unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        assert_eq!(s.read(&mut byte).unwrap(), 1, "the handshake answer");
        head.push(byte[0]);
    }
    assert!(head.starts_with(b"HTTP/1.1 101"), "{}", String::from_utf8_lossy(&head));
    s
}

/// Starts a masked binary frame that announces 10 MiB and sends up to 1 MiB of
/// it; returns how many payload bytes the station took before it cut us off.
fn start_huge_frame(s: &mut TcpStream) -> usize {
    let mut header = vec![0x82, 0x80 | 127];
    header.extend_from_slice(&(10u64 << 20).to_be_bytes());
    header.extend_from_slice(&[7, 7, 7, 7]);
    if s.write_all(&header).is_err() {
        return 0;
    }
    s.set_write_timeout(Some(Duration::from_secs(2))).unwrap();
    let chunk = vec![0x55u8; 64 * 1024];
    let mut sent = 0;
    while sent < (1 << 20) {
        match s.write(&chunk) {
            Ok(n) if n > 0 => sent += n,
            _ => break,
        }
    }
    sent
}

/// True once the peer has closed the connection (EOF or reset) within `limit`.
fn cut_off(s: &mut TcpStream, limit: Duration) -> bool {
    s.set_read_timeout(Some(Duration::from_millis(200))).unwrap();
    let start = Instant::now();
    let mut buf = [0u8; 4096];
    while start.elapsed() < limit {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
            Err(_) => return true,
        }
    }
    false
}

async fn command(http: &reqwest::Client, base: &str, body: &str) -> (u16, Value) {
    let res = http
        .post(format!("{base}/api/command"))
        .bearer_auth(TOKEN)
        .header("content-type", "application/json")
        .body(body.to_owned())
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

/// A station config on a simulated peg board at `dir/pegboard`: the board's link and the config.
fn limits_config(dir: &Path) -> (PathBuf, PathBuf) {
    let peg_link = dir.join("pegboard");
    let config = pegboard_config(
        dir,
        &peg_link,
        "\n[game]\nsettle_ms = 200\ndebounce_ms = 15\n\n\
             [console]\nlisten = \"127.0.0.1:0\"\n",
    );
    (peg_link, config)
}

/// Starts `command_line` with the token, its log at info level in `log`: the
/// station, its base URL, its pid and its address.
fn start(mut command_line: Command, log: &Path) -> (Kill, String, u32, SocketAddr) {
    command_line
        .args(["--token", TOKEN])
        .env("STATION_LOG", "info")
        .stderr(std::fs::File::create(log).unwrap());
    let (station, base) = spawn_station(command_line);
    let pid = station.id();
    let addr = base.trim_start_matches("http://").parse().unwrap();
    (station, base, pid, addr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_station_holds_against_hostile_web_clients() {
    let dir = scratch("web-limits");
    let (peg_link, config) = limits_config(&dir);
    let _pegs = SimPegBoard::start(SimOptions::new(&peg_link)).unwrap();
    let log = dir.join("station.log");
    let (_station, base, pid, addr) = start(station_run(&config, &dir.join("journal"), None), &log);
    let http = reqwest::Client::new();
    let start = Instant::now();
    while state(&http, &base).await["phase"] != "playing" {
        assert!(start.elapsed() < Duration::from_secs(10), "the game starts on the simulated board");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let baseline = rss_kib(pid);
    eprintln!("station RSS at the start: {baseline} KiB, {} descriptors", open_fds(pid));

    // 25 clients each start a 10 MiB frame: every one is cut off, the memory stays small.
    let attackers = tokio::task::spawn_blocking(move || {
        let mut cut = 0;
        let mut taken = 0;
        for _ in 0..25 {
            let mut s = handshake(addr);
            taken += start_huge_frame(&mut s);
            cut += usize::from(cut_off(&mut s, Duration::from_secs(3)));
        }
        (cut, taken)
    })
    .await
    .unwrap();
    let after_frames = rss_kib(pid);
    eprintln!(
        "25 clients with a 10 MiB frame: {} cut off ({} KiB written into socket buffers before the cut), station RSS {after_frames} KiB",
        attackers.0,
        attackers.1 / 1024
    );
    assert_eq!(attackers.0, 25, "every client with a 10 MiB frame is cut off");
    assert!(after_frames < RSS_LIMIT_KIB, "station RSS {after_frames} KiB after the frames");

    // A small client still gets the stream; a wrong token is 401.
    let ws = format!("ws://{addr}/ws");
    assert!(tokio_tungstenite::connect_async(&ws).await.is_ok(), "a viewer's stream");
    match tokio_tungstenite::connect_async(format!("{ws}?token=wrong")).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(res)) => assert_eq!(res.status(), 401),
        other => panic!("a wrong token on /ws: {other:?}"),
    }

    // 600 idle connections (half of them in the middle of a request's headers):
    // the console still answers, and the station holds a bounded number of them.
    let mut idle = Vec::new();
    for i in 0..600 {
        let mut s = TcpStream::connect(addr).unwrap();
        if i % 2 == 0 {
            let _ = s.write_all(b"GET /console HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        }
        idle.push(s);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let asked = Instant::now();
    let console = tokio::time::timeout(Duration::from_secs(5), http.get(format!("{base}/console")).send())
        .await
        .expect("the console answers within 5 s while 600 connections idle")
        .unwrap();
    let answered = asked.elapsed();
    assert_eq!(console.status(), 200);
    assert!(console.text().await.unwrap().contains("Operator console"));
    let fds = open_fds(pid);
    let after_idle = rss_kib(pid);
    eprintln!(
        "600 idle connections: the console answered in {answered:?}; station {fds} descriptors, RSS {after_idle} KiB"
    );
    assert!(fds < 600, "the station does not hold every idle connection: {fds} descriptors");
    assert!(after_idle < RSS_LIMIT_KIB, "station RSS {after_idle} KiB with 600 idle connections");
    drop(idle);

    // Strict commands: an unknown field is 400 and nothing happens.
    let moves_before = state(&http, &base).await["moves"].clone();
    let (status, v) = command(&http, &base, r#"{"cmd":"take_back","ply":1}"#).await;
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("unknown field `ply`"), "{v}");
    let long = "x".repeat(30_000);
    let (status, v) =
        command(&http, &base, &json!({"cmd":"set_time","side":"white","ms":1000,"who":long}).to_string())
            .await;
    assert_eq!(status, 400, "{v}");
    assert_eq!(state(&http, &base).await["moves"], moves_before);

    // A page of another site whose name was rebound to 127.0.0.1 is refused.
    let res = http.get(format!("{base}/api/state")).header("host", "rebound.example").send().await.unwrap();
    assert_eq!(res.status(), 421);

    // The sealed move never reaches the log (info level, as under systemd).
    let (status, v) = command(&http, &base, r#"{"cmd":"adjourn","sealed_move":"Nh3"}"#).await;
    assert_eq!(status, 200, "{v}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(logged.contains("operator command"), "commands are logged: {logged}");
    assert!(logged.contains("(sealed)"), "the adjournment is logged without its move: {logged}");
    for secret in ["Nh3", "g1h3"] {
        assert!(!logged.contains(secret), "the sealed move {secret} is in the log:\n{logged}");
    }
    let final_rss = rss_kib(pid);
    eprintln!("station RSS at the end: {final_rss} KiB");
    assert!(final_rss < RSS_LIMIT_KIB, "{final_rss} KiB");
}

/// A board whose port is missing is said on the console (its caption and an
/// alert naming the port), not only in a log nobody reads at the default level.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_board_port_is_said_on_the_console() {
    use station_tests::browser::{assert_accessible, open_console, start_chromedriver, text_of, within};
    let dir = scratch("web-missing-port");
    let port = dir.join("no-such-pegboard");
    let config = pegboard_config(&dir, &port, "\n[console]\nlisten = \"127.0.0.1:0\"\n");
    let mut command_line = station_run(&config, &dir.join("journal"), None);
    command_line.args(["--token", TOKEN]).env("STATION_LOG", "error").stderr(std::process::Stdio::null());
    let (_station, base) = spawn_station(command_line);
    let (_driver, driver_url) = start_chromedriver();
    let console = open_console(&driver_url, &dir, &base).await;
    let shown = port.display().to_string();
    within(Duration::from_secs(3), "the board's caption names the missing port", || async {
        let caption = text_of(&console, "board-blind").await;
        caption.contains("NOT CONNECTED") && caption.contains(&shown)
    })
    .await;
    within(Duration::from_secs(6), "an alert names the missing port", || async {
        let alerts = text_of(&console, "alerts").await;
        alerts.contains("is not connected") && alerts.contains(&shown) && alerts.contains("boards.blind.port")
    })
    .await;
    assert_accessible(&console, "the console with its board missing").await;
    console.close().await.unwrap();
}

/// With only 64 descriptors (the issue's set-up), 80 idle connections neither
/// lock the console out nor take the descriptors a replugged board needs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_64_descriptors_idle_connections_leave_room_for_a_replugged_board() {
    let dir = scratch("web-64-fds");
    let (peg_link, config) = limits_config(&dir);
    let pegs = SimPegBoard::start(SimOptions::new(&peg_link)).unwrap();
    // `station run` under a 64-descriptor limit (soft and hard), as the issue found it.
    let run = station_run(&config, &dir.join("journal"), None);
    let log = dir.join("station.log");
    let mut command_line = Command::new("prlimit");
    command_line.arg("--nofile=64:64").arg(run.get_program()).args(run.get_args());
    for (k, v) in run.get_envs() {
        if let Some(v) = v {
            command_line.env(k, v);
        }
    }
    command_line.stdin(std::process::Stdio::null());
    let (_station, base, pid, addr) = start(command_line, &log);
    let http = reqwest::Client::new();
    let connected = |s: &Value| s["boards"][0]["connected"] == json!(true);
    // The state, or the station's log when it does not answer.
    let state = |http: &reqwest::Client, base: &str| {
        let (http, url, log) = (http.clone(), format!("{base}/api/state"), log.clone());
        async move {
            match http.get(url).send().await {
                Ok(res) => res.json::<Value>().await.unwrap(),
                Err(e) => {
                    panic!("{e}; the station's log:\n{}", std::fs::read_to_string(&log).unwrap_or_default())
                }
            }
        }
    };
    let start = Instant::now();
    while !connected(&state(&http, &base).await) {
        assert!(start.elapsed() < Duration::from_secs(10), "the board connects");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let idle: Vec<TcpStream> = (0..80).map(|_| TcpStream::connect(addr).unwrap()).collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let fds = open_fds(pid);
    let console = tokio::time::timeout(Duration::from_secs(5), http.get(format!("{base}/console")).send())
        .await
        .expect("the console answers while 80 connections idle")
        .unwrap();
    assert_eq!(console.status(), 200);
    eprintln!("64-descriptor limit, 80 idle connections: the station holds {fds} descriptors");
    assert!(fds <= 48, "room is left for boards, journal and audio: {fds} of 64 in use");

    // The board is unplugged and plugged in again: it is opened again.
    drop(pegs);
    let start = Instant::now();
    while connected(&state(&http, &base).await) {
        assert!(start.elapsed() < Duration::from_secs(10), "the unplugged board is noticed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let _pegs = SimPegBoard::start(SimOptions::new(&peg_link)).unwrap();
    let start = Instant::now();
    while !connected(&state(&http, &base).await) {
        assert!(start.elapsed() < Duration::from_secs(15), "the replugged board is opened again");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!("the replugged board reconnected in {:?} with 80 idle connections", start.elapsed());
    drop(idle);
}
