use super::BrokerUrl;
use super::board_state::BoardState;
use super::view::Hall;
use super::wire::{EventMessage, GameHeader, MAX_PAYLOAD, StatusMessage};
use station_core::pgn::SevenTags;
use station_core::{BoardRole, Event};

fn header(started_ms: u64) -> GameHeader {
    GameHeader {
        fen: station_core::Game::default().fen(),
        started_ms,
        tags: SevenTags { white: "Anna".into(), black: "Bert".into(), ..SevenTags::default() },
        moves: Vec::new(),
    }
}

fn msg(board: &str, game: &str, seq: u64, event: Option<Event>, h: Option<GameHeader>) -> Vec<u8> {
    serde_json::to_vec(&EventMessage {
        hall: "h".into(),
        board: board.into(),
        game_id: Some(game.into()),
        seq: Some(seq),
        event,
        header: h,
    })
    .unwrap()
}

fn mv(ply: usize, san: &str) -> Event {
    Event::GameMove {
        ply,
        san: san.into(),
        uci: "".into(),
        by: BoardRole::Blind,
        revised: false,
        t_ms: 0,
        pdn: None,
    }
}

#[test]
fn broker_urls_parse_and_bad_ones_are_refused() {
    assert_eq!(BrokerUrl::parse("mqtt://127.0.0.1:1884").unwrap().port, 1884);
    assert_eq!(BrokerUrl::parse("mqtt://hall.local").unwrap().port, 1883);
    assert!(BrokerUrl::parse("mqtts://hall.local").unwrap().tls);
    assert!(BrokerUrl::parse("http://x:1").is_err());
    assert!(BrokerUrl::parse("mqtt://:1").is_err());
    assert!(BrokerUrl::parse("mqtt://x:99999").is_err());
}

#[test]
fn events_twice_and_out_of_order_give_each_move_once() {
    let mut hall = Hall::new("h");
    let t = "annexd/h/7/event";
    hall.on_message(t, &msg("7", "g1", 0, None, Some(header(10)))).unwrap();
    let started = Event::GameStarted {
        game_id: "g1".into(),
        fen: station_core::Game::default().fen(),
        t_ms: 10,
        tags: None,
        moves: Vec::new(),
    };
    hall.on_message(t, &msg("7", "g1", 1, Some(started), None)).unwrap();
    for (seq, ply, san) in [(3, 1, "e4"), (9, 3, "Nf3"), (5, 2, "e5"), (3, 1, "e4"), (9, 3, "Nf3")] {
        hall.on_message(t, &msg("7", "g1", seq, Some(mv(ply, san)), None)).unwrap();
    }
    let json = hall.json();
    assert_eq!(json["duplicates"], 2);
    assert_eq!(json["boards"][0]["moves"], serde_json::json!(["e4", "e5", "Nf3"]));
    let pgn = hall.pgn();
    assert!(pgn.contains("1. e4 e5 2. Nf3 *"), "{pgn}");
    assert!(pgn.contains("[White \"Anna\"]"), "{pgn}");
}

#[test]
fn forged_malformed_oversized_and_older_messages_are_dropped_with_a_reason() {
    let mut hall = Hall::new("h");
    hall.on_message("annexd/h/7/event", &msg("7", "g2", 0, None, Some(header(100)))).unwrap();
    let forged = hall.on_message("annexd/h/7/event", &msg("8", "g2", 4, Some(mv(1, "e4")), None));
    assert!(forged.unwrap_err().starts_with("forged"));
    assert!(hall.on_message("annexd/h/7/event", b"{not json").unwrap_err().starts_with("malformed"));
    let big = vec![b' '; MAX_PAYLOAD + 1];
    assert!(hall.on_message("annexd/h/7/event", &big).unwrap_err().starts_with("oversized"));
    let mut old = BoardState::new("7");
    old.game_id = Some("g1".into());
    old.header = Some(header(50));
    old.moves = vec!["d4".into()];
    let older = hall.on_message("annexd/h/7/state", &serde_json::to_vec(&old).unwrap());
    assert!(older.unwrap_err().starts_with("older game"));
    let dropped = &hall.json()["dropped"];
    for reason in ["forged", "malformed", "oversized", "older game"] {
        assert_eq!(dropped[reason], 1, "{dropped}");
    }
    assert_eq!(hall.json()["boards"][0]["moves"], serde_json::json!([]));
}

#[test]
fn alerts_come_for_flag_fall_device_loss_and_a_vanished_station() {
    let mut hall = Hall::new("h");
    let t = "annexd/h/3/event";
    hall.on_message(t, &msg("3", "g", 0, None, Some(header(1)))).unwrap();
    let flag = Event::FlagFell { side: station_core::clock::Side::White, t_ms: 5 };
    hall.on_message(t, &msg("3", "g", 2, Some(flag.clone()), None)).unwrap();
    hall.on_message(t, &msg("3", "g", 2, Some(flag), None)).unwrap();
    let mic = Event::DeviceStatus {
        device: "microphone".into(),
        name: None,
        status: "unavailable".into(),
        detail: None,
        words: Vec::new(),
        t_ms: 6,
    };
    hall.on_message(t, &msg("3", "g", 3, Some(mic), None)).unwrap();
    let gone = serde_json::to_vec(&StatusMessage { board: "3".into(), online: false }).unwrap();
    hall.on_message("annexd/h/3/status", &gone).unwrap();
    let kinds: Vec<String> = hall.json()["alerts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["kind"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(kinds, ["flag fall", "device lost", "station gone"]);
    assert!(hall.acknowledge(1));
    assert!(!hall.acknowledge(99));
}

#[test]
fn the_sealed_move_and_speech_are_never_published() {
    let heard = Event::Heard {
        text: "e4".into(),
        confidence: 1.0,
        understood: "move".into(),
        latency_ms: None,
        t_ms: 0,
    };
    assert!(!super::wire::publishable(&heard));
    assert!(super::wire::publishable(&Event::Adjourned { ply: 3, t_ms: 0 }));
}

#[test]
fn a_resumed_game_s_moves_become_san() {
    let mut state = BoardState::new("2");
    state.start_game("g");
    state.header = Some(header(1));
    let resumed = Event::GameResumed {
        game_id: "g".into(),
        ply: 3,
        moves: vec!["e2e4".into(), "e7e5".into(), "g1f3".into()],
        t_ms: 2,
    };
    state.apply(Some(5), &resumed);
    state.apply(Some(6), &mv(4, "Nc6"));
    assert_eq!(state.moves, ["e4", "e5", "Nf3", "Nc6"]);
    assert!(state.pgn().unwrap().contains("1. e4 e5 2. Nf3 Nc6 *"));
}

#[test]
fn the_hall_section_parses_and_unknown_keys_are_refused() {
    let path = std::path::Path::new("station.toml");
    let text = "[hall]\nbroker = \"mqtt://127.0.0.1:1883\"\nhall = \"ibca\"\nboard = \"7\"\n";
    let config = crate::config::Config::parse(text, path).unwrap();
    let hall = config.hall.unwrap();
    assert_eq!((hall.hall.as_str(), hall.board.as_str()), ("ibca", "7"));
    assert!(crate::config::Config::parse(&format!("{text}qos = 2\n"), path).is_err());
    assert!(crate::config::Config::parse("", path).unwrap().hall.is_none());
    assert!(super::check_name("board", "7/#").is_err());
}

/// The hall's HTTP server, spoken to byte by byte as outside tools and hostile clients do.
mod http {
    use super::super::server::{HallServer, Limits};
    use super::super::view::Hall;
    use super::{header, msg};
    use station_core::Event;
    use std::io::{Read, Write};
    use std::net::{SocketAddr, TcpListener, TcpStream};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    const TOKEN: &str = "s3cret";

    fn serve(limits: Limits) -> (HallServer, Arc<Mutex<Hall>>) {
        let hall = Arc::new(Mutex::new(Hall::new("h")));
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let server = HallServer::start(listener, Arc::clone(&hall), TOKEN, limits).unwrap();
        (server, hall)
    }

    /// Sends `request` as it is and reads until the server closes (errors count as the end).
    fn exchange(addr: SocketAddr, request: &[u8]) -> String {
        let mut s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let _ = s.write_all(request);
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    fn get(addr: SocketAddr, path: &str) -> String {
        exchange(addr, format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes())
    }

    fn ack(addr: SocketAddr, authorization: Option<&str>, body: &str) -> String {
        let auth = authorization.map(|a| format!("Authorization: {a}\r\n")).unwrap_or_default();
        let request = format!(
            "POST /api/hall/ack HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        exchange(addr, request.as_bytes())
    }

    /// The status line, the headers (lower-cased names) and the body of an answer.
    fn split(answer: &str) -> (&str, Vec<(String, String)>, &str) {
        let (head, body) = answer.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no head: {answer:?}"));
        let mut lines = head.lines();
        let status = lines.next().unwrap();
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        (status, headers, body)
    }

    fn header_of<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
        headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// A flag fall on board 3: alert 1.
    fn with_an_alert(hall: &Mutex<Hall>) {
        let mut hall = hall.lock().unwrap();
        let t = "annexd/h/3/event";
        hall.on_message(t, &msg("3", "g", 0, None, Some(header(1)))).unwrap();
        let flag = Event::FlagFell { side: station_core::clock::Side::White, t_ms: 5 };
        hall.on_message(t, &msg("3", "g", 2, Some(flag), None)).unwrap();
        assert_eq!(hall.json()["alerts"][0]["id"], 1, "{}", hall.json());
    }

    #[test]
    fn the_paths_answer_as_before_with_their_types_and_no_cache() {
        let (server, hall) = serve(Limits::default());
        with_an_alert(&hall);
        let addr = server.addr();
        let kinds = [
            ("/hall", "text/html; charset=utf-8"),
            ("/", "text/html; charset=utf-8"),
            ("/hall.pgn", "application/x-chess-pgn; charset=utf-8"),
            ("/api/hall", "application/json"),
            ("/api/hall?since=3", "application/json"),
        ];
        for (path, kind) in kinds {
            let answer = get(addr, path);
            let (status, headers, body) = split(&answer);
            assert_eq!(status, "HTTP/1.1 200 OK", "{path}");
            assert_eq!(header_of(&headers, "content-type"), Some(kind), "{path}");
            assert_eq!(header_of(&headers, "cache-control"), Some("no-store"), "{path}");
            assert_eq!(header_of(&headers, "connection"), Some("close"), "{path}");
            assert_eq!(
                header_of(&headers, "content-length"),
                Some(body.len().to_string().as_str()),
                "{path}"
            );
            let expected = match path {
                "/hall.pgn" => hall.lock().unwrap().pgn(),
                p if p.starts_with("/api/hall") => hall.lock().unwrap().json().to_string(),
                _ => include_str!("hall.html").to_owned(),
            };
            assert_eq!(body, expected, "{path}");
        }
        // The header names are spelled as the hand-written server spelled them.
        assert!(get(addr, "/api/hall").contains("\r\nContent-Type: application/json\r\n"));
        for (method, path) in
            [("GET", "/nope"), ("POST", "/hall"), ("GET", "/api/hall/ack"), ("DELETE", "/api/hall")]
        {
            let answer = exchange(
                addr,
                format!("{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n").as_bytes(),
            );
            let (status, headers, body) = split(&answer);
            assert_eq!((status, body), ("HTTP/1.1 404 Not Found", "not found\n"), "{method} {path}");
            assert_eq!(header_of(&headers, "content-type"), Some("text/plain"), "{method} {path}");
        }
    }

    #[test]
    fn acknowledging_an_alert_needs_the_arbiters_token() {
        let (server, hall) = serve(Limits::default());
        with_an_alert(&hall);
        let addr = server.addr();
        let body = r#"{"alert":1}"#;
        for auth in [
            None,
            Some("Bearer s3cre"),
            Some("Bearer s3crets"),
            Some("Bearer S3cret"),
            Some("Basic s3cret"),
            Some("Bearer "),
        ] {
            let answer = ack(addr, auth, body);
            let (status, _, text) = split(&answer);
            assert_eq!(
                (status, text),
                ("HTTP/1.1 401 Unauthorized", "the arbiter's token is required\n"),
                "{auth:?}"
            );
        }
        assert_eq!(hall.lock().unwrap().json()["alerts"][0]["acknowledged"], false);
        let bearer = Some("Bearer s3cret");
        let answer = ack(addr, bearer, "{\"alert\": 99}");
        let (status, headers, text) = split(&answer);
        assert_eq!((status, text), ("HTTP/1.1 404 Not Found", "no such alert\n"));
        assert_eq!(header_of(&headers, "cache-control"), Some("no-store"));
        for bad in ["{not json", "", "{\"alert\":\"1\"}", "[1]"] {
            let answer = ack(addr, bearer, bad);
            assert_eq!(split(&answer).0, "HTTP/1.1 400 Bad Request", "{bad:?}: {answer}");
        }
        let answer = ack(addr, bearer, body);
        let (status, headers, text) = split(&answer);
        assert_eq!((status, text), ("HTTP/1.1 200 OK", "{\"ok\":true}"));
        assert_eq!(header_of(&headers, "content-type"), Some("application/json"));
        assert_eq!(hall.lock().unwrap().json()["alerts"][0]["acknowledged"], true);
    }

    #[test]
    fn malformed_and_oversized_requests_get_a_4xx_and_the_server_goes_on() {
        let (server, hall) = serve(Limits::default());
        with_an_alert(&hall);
        let addr = server.addr();
        let big_body = format!("{{\"alert\":1,\"pad\":\"{}\"}}", "x".repeat(4096));
        // Too large a body: refused with or without reading it, the token first.
        let answer = ack(addr, Some("Bearer s3cret"), &big_body);
        assert_eq!(split(&answer).0, "HTTP/1.1 413 Payload Too Large", "{answer}");
        assert_eq!(split(&ack(addr, None, &big_body)).0, "HTTP/1.1 401 Unauthorized");
        // Without a declared length the limit counts the bytes as they come.
        let chunked = format!(
            "POST /api/hall/ack HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{big_body}\r\n0\r\n\r\n",
            big_body.len()
        );
        let answer = exchange(addr, chunked.as_bytes());
        assert!(answer.starts_with("HTTP/1.1 413 "), "{answer:?}");
        assert_eq!(hall.lock().unwrap().json()["alerts"][0]["acknowledged"], false);
        let huge_head = format!("GET /hall HTTP/1.1\r\nHost: x\r\nX-Pad: {}\r\n\r\n", "a".repeat(17 * 1024));
        let garbage = [
            (b"GARBAGE\r\n\r\n".to_vec(), "400"),
            (b"GET /hall HTTP/1.1\r\nno colon here\r\n\r\n".to_vec(), "400"),
            (b"GET /hall HTTP/9.9\r\n\r\n".to_vec(), "400"),
            (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n".to_vec(), "400"),
            (huge_head.into_bytes(), "431"),
        ];
        for (request, code) in garbage {
            let answer = exchange(addr, &request);
            assert!(
                answer.starts_with(&format!("HTTP/1.1 {code} ")),
                "{:?}: {answer:?}",
                String::from_utf8_lossy(&request[..request.len().min(40)])
            );
        }
        let answer = get(addr, "/api/hall");
        assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
    }

    #[test]
    fn the_token_is_checked_before_the_body_is_waited_for() {
        let limits = Limits { body_timeout: Duration::from_millis(300), ..Limits::default() };
        let (server, hall) = serve(limits);
        with_an_alert(&hall);
        let addr = server.addr();
        // Each head promises a body that never comes: only the arbiter is waited for, and not long.
        let promised = |auth: &str, length: usize| {
            let head = format!(
                "POST /api/hall/ack HTTP/1.1\r\nHost: x\r\nAuthorization: {auth}\r\nContent-Length: {length}\r\n\r\n"
            );
            exchange(addr, head.as_bytes())
        };
        let answer = promised("Bearer wrong", 11);
        assert!(answer.starts_with("HTTP/1.1 401 "), "{answer:?}");
        let answer = promised("Bearer s3cret", 100_000);
        assert!(answer.starts_with("HTTP/1.1 413 "), "{answer:?}");
        let answer = promised("Bearer s3cret", 11);
        assert!(answer.starts_with("HTTP/1.1 408 "), "{answer:?}");
        assert_eq!(hall.lock().unwrap().json()["alerts"][0]["acknowledged"], false);
    }

    #[test]
    fn at_the_cap_one_more_connection_is_closed_and_idle_ones_time_out() {
        let limits =
            Limits { connections: 2, header_timeout: Duration::from_millis(300), ..Limits::default() };
        let (server, _hall) = serve(limits);
        let addr = server.addr();
        let idle: Vec<TcpStream> = (0..2).map(|_| TcpStream::connect(addr).unwrap()).collect();
        // Both slots are taken (the server accepts in order): the third is closed unanswered.
        assert_eq!(get(addr, "/api/hall"), "");
        // The idle ones are closed when their head does not come.
        for mut s in idle {
            s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
            let mut out = Vec::new();
            let _ = s.read_to_end(&mut out);
            assert!(!String::from_utf8_lossy(&out).contains("200 OK"));
        }
        // Their slots are free again (the server notices the close a moment later).
        let deadline = Instant::now() + Duration::from_secs(10);
        while !get(addr, "/api/hall").starts_with("HTTP/1.1 200 OK") {
            assert!(Instant::now() < deadline, "the slots never came free");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn an_empty_token_is_refused_and_a_stopped_server_no_longer_listens() {
        let hall = Arc::new(Mutex::new(Hall::new("h")));
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        assert!(HallServer::start(listener, Arc::clone(&hall), " ", Limits::default()).is_err());
        let (server, _hall) = serve(Limits::default());
        let addr = server.addr();
        assert!(get(addr, "/hall").starts_with("HTTP/1.1 200 OK"));
        server.shutdown();
        assert!(TcpStream::connect(addr).is_err(), "still listening after shutdown");
    }
}
