//! What the hall tests share: a real Mosquitto on a free port of 127.0.0.1,
//! the real `station hall` view with its log in a file, and plain HTTP reads.

use serde_json::Value;
use station_tests::{Kill, station_bin, wait_for};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// A port nobody listens on now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Mosquitto on 127.0.0.1:`port` with `extra` lines of configuration (anonymous
/// and without persistence unless `extra` says otherwise); its log in `dir`.
pub fn mosquitto(dir: &Path, port: u16, extra: &str) -> Kill {
    mosquitto_conf(
        dir,
        port,
        &format!("user root\nlistener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n{extra}"),
    )
}

/// Mosquitto with the whole configuration `text`, which listens on
/// 127.0.0.1:`port`; its log in `dir`. Returns once it accepts connections.
pub fn mosquitto_conf(dir: &Path, port: u16, text: &str) -> Kill {
    let conf = dir.join(format!("mosquitto-{port}.conf"));
    std::fs::write(&conf, text).unwrap();
    let log = std::fs::File::create(dir.join(format!("mosquitto-{port}.log"))).unwrap();
    let child = Kill::spawn(Command::new("mosquitto").arg("-c").arg(&conf).stdout(Stdio::null()).stderr(log));
    wait_for(Duration::from_secs(10), "mosquitto listening", || TcpStream::connect(("127.0.0.1", port)).ok());
    child
}

/// `station hall --hall HALL --broker BROKER` with `extra` arguments, its log
/// (stderr, `STATION_LOG=info`) in `log` or nowhere: the process and its base URL.
pub fn hall_view(broker: &str, hall: &str, extra: &[&str], log: Option<&Path>) -> (Kill, String) {
    let mut cmd = Command::new(station_bin());
    cmd.args(["hall", "--hall", hall, "--listen", "127.0.0.1:0", "--broker", broker]).args(extra);
    match log {
        Some(log) => cmd.env("STATION_LOG", "info").stderr(std::fs::File::create(log).unwrap()),
        None => cmd.stderr(Stdio::null()),
    };
    let mut child = Kill::spawn(cmd.stdout(Stdio::piped()));
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(rest) = line.strip_prefix("hall: ") {
                let _ = tx.send(rest.split("/hall").next().unwrap_or_default().to_owned());
            }
        }
    });
    let base = rx.recv_timeout(Duration::from_secs(30)).expect("the hall view prints its address");
    (child, base)
}

/// `GET path` from the hall view: the body of a 200 answer.
pub fn get(base: &str, path: &str) -> String {
    let addr = base.trim_start_matches("http://");
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{path}: {head}");
    body.to_owned()
}

/// `/api/hall` as JSON.
pub fn api(base: &str) -> Value {
    serde_json::from_str(&get(base, "/api/hall")).unwrap()
}

/// Text without ANSI colour sequences (the log's).
pub fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A log file's text without colours.
pub fn read_log(path: &Path) -> String {
    plain(&std::fs::read_to_string(path).unwrap_or_default())
}

/// `mosquitto_pub` at QoS 1 to 127.0.0.1:`port` with `args` (topic, payload,
/// login, CA…); whether it succeeded.
pub fn mosquitto_pub(port: u16, args: &[&str]) -> bool {
    Command::new("mosquitto_pub")
        .args(["-h", "127.0.0.1", "-p", &port.to_string(), "-q", "1"])
        .args(args)
        .stderr(Stdio::null())
        .status()
        .unwrap()
        .success()
}

/// `mosquitto_pub` of the file `payload` on `topic` (`retain` sets -r); whether it succeeded.
pub fn publish_file(port: u16, topic: &str, payload: &Path, retain: bool) -> bool {
    let payload = payload.to_str().unwrap();
    mosquitto_pub(port, &[&["-t", topic, "-f", payload][..], if retain { &["-r"] } else { &[] }].concat())
}

/// `mosquitto_pub` of `payload` on `topic` (`retain` sets -r); whether it succeeded.
pub fn publish(port: u16, topic: &str, payload: &str, retain: bool) -> bool {
    mosquitto_pub(port, &[&["-t", topic, "-m", payload][..], if retain { &["-r"] } else { &[] }].concat())
}

/// A game header message of `board` for game `game` started at `started_ms`.
pub fn header_message(hall: &str, board: &str, game: &str, started_ms: u64) -> String {
    format!(
        r#"{{"hall":"{hall}","board":"{board}","game_id":"{game}","seq":0,"header":{{"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","started_ms":{started_ms},"tags":{{}}}}}}"#
    )
}

/// `n` real games of `plies` half-moves from the standard start position in
/// the shared PGN files, every file contributing in turn: (file, 1-based index, SANs).
pub fn real_games(
    n: usize,
    plies: std::ops::RangeInclusive<usize>,
) -> Vec<(std::path::PathBuf, usize, Vec<String>)> {
    let mut out = Vec::new();
    for name in ["Capablanca.pgn", "Fischer.pgn", "Kasparov.pgn", "PolgarJ.pgn"] {
        let path = station_tests::shared_pgn(&format!("games/{name}"));
        let bytes = std::fs::read(&path).unwrap();
        for (i, g) in station_core::pgn::read_games(&bytes).into_iter().enumerate() {
            if g.error.is_none()
                && plies.contains(&g.moves().len())
                && g.game.start_fen() == station_core::Game::default().fen()
            {
                out.push((path.clone(), i + 1, g.game.sans().iter().map(ToString::to_string).collect()));
            }
            if out.len() >= n * 4 {
                break;
            }
        }
    }
    out.sort_by_key(|(_, i, _)| *i);
    out.truncate(n);
    assert_eq!(out.len(), n, "enough real games");
    out
}

/// `openssl` with arguments, in `dir`.
pub fn openssl(dir: &Path, args: &[&str]) {
    let ok =
        Command::new("openssl").args(args).current_dir(dir).stderr(Stdio::null()).status().unwrap().success();
    assert!(ok, "openssl {args:?}");
}

/// A CA named `name` in `dir`: `<name>.key`, `<name>.pem`.
pub fn make_ca(dir: &Path, name: &str) {
    let (key, pem, subj) = (format!("{name}.key"), format!("{name}.pem"), format!("/CN={name}"));
    openssl(
        dir,
        &[
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", &key, "-out", &pem, "-days", "2",
            "-subj", &subj,
        ],
    );
}

/// The broker's key and certificate for 127.0.0.1 (`broker.key`, `broker.pem`), signed by CA `ca`.
pub fn make_broker_cert(dir: &Path, ca: &str) {
    openssl(
        dir,
        &[
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "broker.key",
            "-out",
            "broker.csr",
            "-subj",
            "/CN=127.0.0.1",
        ],
    );
    std::fs::write(dir.join("san.ext"), "subjectAltName=IP:127.0.0.1\n").unwrap();
    let (ca_pem, ca_key) = (format!("{ca}.pem"), format!("{ca}.key"));
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "broker.csr",
            "-CA",
            &ca_pem,
            "-CAkey",
            &ca_key,
            "-CAcreateserial",
            "-out",
            "broker.pem",
            "-days",
            "2",
            "-extfile",
            "san.ext",
        ],
    );
}
